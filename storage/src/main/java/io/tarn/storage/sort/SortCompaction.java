package io.tarn.storage.sort;

import io.tarn.storage.CommitConflictException;
import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.binary.BinaryRow;
import io.tarn.storage.binary.PartitionPath;
import io.tarn.storage.commit.TableCommit;
import io.tarn.storage.manifest.FileKind;
import io.tarn.storage.manifest.ManifestEntry;
import io.tarn.storage.read.ReadRequest;
import io.tarn.storage.scan.DataSplit;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.snapshot.CommitKind;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.snapshot.Snapshot;
import io.tarn.storage.source.TableRead;
import io.tarn.storage.table.PaimonTable;
import io.tarn.storage.schema.TableOptions;
import io.tarn.storage.write.AppendTableWriter;
import io.tarn.storage.write.WrittenFiles;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.vector.ArrowTypes;
import org.apache.arrow.memory.BufferAllocator;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Sort compaction of an append table, as Paimon's sort compact action does it: the live rows of
 * the chosen partitions are read, sorted by z-value, Hilbert value or plain order of the sort
 * columns, written again into files of the table's {@code target-file-size}, and committed as one
 * OVERWRITE snapshot that deletes the files read and adds the files written. Files then cover
 * narrow ranges of the sort columns, so their min/max statistics skip most files for a range
 * query on those columns. Other partitions are untouched.
 *
 * <p>Each partition is sorted on its own (rows of different partitions never share a file) with
 * an external sort bounded by {@link SortCompactRequest#memoryBudgetBytes()}. The commit deletes
 * exactly the files that were read: a file another writer added meanwhile stays live, and a file
 * another commit removed meanwhile fails the commit with a conflict, after which the files
 * written are deleted.
 */
public final class SortCompaction
{
    private static final String VAR_LENGTH_CONTRIBUTION = "zorder.var-length-contribution";
    private static final int DEFAULT_VAR_LENGTH_CONTRIBUTION = 8;
    /** Paimon's commit identifier for batch writes. */
    private static final long BATCH_COMMIT_IDENTIFIER = Long.MAX_VALUE;

    private SortCompaction() {}

    /**
     * Rewrites the partitions {@code request} chooses in sorted order and commits them.
     *
     * @throws UnsupportedTableFeatureException if the table has a primary key or tracks rows, or a
     * file to rewrite has a deletion vector
     * @throws IllegalArgumentException if a sort column or partition column is unknown, or a sort
     * column's type cannot be ordered by the strategy
     * @throws io.tarn.storage.CommitConflictException if another commit removed a file read
     */
    public static SortCompactResult run(PaimonTable table, SortCompactRequest request, BufferAllocator allocator)
            throws IOException
    {
        TableSchema schema = table.latestSchema();
        if (!schema.primaryKeys().isEmpty()) {
            throw new UnsupportedTableFeatureException("Table " + table.name() + " has a primary key; sort-compact rewrites append tables only");
        }
        TableOptions options = new TableOptions(table.name(), schema.options());
        if (options.rowTrackingEnabled()) {
            // a rewrite must keep every row's _ROW_ID and _SEQUENCE_NUMBER by storing them in the new files, which Tarn's writer does not
            throw new UnsupportedTableFeatureException("Table " + table.name() + " sets option row-tracking.enabled = 'true'; sort-compact of tables that track rows is not supported yet");
        }
        RowKeys keys = rowKeys(table, schema, options, request);
        checkPartitionSpecs(table, schema, request.partitions());

        Optional<Snapshot> snapshot = table.snapshot(new ScanVersion.Latest());
        ScanPlan plan = new ScanPlanner(table).plan(snapshot);
        if (plan.readSchema().id() != schema.id()) {
            throw new UnsupportedTableFeatureException("Table " + table.name() + " has schema " + schema.id() + " but its latest snapshot " + snapshot.map(Snapshot::id).orElse(0L)
                    + " uses schema " + plan.readSchema().id() + "; write to the table once before sort-compacting it");
        }
        Map<BinaryRow, List<DataSplit>> splitsByPartition = new LinkedHashMap<>();
        for (DataSplit split : plan.splits()) {
            if (split.mergeRequired()) {
                throw new UnsupportedTableFeatureException("Table " + table.name() + " has splits that need merging; sort-compact rewrites append tables only");
            }
            if (matches(split.partition(), schema, options, request.partitions())) {
                for (PlannedFile file : split.files()) {
                    if (file.deletionFile().isPresent()) {
                        // the index manifest would keep the vectors of the replaced files: refuse rather than leave stale entries
                        throw new UnsupportedTableFeatureException("Table " + table.name() + ": data file " + file.file().fileName()
                                + " has a deletion vector; sort-compact of append tables with deletion vectors is not supported yet");
                    }
                }
                splitsByPartition.computeIfAbsent(split.partition(), ignored -> new ArrayList<>()).add(split);
            }
        }
        if (splitsByPartition.isEmpty()) {
            return new SortCompactResult(Optional.empty(), 0, 0, 0, 0, 0);
        }

        List<ManifestEntry> changes = new ArrayList<>();
        ReadRequest read = ReadRequest.of(schema.fields());
        SpillDirectory spillParent = SpillDirectory.open(request.spillDirectory().orElse(SpillDirectory.defaultRoot()));
        int spilledRuns = 0;
        long rows = 0;
        List<ManifestEntry> adds;
        try (AppendTableWriter writer = new AppendTableWriter(table, allocator)) {
            for (List<DataSplit> splits : splitsByPartition.values()) {
                for (DataSplit split : splits) {
                    for (PlannedFile file : split.files()) {
                        changes.add(new ManifestEntry(FileKind.DELETE, file.partition(), file.bucket(), file.totalBuckets(), file.file()));
                    }
                }
                ScanPlan partitionPlan = new ScanPlan(plan.snapshot(), plan.readSchema(), splits, plan.metrics());
                try (ExternalSorter sorter = new ExternalSorter(ArrowTypes.toArrowSchema(schema.fields()), keys, request.memoryBudgetBytes(),
                        ReadRequest.DEFAULT_BATCH_SIZE, spillParent, allocator)) {
                    TableRead.forEachBatch(table, partitionPlan, read, allocator, sorter::add);
                    long[] written = {0};
                    sorter.finish(batch -> {
                        written[0] += batch.getRowCount();
                        writer.write(batch);
                    });
                    rows += written[0];
                    spilledRuns += sorter.spilledRuns();
                }
            }
            adds = writer.prepareCommit();
        }
        int filesRead = changes.size();
        changes.addAll(adds);
        Snapshot committed;
        try {
            committed = new TableCommit(table, "tarn-sort-compact-" + UUID.randomUUID()).commit(changes, CommitKind.OVERWRITE, BATCH_COMMIT_IDENTIFIER);
        }
        catch (CommitConflictException e) {
            // only a conflict proves that no snapshot names the new files; after other failures they may be committed
            WrittenFiles.deleteAfterFailure(table, adds, e);
            throw e;
        }
        return new SortCompactResult(Optional.of(committed), splitsByPartition.size(), filesRead, adds.size(), rows, spilledRuns);
    }

    private static RowKeys rowKeys(PaimonTable table, TableSchema schema, TableOptions options, SortCompactRequest request)
    {
        int[] positions = new int[request.columns().size()];
        List<DataType> types = new ArrayList<>();
        for (int i = 0; i < positions.length; i++) {
            String name = request.columns().get(i);
            DataField field = schema.rowType().field(name).orElseThrow(() -> new IllegalArgumentException(
                    "Table " + table.name() + " has no column '" + name + "' to sort by; its columns are " + String.join(", ", schema.rowType().fieldNames())));
            positions[i] = schema.rowType().indexOf(name);
            types.add(field.type());
        }
        int varLengthContribution = options.get(VAR_LENGTH_CONTRIBUTION).map(value -> parsePositive(table, value)).orElse(DEFAULT_VAR_LENGTH_CONTRIBUTION);
        try {
            return new RowKeys(request.strategy(), positions, types, varLengthContribution);
        }
        catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Cannot sort-compact table " + table.name() + " by " + request.columns() + ": " + e.getMessage(), e);
        }
    }

    private static int parsePositive(PaimonTable table, String value)
    {
        try {
            int parsed = Integer.parseInt(value.trim());
            if (parsed > 0) {
                return parsed;
            }
        }
        catch (NumberFormatException e) {
            throw new IllegalArgumentException("Table " + table.name() + " has an invalid " + VAR_LENGTH_CONTRIBUTION + ": '" + value + "'", e);
        }
        throw new IllegalArgumentException("Table " + table.name() + " has an invalid " + VAR_LENGTH_CONTRIBUTION + ": '" + value + "'");
    }

    private static void checkPartitionSpecs(PaimonTable table, TableSchema schema, List<Map<String, String>> specs)
    {
        for (Map<String, String> spec : specs) {
            for (String column : spec.keySet()) {
                if (!schema.partitionKeys().contains(column)) {
                    throw new IllegalArgumentException("Table " + table.name() + " has no partition column '" + column + "'; its partition columns are "
                            + (schema.partitionKeys().isEmpty() ? "none" : String.join(", ", schema.partitionKeys())));
                }
            }
        }
    }

    private static boolean matches(BinaryRow partition, TableSchema schema, TableOptions options, List<Map<String, String>> specs)
    {
        if (specs.isEmpty()) {
            return true;
        }
        Map<String, String> values = PartitionPath.values(partition, schema.partitionType(), options.partitionDefaultName(), options.partitionLegacyName());
        for (Map<String, String> spec : specs) {
            if (values.entrySet().containsAll(spec.entrySet())) {
                return true;
            }
        }
        return false;
    }
}
