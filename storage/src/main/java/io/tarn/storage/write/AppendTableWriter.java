package io.tarn.storage.write;

import io.tarn.index.fileindex.FileIndexBuilder;
import io.tarn.index.fileindex.FileIndexOptions;
import io.tarn.index.fileindex.FileIndexOptions.IndexSpec;
import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.binary.BinaryRow;
import io.tarn.storage.binary.BinaryRowWriter;
import io.tarn.storage.binary.BucketFunction;
import io.tarn.storage.manifest.DataFileMeta;
import io.tarn.storage.manifest.FileKind;
import io.tarn.storage.manifest.ManifestEntry;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.table.PaimonTable;
import io.tarn.storage.schema.TableOptions;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.vector.ArrowTypes;
import io.tarn.vector.filter.BatchFilter;
import io.tarn.vector.rows.ArrowValues;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static java.util.Objects.requireNonNull;

/**
 * Writes Arrow batches into an append table: each row goes to its partition and bucket
 * (bucket 0 for bucket-unaware tables, the bucket-key hash for fixed-bucket tables), each
 * partition and bucket rolls data files of the table's {@code file.format} (Parquet, ORC or Avro) at
 * {@code target-file-size}, and
 * {@link #prepareCommit()} returns the ADD entries to commit with
 * {@link io.tarn.storage.commit.TableCommit}.
 *
 * <p>Batches must have the schema {@code ArrowTypes.toArrowSchema(table's latest fields)}; the
 * writer does not take ownership of them. Files of a writer closed without
 * {@link #prepareCommit()} are deleted.
 */
