package io.tarn.trino;

import io.tarn.storage.snapshot.Snapshot;
import io.tarn.storage.commit.OrphanFiles;
import io.tarn.storage.commit.SnapshotExpiration;
import io.tarn.storage.grammar.VersionParser;
import io.tarn.storage.grammar.VersionSyntaxException;
import io.tarn.storage.sort.SortCompactRequest;
import io.tarn.storage.sort.SortCompaction;
import io.tarn.storage.sort.SortStrategy;
import io.tarn.storage.sort.SpillDirectory;
import io.tarn.storage.snapshot.TagManager;
import io.tarn.storage.table.PaimonTable;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.procedure.Procedure;
import io.trino.spi.procedure.Procedure.Argument;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.tarn.trino.TarnErrorCode.TARN_UNKNOWN_SNAPSHOT;
import static io.trino.spi.StandardErrorCode.ALREADY_EXISTS;
import static io.trino.spi.StandardErrorCode.INVALID_PROCEDURE_ARGUMENT;
import static io.airlift.slice.Slices.utf8Slice;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.util.Objects.requireNonNull;

/**
 * {@code CALL tarn.system.create_tag(schema, table, tag[, snapshot_id])},
 * {@code delete_tag(schema, table, tag)}, {@code rollback_to(schema, table, snapshot_id)} and
 * {@code expire_snapshots(schema, table, retain_last)} and
 * {@code sort_compact(schema, table, columns[, strategy[, partitions]])}.
 */
final class TarnProcedures
{
    private final TarnTables tables;
    private final SpillDirectory spillDirectory;

    TarnProcedures(TarnTables tables, SpillDirectory spillDirectory)
    {
        this.tables = requireNonNull(tables, "tables is null");
        this.spillDirectory = requireNonNull(spillDirectory, "spillDirectory is null");
    }

    Set<Procedure> procedures()
    {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            MethodHandle createTag = lookup.findVirtual(TarnProcedures.class, "createTag", MethodType.methodType(void.class, String.class, String.class, String.class, Long.class));
            MethodHandle deleteTag = lookup.findVirtual(TarnProcedures.class, "deleteTag", MethodType.methodType(void.class, String.class, String.class, String.class));
            MethodHandle rollbackTo = lookup.findVirtual(TarnProcedures.class, "rollbackTo", MethodType.methodType(void.class, String.class, String.class, Long.class));
            MethodHandle expireSnapshots = lookup.findVirtual(TarnProcedures.class, "expireSnapshots", MethodType.methodType(void.class, String.class, String.class, Long.class));
            MethodHandle removeOrphanFiles = lookup.findVirtual(TarnProcedures.class, "removeOrphanFiles", MethodType.methodType(void.class, String.class, String.class, String.class));
            MethodHandle sortCompact = lookup.findVirtual(TarnProcedures.class, "sortCompact",
                    MethodType.methodType(void.class, String.class, String.class, String.class, String.class, String.class));
            return Set.of(
                    new Procedure("system", "sort_compact", List.of(
                            new Argument("SCHEMA_NAME", VARCHAR),
                            new Argument("TABLE_NAME", VARCHAR),
                            new Argument("COLUMNS", VARCHAR),
                            new Argument("STRATEGY", VARCHAR, false, utf8Slice("zorder")),
                            new Argument("PARTITIONS", VARCHAR, false, null)),
                            sortCompact.bindTo(this)),
                    new Procedure("system", "rollback_to", List.of(
                            new Argument("SCHEMA_NAME", VARCHAR),
                            new Argument("TABLE_NAME", VARCHAR),
                            new Argument("SNAPSHOT_ID", BIGINT)),
                            rollbackTo.bindTo(this)),
                    new Procedure("system", "expire_snapshots", List.of(
                            new Argument("SCHEMA_NAME", VARCHAR),
                            new Argument("TABLE_NAME", VARCHAR),
                            new Argument("RETAIN_LAST", BIGINT)),
                            expireSnapshots.bindTo(this)),
                    new Procedure("system", "remove_orphan_files", List.of(
                            new Argument("SCHEMA_NAME", VARCHAR),
                            new Argument("TABLE_NAME", VARCHAR),
                            new Argument("OLDER_THAN", VARCHAR, false, null)),
                            removeOrphanFiles.bindTo(this)),
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
        PaimonTable table = tables.loadForChange(new SchemaTableName(schemaName, tableName));
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

    /**
     * Makes {@code snapshotId} the latest snapshot again and deletes the files only the removed
     * later snapshots referenced ({@link SnapshotExpiration#rollbackTo}).
     */
    public void rollbackTo(String schemaName, String tableName, Long snapshotId)
    {
        PaimonTable table = tables.loadForChange(new SchemaTableName(schemaName, tableName));
        try {
            SnapshotExpiration.rollbackTo(table, requireNonNull(snapshotId, "snapshotId is null"));
        }
        catch (IOException | RuntimeException e) {
            throw TarnExceptions.translate("Cannot roll back table " + table.name() + " to snapshot " + snapshotId, e);
        }
    }

    /**
     * Keeps the newest {@code retainLast} snapshots, removes the older ones and deletes the data
     * and metadata files no remaining snapshot or tag references ({@link SnapshotExpiration#expire}).
     */
    public void expireSnapshots(String schemaName, String tableName, Long retainLast)
    {
        PaimonTable table = tables.loadForChange(new SchemaTableName(schemaName, tableName));
        if (retainLast == null || retainLast < 1 || retainLast > Integer.MAX_VALUE) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "retain_last must be between 1 and %s: %s".formatted(Integer.MAX_VALUE, retainLast));
        }
        try {
            SnapshotExpiration.expire(table, retainLast.intValue());
        }
        catch (IOException | RuntimeException e) {
            throw TarnExceptions.translate("Cannot expire snapshots of table " + table.name(), e);
        }
    }

