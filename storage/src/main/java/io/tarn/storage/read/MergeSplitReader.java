package io.tarn.storage.read;

import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.RowEvaluator;
import io.tarn.storage.CorruptFileException;
import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.manifest.DataFileMeta;
import io.tarn.storage.read.merge.ArrowValueWriter;
import io.tarn.storage.read.merge.KeyValue;
import io.tarn.storage.read.merge.MergeFunction;
import io.tarn.storage.read.merge.MergeFunctions;
import io.tarn.storage.scan.DataSplit;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.table.PaimonTable;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.DataTypes;
import io.tarn.types.ValueComparator;
import io.tarn.vector.ArrowTypes;
import io.tarn.vector.ParquetCorruptionException;
import io.tarn.vector.ParquetReadOptions;
import io.tarn.vector.ParquetReader;
import io.tarn.vector.ParquetUnsupportedException;
import io.tarn.vector.ReaderMetrics;
import io.tarn.vector.rows.ArrowValues;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Reads one merge-on-read split of a primary-key table (one partition and bucket, all its sorted
 * runs) as Arrow batches: every record of every file is ordered by (key, user sequence field,
 * {@code _SEQUENCE_NUMBER}), the records of each key are folded by the table's merge engine
 * (Paimon's reducer: a key with a single record keeps it as it is), results of kind -U/-D are
 * dropped, and the filter is applied to the merged rows.
 *
 * <p>The filter is not handed to the file reader: skipping a row group by a value column could
 * hide a newer version of a row and bring back an older one.
 *
 * <p>Memory: the whole split (one bucket) is collected and sorted in memory on the first
 * {@link #nextBatch()}, boxed row by row. That is bounded by the bucket's size, which Paimon keeps
 * small (target-file-size times the number of sorted runs); a streaming k-way merge of the sorted
 * runs would bound it by the number of runs instead.
 *
 * <p>Ownership: as {@link SplitReader}: the batch of {@link #root()} stays valid until the next
 * {@link #nextBatch()} or {@link #close()}; all memory lives in a child allocator that
 * {@link #close()} releases.
 */
public final class MergeSplitReader
        implements AutoCloseable
{
    private static final int KEY_FIELD_ID_START = 1073741823;
    private static final DataField SEQUENCE_NUMBER = new DataField(2147483646, "_SEQUENCE_NUMBER", DataTypes.bigint().withNullable(false));
    private static final DataField VALUE_KIND = new DataField(2147483645, "_VALUE_KIND", DataTypes.tinyint().withNullable(false));

    private final PaimonTable table;
    private final DataSplit split;
    private final ReadRequest request;
    private final BufferAllocator allocator;
    private final MergeFunction mergeFunction;
    // the columns being merged, in record value order
    private final List<DataField> valueFields;
    private final Map<Integer, Integer> valueIndexById = new HashMap<>();
    private final List<DataField> keyColumns;
    private final int[] keyValueIndexes;
    private final int[] sequenceValueIndexes;
    private final boolean sequenceAscending;
    private final List<DataField> readColumns;
    private final int[] outputValueIndexes;
    private final VectorSchemaRoot output;

    private List<Object[]> rows;
    private int nextRow;
    private ReadMetrics metrics = ReadMetrics.EMPTY;

    /**
     * @param readSchema the schema rows are read with: the plan's ({@code ScanPlan.readSchema()})
     */
    public MergeSplitReader(PaimonTable table, TableSchema readSchema, DataSplit split, ReadRequest request, BufferAllocator allocator)
            throws IOException
    {
        this.table = requireNonNull(table, "table is null");
        requireNonNull(readSchema, "readSchema is null");
        this.split = requireNonNull(split, "split is null");
        this.request = requireNonNull(request, "request is null");
        if (readSchema.primaryKeys().isEmpty()) {
            throw new IllegalArgumentException("Table " + table.name() + " has no primary key: its splits need no merge");
        }
        MergeFunctions.Engine engine = MergeFunctions.engine(table.name(), readSchema);
        List<String> sequenceFieldNames = MergeFunctions.sequenceFields(readSchema);
        this.sequenceAscending = MergeFunctions.sequenceAscending(readSchema);

        Map<Integer, DataField> values = new LinkedHashMap<>();
        if (engine == MergeFunctions.Engine.PARTIAL_UPDATE || engine == MergeFunctions.Engine.AGGREGATION) {
            readSchema.fields().forEach(field -> values.put(field.id(), field));
        }
        else {
            request.columns().forEach(field -> values.put(field.id(), field));
            if (request.filter().isPresent()) {
                Predicate filter = request.filter().get();
                for (int fieldId : filter.fieldIds()) {
                    Optional<DataField> field = readSchema.rowType().fieldById(fieldId);
                    values.putIfAbsent(fieldId, field.orElseThrow(() -> new IllegalArgumentException(
                            "Table " + table.name() + " has no column with field id " + fieldId + " for the filter " + filter)));
                }
            }
        }
        List<String> keyNames = readSchema.trimmedPrimaryKeys();
        List<DataField> sequenceFields = new ArrayList<>();
        for (String name : sequenceFieldNames) {
            sequenceFields.add(field(readSchema, name.trim(), "sequence.field"));
        }
        List<DataField> keyFields = new ArrayList<>();
        for (String name : keyNames) {
            keyFields.add(field(readSchema, name, "primary key"));
        }
        // the key's value columns too: with data-file.thin-mode the files have no _KEY_ columns
        keyFields.forEach(field -> values.putIfAbsent(field.id(), field));
        sequenceFields.forEach(field -> values.putIfAbsent(field.id(), field));
        this.valueFields = List.copyOf(values.values());
        for (int i = 0; i < valueFields.size(); i++) {
            valueIndexById.put(valueFields.get(i).id(), i);
        }
        this.keyColumns = keyFields.stream()
                .map(field -> new DataField(KEY_FIELD_ID_START + field.id(), "_KEY_" + field.name(), field.type().withNullable(true)))
                .toList();
        this.keyValueIndexes = keyFields.stream().mapToInt(field -> valueIndexById.get(field.id())).toArray();
        this.sequenceValueIndexes = sequenceFields.stream().mapToInt(field -> valueIndexById.get(field.id())).toArray();
        List<DataField> columns = new ArrayList<>(keyColumns);
        columns.add(SEQUENCE_NUMBER);
        columns.add(VALUE_KIND);
        columns.addAll(valueFields);
        this.readColumns = List.copyOf(columns);
        this.outputValueIndexes = request.columns().stream().mapToInt(field -> valueIndexById.get(field.id())).toArray();
        this.mergeFunction = MergeFunctions.create(table.name(), readSchema, valueFields);

        this.allocator = requireNonNull(allocator, "allocator is null").newChildAllocator("merge-split-reader", 0, Long.MAX_VALUE);
        this.output = VectorSchemaRoot.create(ArrowTypes.toArrowSchema(request.columns()), this.allocator);
    }

    /**
     * Advances to the next non-empty batch; false at the end of the split.
     */
    public boolean nextBatch()
            throws IOException
    {
        if (rows == null) {
            rows = mergedRows(readRecords());
        }
        if (nextRow == rows.size()) {
            return false;
        }
        int count = Math.min(request.batchSize(), rows.size() - nextRow);
        output.allocateNew();
        for (int column = 0; column < outputValueIndexes.length; column++) {
            FieldVector vector = output.getVector(column);
            DataType type = request.columns().get(column).type();
            int valueIndex = outputValueIndexes[column];
            for (int row = 0; row < count; row++) {
                ArrowValueWriter.write(vector, row, rows.get(nextRow + row)[valueIndex], type);
            }
            vector.setValueCount(count);
        }
        output.setRowCount(count);
        nextRow += count;
        metrics = metrics.plus(new ReadMetrics(0, 0, 0, 0, 0, 0, 0, count, 0));
        return true;
    }

    public VectorSchemaRoot root()
    {
        return output;
    }

    public ReadMetrics metrics()
    {
        return metrics;
    }

    @Override
    public void close()
    {
        try {
            output.close();
        }
        finally {
            allocator.close();
        }
    }

    private record Record(Object[] key, KeyValue value) {}

    private List<Record> readRecords()
            throws IOException
    {
        List<Record> records = new ArrayList<>();
        for (PlannedFile file : split.files()) {
            readFile(file, records);
        }
        return records;
    }

    private void readFile(PlannedFile file, List<Record> records)
            throws IOException
    {
        DataFileMeta meta = file.file();
        if (!meta.fileName().toLowerCase(Locale.ROOT).endsWith(".parquet")) {
            throw new UnsupportedTableFeatureException("Table " + table.name() + ": data file " + meta.fileName()
                    + " is not Parquet; Tarn reads only Parquet data files so far");
        }
        if (file.deletionFile().isPresent()) {
            throw new UnsupportedTableFeatureException("Table " + table.name() + ": data file " + meta.fileName()
                    + " has a deletion vector but its split needs merging; Tarn does not merge with deletion vectors");
        }
        String path = table.dataFilePath(file.partition(), file.bucket(), meta, meta.fileName());
        ParquetReadOptions options = ParquetReadOptions.of(readColumns).withBatchSize(ParquetReadOptions.DEFAULT_BATCH_SIZE);
        ParquetReader reader;
        try {
            reader = ParquetReader.open(new FileIOParquetInput(table.fileIO().newInputFile(path)), options, allocator);
        }
        catch (ParquetCorruptionException e) {
            throw new CorruptFileException("Table " + table.name() + ": " + e.getMessage(), e);
        }
        catch (ParquetUnsupportedException e) {
            throw new UnsupportedTableFeatureException("Table " + table.name() + ": " + e.getMessage(), e);
        }
        try (reader) {
            while (reader.nextBatch()) {
                addRecords(reader.root(), meta, records);
            }
            ReaderMetrics fileMetrics = reader.metrics();
            metrics = metrics.plus(new ReadMetrics(1, fileMetrics.rowGroups() - fileMetrics.rowGroupsSkipped(), fileMetrics.rowGroupsSkipped(),
                    fileMetrics.pagesSkipped(), fileMetrics.rowsRead(), 0, 0, 0, fileMetrics.bytesRead()));
        }
        catch (ParquetCorruptionException e) {
            throw new CorruptFileException("Table " + table.name() + ": " + e.getMessage(), e);
        }
        catch (ParquetUnsupportedException e) {
            throw new UnsupportedTableFeatureException("Table " + table.name() + ": " + e.getMessage(), e);
        }
    }

    private void addRecords(VectorSchemaRoot batch, DataFileMeta meta, List<Record> records)
            throws CorruptFileException
    {
        int keyCount = keyColumns.size();
        BigIntVector sequenceNumbers = (BigIntVector) batch.getVector(keyCount);
        TinyIntVector kinds = (TinyIntVector) batch.getVector(keyCount + 1);
        for (int row = 0; row < batch.getRowCount(); row++) {
            if (sequenceNumbers.isNull(row) || kinds.isNull(row)) {
                throw new CorruptFileException("Table " + table.name() + ": data file " + meta.fileName() + " has a record without _SEQUENCE_NUMBER or _VALUE_KIND");
            }
            byte kind = kinds.get(row);
            if (kind < KeyValue.INSERT || kind > KeyValue.DELETE) {
                throw new CorruptFileException("Table " + table.name() + ": data file " + meta.fileName() + " has a record of unknown _VALUE_KIND " + kind);
            }
            Object[] values = new Object[valueFields.size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = ArrowValues.value(batch.getVector(keyCount + 2 + i), row, valueFields.get(i).type());
            }
            Object[] key = new Object[keyCount];
            for (int i = 0; i < keyCount; i++) {
                Object value = ArrowValues.value(batch.getVector(i), row, keyColumns.get(i).type());
                key[i] = value != null ? value : values[keyValueIndexes[i]];
                if (key[i] == null) {
                    throw new CorruptFileException("Table " + table.name() + ": data file " + meta.fileName() + " has a record with a NULL primary key");
                }
            }
            records.add(new Record(key, new KeyValue(sequenceNumbers.get(row), kind, values)));
        }
    }

    private List<Object[]> mergedRows(List<Record> records)
            throws IOException
    {
        records.sort(mergeOrder());
        List<Object[]> merged = new ArrayList<>();
        long filtered = 0;
        int start = 0;
        while (start < records.size()) {
            int end = start + 1;
            while (end < records.size() && compareKeys(records.get(start).key(), records.get(end).key()) == 0) {
                end++;
            }
            KeyValue result;
            if (end - start == 1) {
                result = records.get(start).value();
            }
            else {
                mergeFunction.reset();
                for (int i = start; i < end; i++) {
                    mergeFunction.add(records.get(i).value());
                }
                result = mergeFunction.result();
            }
            if (!result.isRetract()) {
                if (matches(result.values())) {
                    merged.add(result.values());
                }
                else {
                    filtered++;
                }
            }
            start = end;
        }
        metrics = metrics.plus(new ReadMetrics(0, 0, 0, 0, 0, 0, filtered, 0, 0));
        return merged;
    }

    private boolean matches(Object[] values)
    {
        if (request.filter().isEmpty()) {
            return true;
        }
        return RowEvaluator.test(request.filter().get(), field -> values[valueIndexById.get(field.fieldId())]);
    }

    private Comparator<Record> mergeOrder()
    {
        Comparator<Record> order = (left, right) -> compareKeys(left.key(), right.key());
        if (sequenceValueIndexes.length > 0) {
            order = order.thenComparing((left, right) -> compareSequenceFields(left.value().values(), right.value().values()));
        }
        return order.thenComparingLong(record -> record.value().sequenceNumber());
    }

    private int compareKeys(Object[] left, Object[] right)
    {
        for (int i = 0; i < left.length; i++) {
            int order = ValueComparator.compare(keyColumns.get(i).type(), left[i], right[i]);
            if (order != 0) {
                return order;
            }
        }
        return 0;
    }

    private int compareSequenceFields(Object[] left, Object[] right)
    {
        for (int index : sequenceValueIndexes) {
            Object a = left[index];
            Object b = right[index];
            // nulls first in either sort order, as Paimon's generated record comparator orders them
            int order;
            if (a == null || b == null) {
                order = a == null ? (b == null ? 0 : -1) : 1;
            }
            else {
                order = ValueComparator.compare(valueFields.get(index).type(), a, b);
                order = sequenceAscending ? order : -order;
            }
            if (order != 0) {
                return order;
            }
        }
        return 0;
    }

    private DataField field(TableSchema schema, String name, String role)
            throws UnsupportedTableFeatureException
    {
        for (DataField field : schema.fields()) {
            if (field.name().equals(name)) {
                return field;
            }
        }
        throw new UnsupportedTableFeatureException("Table " + table.name() + ": " + role + " column '" + name + "' is not in schema " + schema.id());
    }
}