public final class AppendTableWriter
        implements AutoCloseable
{
    private static final long DEFAULT_TARGET_FILE_SIZE = 256L << 20;

    private final PaimonTable table;
    private final TableSchema schema;
    private final BufferAllocator allocator;
    private final DataFileFormat format;
    private final ValueStatsBuilder statsBuilder;
    private final long targetFileSize;
    private final List<IndexSpec> indexSpecs;
    private final long indexInManifestThreshold;
    private final int numBuckets;
    private final boolean modBucketFunction;
    private final List<Integer> partitionColumns = new ArrayList<>();
    private final List<DataType> partitionTypes = new ArrayList<>();
    private final List<Integer> bucketKeyColumns = new ArrayList<>();
    private final List<DataType> bucketKeyTypes = new ArrayList<>();
    private final String filePrefix = "data-" + UUID.randomUUID() + "-";
    private final Map<BucketKey, RollingFileWriter> writers = new LinkedHashMap<>();
    private final Map<BucketKey, Long> nextSequenceNumbers = new HashMap<>();
    private final boolean rowTracking;
    private boolean sequenceNumbersLoaded;
    private int fileCounter;

    public AppendTableWriter(PaimonTable table, BufferAllocator allocator)
            throws IOException
    {
        this.table = requireNonNull(table, "table is null");
        this.schema = table.latestSchema();
        if (!schema.primaryKeys().isEmpty()) {
            throw new UnsupportedTableFeatureException("Table " + table.name() + " has a primary key; writing primary-key tables is not built yet");
        }
        TableOptions options = new TableOptions(table.name(), schema.options());
        this.format = DataFileFormat.of(table.name(), schema);
        if (options.flag("data-evolution.enabled")) {
            // such tables take files that hold some columns of a range of row ids, which Tarn does not write
            throw new UnsupportedTableFeatureException("Table " + table.name() + " sets option data-evolution.enabled = 'true'; Tarn does not write tables with data evolution");
        }
        // the commit assigns row ids and, to a writer's first file, the snapshot id as sequence numbers
        this.rowTracking = options.rowTrackingEnabled();
        this.allocator = requireNonNull(allocator, "allocator is null").newChildAllocator("append-writer", 0, Long.MAX_VALUE);
        this.statsBuilder = new ValueStatsBuilder(schema.fields(), schema.options(), table.name(), format);
        this.targetFileSize = options.get("target-file-size").map(value -> TableOptions.parseMemorySize("target-file-size", value, table.name())).orElse(DEFAULT_TARGET_FILE_SIZE);
        try {
            this.indexSpecs = FileIndexOptions.parse(schema.options());
            // a misconfigured index fails the writer now, not at its first file
            FileIndexBuilder.create(indexSpecs, schema.rowType());
        }
        catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Table " + table.name() + ": " + e.getMessage(), e);
        }
        this.indexInManifestThreshold = options.fileIndexInManifestThreshold();
        this.numBuckets = options.bucket();
        this.modBucketFunction = options.modBucketFunction();
        for (DataField field : schema.partitionType().fields()) {
            partitionColumns.add(schema.rowType().indexOf(field.name()));
            partitionTypes.add(field.type());
        }
        if (numBuckets > 0) {
            if (schema.bucketKeys().isEmpty()) {
                throw new IllegalArgumentException("Table " + table.name() + " has bucket=" + numBuckets + " but no bucket-key");
            }
            for (String key : schema.bucketKeys()) {
                DataField field = schema.rowType().field(key)
                        .orElseThrow(() -> new IllegalArgumentException("Table " + table.name() + " has an unknown bucket-key column " + key));
                bucketKeyColumns.add(schema.rowType().indexOf(key));
                bucketKeyTypes.add(field.type());
            }
        }
        else if (numBuckets != -1) {
            throw new UnsupportedTableFeatureException("Table " + table.name() + " has bucket=" + numBuckets + ", which append tables do not use");
        }
    }

    public void write(VectorSchemaRoot batch)
            throws IOException
    {
        requireNonNull(batch, "batch is null");
        if (!batch.getSchema().equals(ArrowTypes.toArrowSchema(schema.fields()))) {
            throw new IllegalArgumentException("Batch schema " + batch.getSchema() + " is not the schema of table " + table.name() + ": " + ArrowTypes.toArrowSchema(schema.fields()));
        }
        try {
            writeRows(batch);
        }
        catch (IllegalArgumentException e) {
            // a value the file format cannot hold
            throw new IllegalArgumentException("Table " + table.name() + ": " + e.getMessage(), e);
        }
    }

    private void writeRows(VectorSchemaRoot batch)
            throws IOException
    {
        int rows = batch.getRowCount();
        if (rows == 0) {
            return;
        }
        if (partitionColumns.isEmpty() && bucketKeyColumns.isEmpty()) {
            writer(new BucketKey(BinaryRow.EMPTY, 0)).write(batch);
            return;
        }
        Map<BucketKey, List<Integer>> rowsByBucket = new LinkedHashMap<>();
        for (int row = 0; row < rows; row++) {
            BinaryRow partition = partitionColumns.isEmpty() ? BinaryRow.EMPTY : BinaryRowWriter.encode(partitionTypes, values(batch, row, partitionColumns, partitionTypes));
            int bucket = 0;
            if (numBuckets > 0) {
                BinaryRow key = BinaryRowWriter.encode(bucketKeyTypes, values(batch, row, bucketKeyColumns, bucketKeyTypes));
                bucket = modBucketFunction ? BucketFunction.modBucket(key, bucketKeyTypes.get(0), numBuckets) : BucketFunction.bucket(key, numBuckets);
            }
            rowsByBucket.computeIfAbsent(new BucketKey(partition, bucket), ignored -> new ArrayList<>()).add(row);
        }
        for (Map.Entry<BucketKey, List<Integer>> entry : rowsByBucket.entrySet()) {
            int[] selected = entry.getValue().stream().mapToInt(Integer::intValue).toArray();
            try (VectorSchemaRoot part = BatchFilter.select(batch, selected, allocator)) {
                writer(entry.getKey()).write(part);
            }
        }
    }

    /**
     * Finishes every open file and returns one ADD entry per file written since the last call.
     */
    public List<ManifestEntry> prepareCommit()
            throws IOException
    {
        List<ManifestEntry> entries = new ArrayList<>();
        for (Map.Entry<BucketKey, RollingFileWriter> entry : writers.entrySet()) {
            BucketKey key = entry.getKey();
            RollingFileWriter writer = entry.getValue();
            for (DataFileMeta file : writer.finish()) {
                entries.add(new ManifestEntry(FileKind.ADD, key.partition(), key.bucket(), numBuckets, file));
            }
            nextSequenceNumbers.put(key, writer.nextSequenceNumber());
        }
        writers.clear();
        return entries;
    }

    @Override
    public void close()
            throws IOException
    {
        try {
            for (RollingFileWriter writer : writers.values()) {
                writer.abort();
            }
            writers.clear();
        }
        finally {
            allocator.close();
        }
    }

    private RollingFileWriter writer(BucketKey key)
            throws IOException
    {
        RollingFileWriter writer = writers.get(key);
        if (writer == null) {
            String directory = table.dataDirectory(key.partition(), key.bucket(), schema) + "/";
            writer = new RollingFileWriter(table.fileIO(), directory, this::nextFileName, schema, format, statsBuilder, targetFileSize,
                    firstSequenceNumber(key), indexSpecs, indexInManifestThreshold, allocator);
            writers.put(key, writer);
        }
        return writer;
    }

    private String nextFileName()
    {
        return filePrefix + fileCounter++ + "." + format.extension();
    }

    /**
     * Sequence numbers continue per partition and bucket from the live files' highest, as Paimon's
     * writers do. In a table that tracks rows each writer starts at 0 instead, as Paimon's writers
     * of such tables (which have no buckets) do: its commit gives the writer's first file the new
     * snapshot's id, read back as the rows' {@code _SEQUENCE_NUMBER}.
     */
    private long firstSequenceNumber(BucketKey key)
            throws IOException
    {
        if (!sequenceNumbersLoaded && !rowTracking) {
            for (PlannedFile file : new ScanPlanner(table).plan(table.snapshot(new ScanVersion.Latest())).files()) {
                nextSequenceNumbers.merge(new BucketKey(file.partition(), file.bucket()), file.file().maxSequenceNumber() + 1, Math::max);
            }
            sequenceNumbersLoaded = true;
        }
        return nextSequenceNumbers.getOrDefault(key, 0L);
    }

    private static List<Object> values(VectorSchemaRoot batch, int row, List<Integer> columns, List<DataType> types)
    {
        List<Object> values = new ArrayList<>(columns.size());
        for (int i = 0; i < columns.size(); i++) {
            values.add(ArrowValues.value(batch.getVector(columns.get(i)), row, types.get(i)));
        }
        return values;
    }

    private record BucketKey(BinaryRow partition, int bucket) {}
}