    /**
     * Deletes the table's files that no snapshot, tag or branch references and that are older
     * than {@code olderThan} (a timestamp in the version grammar: {@code 2024-01-01T00:00:00Z},
     * epoch millis, ...), by default a day before now: younger files may belong to a commit in
     * progress.
     */
    public void removeOrphanFiles(String schemaName, String tableName, String olderThan)
    {
        PaimonTable table = tables.loadForChange(new SchemaTableName(schemaName, tableName));
        Instant before;
        try {
            before = olderThan == null ? Instant.now().minus(Duration.ofDays(1)) : Instant.ofEpochMilli(VersionParser.timestampMillis(olderThan.trim()));
        }
        catch (VersionSyntaxException e) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "older_than: " + e.getMessage(), e);
        }
        try {
            OrphanFiles.remove(table, before);
        }
        catch (IOException | RuntimeException e) {
            throw TarnExceptions.translate("Cannot remove orphan files of table " + table.name(), e);
        }
    }

    /**
     * Rewrites the chosen partitions of an append table sorted by {@code columns} (comma
     * separated) in {@code strategy} order ({@code zorder}, {@code hilbert} or {@code order}) and
     * commits an OVERWRITE snapshot. {@code partitions}: null for every partition, else partition
     * specs separated by {@code ;}, each {@code key=value[,key=value]}.
     */
    public void sortCompact(String schemaName, String tableName, String columns, String strategy, String partitions)
    {
        PaimonTable table = tables.loadForChange(new SchemaTableName(schemaName, tableName));
        SortCompactRequest request;
        try {
            request = SortCompactRequest.of(SortStrategy.fromName(requireNonNull(strategy, "strategy is null").trim()), names(columns))
                    .withPartitions(partitionSpecs(partitions))
                    .withSpillDirectory(spillDirectory.root());
        }
        catch (RuntimeException e) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "Cannot sort-compact table %s: %s".formatted(table.name(), e.getMessage()), e);
        }
        try (BufferAllocator allocator = new RootAllocator()) {
            SortCompaction.run(table, request, allocator);
        }
        catch (IOException | RuntimeException e) {
            throw TarnExceptions.translate("Cannot sort-compact table " + table.name(), e);
        }
    }

    private static List<String> names(String columns)
    {
        if (columns == null || columns.isBlank()) {
            throw new IllegalArgumentException("columns must name at least one column");
        }
        return Arrays.stream(columns.split(",")).map(String::trim).toList();
    }

    private static List<Map<String, String>> partitionSpecs(String partitions)
    {
        List<Map<String, String>> specs = new ArrayList<>();
        if (partitions == null || partitions.isBlank()) {
            return specs;
        }
        for (String spec : partitions.split(";")) {
            Map<String, String> values = new LinkedHashMap<>();
            for (String pair : spec.split(",")) {
                int equals = pair.indexOf('=');
                if (equals <= 0) {
                    throw new IllegalArgumentException("partition spec '" + spec.trim() + "' is not key=value[,key=value]");
                }
                values.put(pair.substring(0, equals).trim(), pair.substring(equals + 1).trim());
            }
            specs.add(values);
        }
        return specs;
    }

    public void deleteTag(String schemaName, String tableName, String tag)
    {
        PaimonTable table = tables.loadForChange(new SchemaTableName(schemaName, tableName));
        try {
            if (!table.tagManager().deleteTag(tag)) {
                throw new TrinoException(TARN_UNKNOWN_SNAPSHOT, "Tag '%s' does not exist in table %s".formatted(tag, table.name()));
            }
        }
        catch (IOException | RuntimeException e) {
            throw TarnExceptions.translate("Cannot delete tag '" + tag + "' of table " + table.name(), e);
        }
    }
}
