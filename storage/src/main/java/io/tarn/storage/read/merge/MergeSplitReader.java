package io.tarn.storage.read.merge;

import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.RowEvaluator;
import io.tarn.storage.CorruptFileException;
import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.fs.InputFile;
import io.tarn.storage.manifest.DataFileMeta;
import io.tarn.storage.metrics.Counter;
import io.tarn.storage.metrics.Counters;
import io.tarn.storage.read.DataFileReaders;
import io.tarn.storage.read.FetchAheadQueue;
import io.tarn.storage.read.RawSplitReader;
import io.tarn.storage.read.ReadCounters;
import io.tarn.storage.read.ReadRequest;
import io.tarn.storage.read.SplitReader;
import io.tarn.storage.read.SystemFields;
import io.tarn.storage.scan.DataSplit;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.schema.MergeEngine;
import io.tarn.storage.schema.TableOptions;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.table.PaimonTable;
import io.tarn.types.DataField;
import io.tarn.types.ValueComparator;
import io.tarn.vector.ArrowTypes;
import io.tarn.vector.reader.DataFileReader;
import io.tarn.vector.reader.DictionaryIds;
import io.tarn.vector.reader.ReadOptions;
import io.tarn.vector.reader.ReaderMetrics;
import io.tarn.vector.rows.ArrowValues;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * Reads one merge-on-read split of a primary-key table (one partition and bucket, all its sorted
 * runs) as Arrow batches: a k-way merge of the split's files (each sorted by key) orders records by
 * (key, user sequence field, {@code _SEQUENCE_NUMBER}), the records of each key are folded by the
 * table's merge engine (Paimon's reducer: a key with a single record keeps it as it is), results
 * of kind -U/-D are dropped, and the filter is applied to the merged rows.
 *
 * <p>Only the filter's primary-key part is handed to the file reader: skipping a row group by a
 * value column could hide a newer version of a row and bring back an older one.
 *
 * <p>Memory: every file of the split is open at once with one batch of {@value #FILE_BATCH_SIZE}
 * rows; records are boxed one at a time (a slow path compared with raw reads, but bounded by the
 * number of files, not their size). Paimon's section splitting (opening only files whose key
 * ranges overlap) would bound it further.
 *
 * <p>Ownership: as {@link RawSplitReader}: the batch of {@link #root()} stays valid until the next
 * {@link #nextBatch()} or {@link #close()}; all memory lives in a child allocator that
 * {@link #close()} releases.
 */
public final class MergeSplitReader
        implements SplitReader
{
    private static final int FILE_BATCH_SIZE = 1024;

    private final PaimonTable table;
    private final DataSplit split;
    private final ReadRequest request;
    private final BufferAllocator allocator;
    private final MergeFunction mergeFunction;
    // the columns being merged, in record value order
    private final List<DataField> valueFields;
    private final Map<Integer, Integer> valueIndexById = new HashMap<>();
    private final List<DataField> keyFields;
    private final int[] keyValueIndexes;
    private final int[] sequenceValueIndexes;
    private final boolean sequenceAscending;
    private final List<DataField> readColumns;
    private final int[] outputValueIndexes;
    // the merged rows; created when first needed (survivor selection hands out the value pass's batches)
    private VectorSchemaRoot output;

    private final Optional<Predicate> keyFilter;
    private final List<FileCursor> cursors = new ArrayList<>();

    private final TableSchema readSchema;
    // deduplicate and first-row: survivors found from keys, then value columns read columnar
    private final boolean selectSurvivors;
    private RawSplitReader survivorReader;
    private int filesOnlyInValuePass;

    private PriorityQueue<FileCursor> queue;
    private Counters metrics = Counters.empty(Counter.Stage.READING);

    /**
     * @param readSchema the schema rows are read with: the plan's ({@code ScanPlan.readSchema()})
     */
    public MergeSplitReader(PaimonTable table, TableSchema readSchema, DataSplit split, ReadRequest request, BufferAllocator allocator)
            throws IOException
    {
        this.table = requireNonNull(table, "table is null");
        this.readSchema = requireNonNull(readSchema, "readSchema is null");
        this.split = requireNonNull(split, "split is null");
        this.request = requireNonNull(request, "request is null");
        if (readSchema.primaryKeys().isEmpty()) {
            throw new IllegalArgumentException("Table " + table.name() + " has no primary key: its splits need no merge");
        }
        TableOptions options = new TableOptions(table.name(), readSchema.options());
        MergeEngine engine = options.mergeEngine();
        this.selectSurvivors = SurvivorSelector.supports(table.name(), readSchema);
        List<String> sequenceFieldNames = options.sequenceFields();
        this.sequenceAscending = options.sequenceAscending();

        Map<Integer, DataField> values = new LinkedHashMap<>();
        if (engine == MergeEngine.PARTIAL_UPDATE || engine == MergeEngine.AGGREGATION) {
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
            sequenceFields.add(field(readSchema, name, "sequence.field"));
        }
        List<DataField> keyFields = new ArrayList<>();
        for (String name : keyNames) {
            keyFields.add(field(readSchema, name, "primary key"));
        }
        // the key is read from its value columns, as Paimon's reader does: a record's value holds
        // its key fields too, and with data-file.thin-mode the files have no _KEY_ columns at all
        keyFields.forEach(field -> values.putIfAbsent(field.id(), field));
        sequenceFields.forEach(field -> values.putIfAbsent(field.id(), field));
        this.valueFields = List.copyOf(values.values());
        for (int i = 0; i < valueFields.size(); i++) {
            valueIndexById.put(valueFields.get(i).id(), i);
        }
        this.keyFields = List.copyOf(keyFields);
        this.keyValueIndexes = keyFields.stream().mapToInt(field -> valueIndexById.get(field.id())).toArray();
        this.sequenceValueIndexes = sequenceFields.stream().mapToInt(field -> valueIndexById.get(field.id())).toArray();
        List<DataField> columns = new ArrayList<>();
        columns.add(SystemFields.SEQUENCE_NUMBER);
        columns.add(SystemFields.VALUE_KIND);
        columns.addAll(valueFields);
        this.readColumns = List.copyOf(columns);
        this.outputValueIndexes = request.columns().stream().mapToInt(field -> valueIndexById.get(field.id())).toArray();
        this.mergeFunction = MergeFunctions.create(table.name(), readSchema, valueFields);
        Set<Integer> keyIds = new HashSet<>();
        for (String name : readSchema.primaryKeys()) {
            keyIds.add(field(readSchema, name, "primary key").id());
        }
        this.keyFilter = request.filter().flatMap(filter -> keyOnly(filter, keyIds));

        this.allocator = requireNonNull(allocator, "allocator is null").newChildAllocator("merge-split-reader", 0, Long.MAX_VALUE);
    }

    @Override
    public boolean nextBatch()
            throws IOException
    {
        if (selectSurvivors) {
            if (survivorReader == null) {
                SurvivorSelector.Survivors survivors = SurvivorSelector.select(table, readSchema, split, allocator);
                metrics = metrics.plus(survivors.metrics());
                filesOnlyInValuePass = survivors.filesNotOpened();
                DataSplit raw = new DataSplit(split.partition(), split.bucket(), split.totalBuckets(), split.files(), false);
                survivorReader = RawSplitReader.withRowSelections(table, readSchema, raw, request, allocator, survivors.rowsByFile(), survivors.keyedFiles());
            }
            return survivorReader.nextBatch();
        }
        if (queue == null) {
            output = VectorSchemaRoot.create(ArrowTypes.toArrowSchema(request.columns()), allocator);
            openFiles();
        }
        int count = 0;
        long filtered = 0;
        List<KeyValue> group = new ArrayList<>();
        while (count < request.batchSize() && !queue.isEmpty()) {
            FileCursor first = queue.poll();
            Object[] key = first.key;
            group.clear();
            group.add(first.record);
            advance(first);
            while (!queue.isEmpty() && compareKeys(queue.peek().key, key) == 0) {
                FileCursor next = queue.poll();
                group.add(next.record);
                advance(next);
            }
            KeyValue result = merge(group);
            if (result.isRetract()) {
                continue;
            }
            if (!matches(result.values())) {
                filtered++;
                continue;
            }
            if (count == 0) {
                output.allocateNew();
            }
            for (int column = 0; column < outputValueIndexes.length; column++) {
                ArrowValueWriter.write(output.getVector(column), count, result.values()[outputValueIndexes[column]], request.columns().get(column).type());
            }
            count++;
        }
        metrics = metrics.plus(ReadCounters.returned(count, filtered));
        if (count == 0) {
            return false;
        }
        for (int column = 0; column < outputValueIndexes.length; column++) {
            output.getVector(column).setValueCount(count);
        }
        output.setRowCount(count);
        return true;
    }

    @Override
    public VectorSchemaRoot root()
    {
        return survivorReader != null ? survivorReader.root() : output;
    }

    /**
     * Merged rows are written value by value into a batch of this reader, so only the survivors
     * of a merge read by row selection keep their dictionaries.
     */
    @Override
    public Optional<DictionaryIds> dictionaryIds(int column)
    {
        return survivorReader != null ? survivorReader.dictionaryIds(column) : Optional.empty();
    }

    /**
     * The heap the file readers of the merge hold (loaded parts of column chunks, pages,
     * dictionaries, decoded values); its Arrow memory is the allocator's.
     */
    @Override
    public long retainedHeapBytes()
    {
        long bytes = survivorReader == null ? 0 : survivorReader.retainedHeapBytes();
        for (FileCursor cursor : cursors) {
            if (cursor.reader != null) {
                bytes += cursor.reader.retainedHeapBytes();
            }
        }
        return bytes;
    }

    @Override
    public Counters metrics()
    {
        if (survivorReader == null) {
            return metrics;
        }
        // the files opened for their keys are not counted twice
        return metrics.plus(survivorReader.metrics().with(Counter.FILES_READ, filesOnlyInValuePass));
    }

    @Override
    public void close()
    {
        try {
            if (survivorReader != null) {
                survivorReader.close();
            }
            for (FileCursor cursor : cursors) {
                cursor.close();
            }
            if (output != null) {
                output.close();
            }
        }
        finally {
            allocator.close();
        }
    }

    /**
     * Paimon's reducer: a key with a single record keeps it as it is, without the merge function.
     */
    private KeyValue merge(List<KeyValue> group)
            throws IOException
    {
        if (group.size() == 1) {
            return group.get(0);
        }
        mergeFunction.reset();
        for (KeyValue record : group) {
            mergeFunction.add(record);
        }
        return mergeFunction.result();
    }

    private void openFiles()
            throws IOException
    {
        queue = new PriorityQueue<>(Math.max(1, split.files().size()), this::compareRecords);
        // every file is opened at once: on an object store their first fetches run side by side
        try (FetchAheadQueue ahead = new FetchAheadQueue(table, split.files(), file -> true)) {
            ahead.start(0);
            for (int i = 0; i < split.files().size(); i++) {
                PlannedFile file = split.files().get(i);
                FileCursor cursor = new FileCursor(file.file(), open(file, ahead.take(i)));
                cursors.add(cursor);
                if (cursor.next()) {
                    queue.add(cursor);
                }
            }
        }
    }

    private void advance(FileCursor cursor)
            throws IOException
    {
        Object[] previous = cursor.key;
        long previousSequence = cursor.record.sequenceNumber();
        if (!cursor.next()) {
            return;
        }
        int order = compareKeys(previous, cursor.key);
        if (order > 0 || (order == 0 && previousSequence > cursor.record.sequenceNumber())) {
            throw new CorruptFileException("Table " + table.name() + ": data file " + cursor.meta.fileName() + " is not sorted by primary key and sequence number");
        }
        queue.add(cursor);
    }

    private DataFileReader open(PlannedFile file, InputFile input)
            throws IOException
    {
        DataFileMeta meta = file.file();
        if (file.deletionFile().isPresent()) {
            throw new UnsupportedTableFeatureException("Table " + table.name() + ": data file " + meta.fileName()
                    + " has a deletion vector but its split needs merging; Tarn does not merge with deletion vectors");
        }
        // every file of the bucket is open at once: smaller batches keep that memory small
        ReadOptions options = ReadOptions.of(readColumns).withBatchSize(FILE_BATCH_SIZE);
        if (keyFilter.isPresent()) {
            options = options.withFilter(keyFilter.get());
        }
        return DataFileReaders.open(table, file, input, options, allocator);
    }

    /**
     * The records of one data file, one at a time, each boxed into internal values.
     */
    private final class FileCursor
    {
        private final DataFileMeta meta;
        private DataFileReader reader;
        private VectorSchemaRoot batch;
        private int row;
        private Object[] key;
        private KeyValue record;

        FileCursor(DataFileMeta meta, DataFileReader reader)
        {
            this.meta = meta;
            this.reader = reader;
        }

        /**
         * Moves to the next record; false (and the file closed) at its end.
         */
        boolean next()
                throws IOException
        {
            while (batch == null || row >= batch.getRowCount()) {
                if (reader == null) {
                    return false;
                }
                if (!DataFileReaders.nextBatch(table, reader)) {
                    close();
                    return false;
                }
                batch = reader.root();
                row = 0;
            }
            readRecord();
            row++;
            return true;
        }

        private void readRecord()
                throws CorruptFileException
        {
            BigIntVector sequenceNumbers = (BigIntVector) batch.getVector(0);
            TinyIntVector kinds = (TinyIntVector) batch.getVector(1);
            if (sequenceNumbers.isNull(row) || kinds.isNull(row)) {
                throw new CorruptFileException("Table " + table.name() + ": data file " + meta.fileName() + " has a record without _SEQUENCE_NUMBER or _VALUE_KIND");
            }
            byte kind = kinds.get(row);
            if (kind < KeyValue.INSERT || kind > KeyValue.DELETE) {
                throw new CorruptFileException("Table " + table.name() + ": data file " + meta.fileName() + " has a record of unknown _VALUE_KIND " + kind);
            }
            Object[] values = new Object[valueFields.size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = ArrowValues.value(batch.getVector(2 + i), row, valueFields.get(i).type());
            }
            Object[] newKey = new Object[keyValueIndexes.length];
            for (int i = 0; i < newKey.length; i++) {
                newKey[i] = values[keyValueIndexes[i]];
                if (newKey[i] == null) {
                    throw new CorruptFileException("Table " + table.name() + ": data file " + meta.fileName() + " has a record with a NULL primary key");
                }
            }
            key = newKey;
            record = new KeyValue(sequenceNumbers.get(row), kind, values);
        }

        void close()
        {
            if (reader == null) {
                return;
            }
            ReaderMetrics fileMetrics = reader.metrics();
            metrics = metrics.plus(ReadCounters.fileRead(fileMetrics));
            reader.close();
            reader = null;
            batch = null;
        }
    }

    private int compareRecords(FileCursor left, FileCursor right)
    {
        int order = compareKeys(left.key, right.key);
        if (order != 0) {
            return order;
        }
        if (sequenceValueIndexes.length > 0) {
            order = compareSequenceFields(left.record.values(), right.record.values());
            if (order != 0) {
                return order;
            }
        }
        return Long.compare(left.record.sequenceNumber(), right.record.sequenceNumber());
    }

    private boolean matches(Object[] values)
    {
        if (request.filter().isEmpty()) {
            return true;
        }
        return RowEvaluator.test(request.filter().get(), field -> values[valueIndexById.get(field.fieldId())]);
    }

    private int compareKeys(Object[] left, Object[] right)
    {
        for (int i = 0; i < left.length; i++) {
            int order = ValueComparator.compare(keyFields.get(i).type(), left[i], right[i]);
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
            int order = MergeFunctions.compareSequenceValues(valueFields.get(index).type(), sequenceAscending, a, b);
            if (order != 0) {
                return order;
            }
        }
        return 0;
    }

    /**
     * The part of the filter that reads only primary-key columns: all records of a key agree on
     * it, so files may skip row groups and pages by it without bringing back an older version.
     */
    private static Optional<Predicate> keyOnly(Predicate filter, Set<Integer> keyIds)
    {
        if (keyIds.containsAll(filter.fieldIds())) {
            return Optional.of(filter);
        }
        if (filter instanceof Predicate.And and) {
            List<Predicate> kept = and.children().stream()
                    .filter(child -> keyIds.containsAll(child.fieldIds()))
                    .toList();
            if (kept.size() == 1) {
                return Optional.of(kept.get(0));
            }
            if (kept.size() > 1) {
                return Optional.of(new Predicate.And(kept));
            }
        }
        return Optional.empty();
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
