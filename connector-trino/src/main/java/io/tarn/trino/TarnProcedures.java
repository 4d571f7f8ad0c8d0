package io.tarn.trino;

import io.tarn.storage.snapshot.Snapshot;
import io.tarn.storage.snapshot.TagManager;
import io.tarn.storage.table.PaimonTable;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.procedure.Procedure;
import io.trino.spi.procedure.Procedure.Argument;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;
import java.util.Set;

import static io.tarn.trino.TarnErrorCode.TARN_UNKNOWN_SNAPSHOT;
import static io.trino.spi.StandardErrorCode.ALREADY_EXISTS;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.util.Objects.requireNonNull;

/**
 * {@code CALL tarn.system.create_tag(schema, table, tag, snapshot)} and
 * {@code CALL tarn.system.delete_tag(schema, table, tag)}.
 */
final class TarnProcedures
{
    private final TarnTables tables;

    TarnProcedures(TarnTables tables)
    {
        this.tables = requireNonNull(tables, "tables is null");
    }

    Set<Procedure> procedures()
    {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            MethodHandle createTag = lookup.findVirtual(TarnProcedures.class, "createTag", MethodType.methodType(void.class, String.class, String.class, String.class, Long.class));
            MethodHandle deleteTag = lookup.findVirtual(TarnProcedures.class, "deleteTag", MethodType.methodType(void.class, String.class, String.class, String.class));
            return Set.of(
                    new Procedure("system", "create_tag", List.of(
                            new Argument("SCHEMA_NAME", VARCHAR),
                            new Argument("TABLE_NAME", VARCHAR),
                            new Argument("TAG", VARCHAR),
                            new Argument("SNAPSHOT_ID", BIGINT, false, null)),
                            createTag.bindTo(this)),
                    new Procedure("system", "delete_tag", List.of(
                            new Argument("SCHEMA_NAME", VARCHAR),
                            new Argument("TABLE_NAME", VARCHAR),
                            new Argument("TAG", VARCHAR)),
                            deleteTag.bindTo(this)));
        }
        catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Tags {@code snapshotId}, or the latest snapshot when it is null.
     */
    public void createTag(String schemaName, String tableName, String tag, Long snapshotId)
    {
        PaimonTable table = tables.load(new SchemaTableName(schemaName, tableName));
        try {
            TagManager.validateTagName(tag);
            if (table.tagManager().tag(tag).isPresent()) {
                throw new TrinoException(ALREADY_EXISTS, "Tag '%s' already exists in table %s".formatted(tag, table.name()));
            }
            Snapshot snapshot = snapshotId == null
                    ? table.snapshotManager().latest().orElseThrow(() -> new TrinoException(TARN_UNKNOWN_SNAPSHOT, "Table %s has no snapshot to tag".formatted(table.name())))
                    : table.snapshotManager().snapshot(snapshotId);
            table.tagManager().createTag(tag, snapshot);
        }
        catch (IOException | RuntimeException e) {
            throw TarnExceptions.translate("Cannot create tag '" + tag + "' of table " + table.name(), e);
        }
    }

    public void deleteTag(String schemaName, String tableName, String tag)
    {
        PaimonTable table = tables.load(new SchemaTableName(schemaName, tableName));
        try {
            TagManager.validateTagName(tag);
            if (table.tagManager().tag(tag).isEmpty()) {
                throw new TrinoException(TARN_UNKNOWN_SNAPSHOT, "Tag '%s' does not exist in table %s".formatted(tag, table.name()));
            }
            table.fileIO().delete(table.tagManager().tagPath(tag));
        }
        catch (IOException | RuntimeException e) {
            throw TarnExceptions.translate("Cannot delete tag '" + tag + "' of table " + table.name(), e);
        }
    }
}
