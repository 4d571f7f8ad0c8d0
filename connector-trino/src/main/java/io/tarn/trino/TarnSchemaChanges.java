package io.tarn.trino;

import io.tarn.storage.CommitConflictException;
import io.tarn.storage.schema.SchemaManager;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.table.NestingDepth;
import io.tarn.storage.table.PaimonTable;
import io.tarn.storage.table.TableOptions;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ColumnMetadata;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static io.tarn.trino.TarnErrorCode.TARN_UNSUPPORTED_FEATURE;
import static io.trino.spi.StandardErrorCode.ALREADY_EXISTS;
import static io.trino.spi.StandardErrorCode.COLUMN_NOT_FOUND;

/**
 * ALTER TABLE as Paimon's schema evolution: every change publishes the next schema file. Columns
 * keep their field ids across renames; an added column takes a new id, so files written before
 * read it as null; a dropped column's id is never reused.
 */
final class TarnSchemaChanges
{
    private TarnSchemaChanges() {}

    static void addColumn(PaimonTable table, ColumnMetadata column)
            throws IOException
    {
        TableSchema current = table.latestSchema();
        if (current.rowType().field(column.getName()).isPresent()) {
            throw new TrinoException(ALREADY_EXISTS, "Table %s already has a column '%s'".formatted(table.name(), column.getName()));
        }
        AtomicInteger highestFieldId = new AtomicInteger(current.highestFieldId());
        int id = highestFieldId.incrementAndGet();
        DataType type = TarnWriteTypes.toPaimonType(column.getType(), highestFieldId);
        List<DataField> fields = new ArrayList<>(current.fields());
        fields.add(new DataField(id, column.getName(), type, column.getComment(), Optional.empty()));
        publish(table, current, fields, highestFieldId.get());
    }

    static void renameColumn(PaimonTable table, int fieldId, String newName)
            throws IOException
    {
        TableSchema current = table.latestSchema();
        DataField field = field(table, current, fieldId);
        checkNotKey(table, current, field, "rename");
        if (current.rowType().field(newName).isPresent()) {
            throw new TrinoException(ALREADY_EXISTS, "Table %s already has a column '%s'".formatted(table.name(), newName));
        }
        List<DataField> fields = new ArrayList<>();
        for (DataField existing : current.fields()) {
            fields.add(existing.id() == fieldId
                    ? new DataField(existing.id(), newName, existing.type(), existing.description(), existing.defaultValue())
                    : existing);
        }
        publish(table, current, fields, current.highestFieldId());
    }

    static void dropColumn(PaimonTable table, int fieldId)
            throws IOException
    {
        TableSchema current = table.latestSchema();
        DataField field = field(table, current, fieldId);
        checkNotKey(table, current, field, "drop");
        if (current.fields().size() == 1) {
            throw new TrinoException(TARN_UNSUPPORTED_FEATURE, "Cannot drop the only column of table " + table.name());
        }
        List<DataField> fields = current.fields().stream().filter(existing -> existing.id() != fieldId).toList();
        publish(table, current, fields, current.highestFieldId());
    }

    private static DataField field(PaimonTable table, TableSchema schema, int fieldId)
    {
        return schema.fields().stream()
                .filter(field -> field.id() == fieldId)
                .findFirst()
                .orElseThrow(() -> new TrinoException(COLUMN_NOT_FOUND, "Table %s has no column with field id %s in its latest schema %s".formatted(table.name(), fieldId, schema.id())));
    }

    private static void checkNotKey(PaimonTable table, TableSchema schema, DataField field, String change)
    {
        if (schema.partitionKeys().contains(field.name()) || schema.primaryKeys().contains(field.name()) || schema.bucketKeys().contains(field.name())) {
            throw new TrinoException(TARN_UNSUPPORTED_FEATURE, "Cannot %s column '%s' of table %s: it is a partition, primary or bucket key".formatted(change, field.name(), table.name()));
        }
    }

    private static void publish(PaimonTable table, TableSchema current, List<DataField> fields, int highestFieldId)
            throws IOException
    {
        TableSchema next = new TableSchema(current.version(), current.id() + 1, fields, highestFieldId, current.partitionKeys(), current.primaryKeys(),
                current.options(), current.comment(), System.currentTimeMillis());
        // as at CREATE: nothing is published that places files outside the table or that the
        // reader could not read back
        new TableOptions(table.name(), next.options()).checkPaths(table.location());
        NestingDepth.check(table.name(), next.fields());
        if (!new SchemaManager(table.fileIO(), table.location(), table.branch()).commit(next)) {
            throw new CommitConflictException("Schema %s of table %s was written concurrently; run the change again".formatted(next.id(), table.name()));
        }
    }
}
