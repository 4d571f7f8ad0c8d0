package io.tarn.storage.read;

import io.tarn.storage.CorruptFileException;
import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.binary.BinaryRow;
import io.tarn.storage.manifest.DataFileMeta;
import io.tarn.storage.metrics.Counter;
import io.tarn.storage.metrics.Counters;
import io.tarn.storage.read.merge.KeyValue;
import io.tarn.storage.read.merge.MergeFunctions;
import io.tarn.storage.scan.DataSplit;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.schema.MergeEngine;
import io.tarn.storage.table.PaimonTable;
import io.tarn.storage.schema.TableOptions;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.ValueComparator;
import io.tarn.vector.reader.ParquetReadOptions;
import io.tarn.vector.reader.ParquetReader;
import io.tarn.vector.reader.ReaderMetrics;
import io.tarn.vector.rows.ArrowValues;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.roaringbitmap.RoaringBitmap;
import org.roaringbitmap.RoaringBitmapWriter;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Finds the surviving row of every key of a merge-on-read split of a {@code deduplicate} or
 * {@code first-row} table from the key, sequence and kind columns alone: those engines keep one
 * whole record per key (the newest, or the first), so no value needs merging. The result, a row
 * selection per data file, lets the value columns be read columnar, decoding only survivors, and
 * lets a value filter skip row groups and pages safely: a stale version of a row is not selected,
 * so no filter can bring it back. No retraction row is ever selected.
 *
 * <p>The key is read from the record's value columns, as Paimon's reader does (a record's value
 * holds its key fields; the {@code _KEY_} columns are copies, absent in thin mode). Costs are kept
 * per row where it matters:
 * <ul>
 * <li>a key of one integral column is compared as a {@code long}, without boxing;</li>
 * <li>a record whose key is below the current key of every other file is its key's only record
 *     (a file holds each key once; a repeated key in one file is still merged): it survives unless
 *     it is a retraction, without going through the merge queue;</li>
 * <li>{@code _VALUE_KIND} is read only from files that may hold a retraction
 *     ({@link RawSplitReader#mayHoldRetractions});</li>
 * <li>a file whose key range (from its metadata) overlaps no other file's and that holds no
 *     retraction is not opened at all: every row survives (Paimon's non-overlapping sections).</li>
 * </ul>
 */
final class SurvivorSelector
{
    private static final int BATCH_SIZE = 4096;
    // column layout of a cursor: _SEQUENCE_NUMBER, the key fields, the sequence fields, then _VALUE_KIND when read
    private static final int FIRST_KEY_COLUMN = 1;

    /**
     * The selected rows of each data file of the split, by file name, what reading the key
     * columns cost, and how many files with rows were not opened for their keys (all their rows
     * survive).
     */
    record Survivors(Map<String, RoaringBitmap> rowsByFile, Counters metrics, int filesNotOpened)
    {
        Survivors
        {
            rowsByFile = Map.copyOf(rowsByFile);
            requireNonNull(metrics, "metrics is null");
        }
    }

    private final PaimonTable table;
    private final boolean firstRow;
    private final boolean ignoreDelete;
    private final boolean sequenceAscending;
    private final List<DataField> keyFields;
    private final List<DataType> keyTypes;
    // a key of one TINYINT, SMALLINT, INT or BIGINT column: compared as a long
    private final boolean integralKey;
    private final List<DataField> sequenceFields;
    private final List<DataField> columns;
    private final List<DataField> columnsWithKind;
    private Counters metrics = Counters.empty(Counter.Stage.READING);

    private SurvivorSelector(PaimonTable table, TableSchema readSchema)
            throws UnsupportedTableFeatureException
    {
        this.table = table;
        TableOptions options = new TableOptions(table.name(), readSchema.options());
        this.firstRow = options.mergeEngine() == MergeEngine.FIRST_ROW;
        this.ignoreDelete = options.ignoreDelete();
        this.sequenceAscending = options.sequenceAscending();
        List<DataField> keys = new ArrayList<>();
        for (String name : readSchema.trimmedPrimaryKeys()) {
            keys.add(field(readSchema, name, "primary key"));
        }
        this.keyFields = List.copyOf(keys);
        this.keyTypes = keyFields.stream().map(DataField::type).toList();
        this.integralKey = keyFields.size() == 1 && switch (keyTypes.get(0).root()) {
            case TINYINT, SMALLINT, INT, BIGINT -> true;
            default -> false;
        };
        List<DataField> sequence = new ArrayList<>();
        for (String name : options.sequenceFields()) {
            sequence.add(field(readSchema, name, "sequence.field"));
        }
        this.sequenceFields = List.copyOf(sequence);
        List<DataField> read = new ArrayList<>();
        read.add(SystemFields.SEQUENCE_NUMBER);
        read.addAll(keyFields);
        read.addAll(sequenceFields);
        this.columns = List.copyOf(read);
        read.add(SystemFields.VALUE_KIND);
        this.columnsWithKind = List.copyOf(read);
    }

    /**
     * Whether a table's merge engine keeps whole records, so that its splits can be merged by
     * selecting survivors.
     */
    static boolean supports(String table, TableSchema readSchema)
            throws UnsupportedTableFeatureException
    {
        MergeEngine engine = new TableOptions(table, readSchema.options()).mergeEngine();
        return engine == MergeEngine.DEDUPLICATE || engine == MergeEngine.FIRST_ROW;
    }

    static Survivors select(PaimonTable table, TableSchema readSchema, DataSplit split, BufferAllocator allocator)
            throws IOException
    {
        if (!supports(table.name(), readSchema)) {
            throw new IllegalArgumentException("Table " + table.name() + ": survivors are defined for the deduplicate and first-row merge engines only");
        }
        SurvivorSelector selector = new SurvivorSelector(table, readSchema);
        return selector.select(split, allocator);
    }

    private Survivors select(DataSplit split, BufferAllocator allocator)
            throws IOException
    {
        Map<String, RoaringBitmap> survivors = new HashMap<>();
        List<Cursor> cursors = new ArrayList<>();
        int filesNotOpened = 0;
        try {
            List<PlannedFile> files = split.files();
            for (PlannedFile file : files) {
                if (file.deletionFile().isPresent()) {
                    throw new UnsupportedTableFeatureException("Table " + table.name() + ": data file " + file.file().fileName()
                            + " has a deletion vector but its split needs merging; Tarn does not merge with deletion vectors");
                }
            }
            boolean[] isolated = isolatedFiles(files);
            CursorHeap queue = new CursorHeap(files.size());
            for (int i = 0; i < files.size(); i++) {
                PlannedFile file = files.get(i);
                DataFileMeta meta = file.file();
                if (isolated[i] && !RawSplitReader.mayHoldRetractions(meta)) {
                    survivors.put(meta.fileName(), RoaringBitmap.bitmapOfRange(0, meta.rowCount()));
                    filesNotOpened += meta.rowCount() > 0 ? 1 : 0;
                    continue;
                }
                boolean readsKinds = RawSplitReader.mayHoldRetractions(meta);
                ParquetReadOptions options = ParquetReadOptions.of(readsKinds ? columnsWithKind : columns).withBatchSize(BATCH_SIZE);
                Cursor cursor = new Cursor(file, readsKinds, DataFileReaders.open(table, file, options, allocator));
                cursors.add(cursor);
                if (cursor.next()) {
                    queue.push(cursor);
                }
            }
            KeyMerge merge = new KeyMerge();
            while (queue.size() > 0) {
                Cursor cursor = queue.top();
                Cursor next = queue.second();
                if (next != null && compareKeys(cursor, next) == 0) {
                    mergeKey(queue, merge);
                    continue;
                }
                // the keys of this file below the current key of every other file: each has no
                // record elsewhere, so it is merged within its file alone, without the queue
                while (true) {
                    if (integralKey) {
                        cursor.takeSingleKeys(next);
                    }
                    merge.start();
                    merge.add(cursor);
                    boolean more = advance(cursor);
                    while (more && cursor.repeatsKey) {
                        merge.add(cursor);
                        more = advance(cursor);
                    }
                    merge.finish();
                    if (!more) {
                        queue.pop();
                        break;
                    }
                    if (next != null && compareKeys(cursor, next) >= 0) {
                        queue.topChanged();
                        break;
                    }
                }
            }
            for (Cursor cursor : cursors) {
                survivors.put(cursor.meta.fileName(), cursor.survivors.get());
            }
        }
        finally {
            for (Cursor cursor : cursors) {
                cursor.close();
            }
        }
        return new Survivors(survivors, metrics, filesNotOpened);
    }

    /**
     * Merges the records of the key of the queue's first cursor, which other files hold too.
     */
    private void mergeKey(CursorHeap queue, KeyMerge merge)
            throws IOException
    {
        Cursor first = queue.top();
        long longKey = first.longKey;
        Object[] key = first.key;
        merge.start();
        while (queue.size() > 0 && hasKey(queue.top(), longKey, key)) {
            Cursor current = queue.top();
            merge.add(current);
            if (advance(current)) {
                queue.topChanged();
            }
            else {
                queue.pop();
            }
        }
        merge.finish();
    }

    /**
     * The cursors in merge order ({@link #compare}): a binary min-heap whose first cursor can
     * move on in place ({@link #topChanged}), one sift instead of a removal and an insertion per
     * record, and which tells the least of the others ({@link #second}).
     */
    private final class CursorHeap
    {
        private final Cursor[] heap;
        private int size;

        CursorHeap(int capacity)
        {
            heap = new Cursor[Math.max(1, capacity)];
        }

        int size()
        {
            return size;
        }

        Cursor top()
        {
            return heap[0];
        }

        /**
         * The least cursor but the first, or null.
         */
        Cursor second()
        {
            if (size < 2) {
                return null;
            }
            return size == 2 || compare(heap[1], heap[2]) <= 0 ? heap[1] : heap[2];
        }

        void push(Cursor cursor)
        {
            int index = size++;
            while (index > 0) {
                int parent = (index - 1) >>> 1;
                if (compare(heap[parent], cursor) <= 0) {
                    break;
                }
                heap[index] = heap[parent];
                index = parent;
            }
            heap[index] = cursor;
        }

        void pop()
        {
            size--;
            Cursor last = heap[size];
            heap[size] = null;
            if (size > 0) {
                heap[0] = last;
                topChanged();
            }
        }

        /**
         * Restores the order after the first cursor moved to a later record.
         */
        void topChanged()
        {
            Cursor cursor = heap[0];
            int index = 0;
            while (true) {
                int child = 2 * index + 1;
                if (child >= size) {
                    break;
                }
                if (child + 1 < size && compare(heap[child + 1], heap[child]) < 0) {
                    child++;
                }
                if (compare(cursor, heap[child]) <= 0) {
                    break;
                }
                heap[index] = heap[child];
                index = child;
            }
            heap[index] = cursor;
        }
    }

    /**
     * The records of one key in merge order, and the one that survives.
     */
    private final class KeyMerge
    {
        private Cursor winner;
        private int winnerRow;
        private int records;
        private boolean sawRetraction;

        void start()
        {
            winner = null;
            winnerRow = -1;
            records = 0;
            sawRetraction = false;
        }

        void add(Cursor record)
        {
            records++;
            boolean retraction = record.isRetraction();
            sawRetraction |= retraction;
            if (firstRow) {
                if (winner == null && !retraction) {
                    winner = record;
                    winnerRow = record.position;
                }
            }
            else if (!retraction || !ignoreDelete) {
                // the newest record wins; a retraction that wins removes the key
                winner = retraction ? null : record;
                winnerRow = record.position;
            }
        }

        void finish()
                throws UnsupportedTableFeatureException
        {
            if (firstRow && records > 1 && sawRetraction && !ignoreDelete) {
                throw new UnsupportedTableFeatureException("Table %s: the first-row merge engine cannot merge a retraction (-U/-D) record without 'ignore-delete'"
                        .formatted(table.name()));
            }
            if (winner != null) {
                winner.survivors.add(winnerRow);
            }
        }
    }

    /**
     * Moves a cursor to its next record and checks the file's order; false at its end.
     */
    private boolean advance(Cursor cursor)
            throws IOException
    {
        long previousLongKey = cursor.longKey;
        Object[] previousKey = cursor.key;
        long previousSequence = cursor.sequenceNumber;
        if (!cursor.next()) {
            return false;
        }
        int order = integralKey ? Long.compare(previousLongKey, cursor.longKey) : compareKeys(previousKey, cursor.key);
        if (order > 0 || (order == 0 && previousSequence > cursor.sequenceNumber)) {
            throw new CorruptFileException("Table " + table.name() + ": data file " + cursor.meta.fileName() + " is not sorted by primary key and sequence number");
        }
        cursor.repeatsKey = order == 0;
        return true;
    }

    /**
     * Merge order: key, then the user sequence fields (nulls first), then {@code _SEQUENCE_NUMBER}.
     */
    private int compare(Cursor left, Cursor right)
    {
        int order = compareKeys(left, right);
        if (order != 0) {
            return order;
        }
        for (int i = 0; i < sequenceFields.size(); i++) {
            Object a = left.sequenceValues[i];
            Object b = right.sequenceValues[i];
            order = MergeFunctions.compareSequenceValues(sequenceFields.get(i).type(), sequenceAscending, a, b);
            if (order != 0) {
                return order;
            }
        }
        return Long.compare(left.sequenceNumber, right.sequenceNumber);
    }

    private int compareKeys(Cursor left, Cursor right)
    {
        return integralKey ? Long.compare(left.longKey, right.longKey) : compareKeys(left.key, right.key);
    }

    private boolean hasKey(Cursor cursor, long longKey, Object[] key)
    {
        return integralKey ? cursor.longKey == longKey : compareKeys(cursor.key, key) == 0;
    }

    private int compareKeys(Object[] left, Object[] right)
    {
        for (int i = 0; i < left.length; i++) {
            int order = ValueComparator.compare(keyTypes.get(i), left[i], right[i]);
            if (order != 0) {
                return order;
            }
        }
        return 0;
    }

    /**
     * Which files' key ranges, from their metadata, overlap no other file's (ranges that share
     * only one key overlap). A file whose bounds cannot be read counts as overlapping.
     */
    private boolean[] isolatedFiles(List<PlannedFile> files)
    {
        int count = files.size();
        boolean[] isolated = new boolean[count];
        Object[][] minKeys = new Object[count][];
        Object[][] maxKeys = new Object[count][];
        for (int i = 0; i < count; i++) {
            DataFileMeta meta = files.get(i).file();
            minKeys[i] = keyBound(meta.minKey());
            maxKeys[i] = keyBound(meta.maxKey());
            if (minKeys[i] == null || maxKeys[i] == null || compareKeys(minKeys[i], maxKeys[i]) > 0) {
                return isolated;
            }
        }
        Integer[] order = new Integer[count];
        Arrays.setAll(order, i -> i);
        Arrays.sort(order, Comparator.comparing(i -> minKeys[i], this::compareKeys));
        // the greatest max key of the files before in min-key order
        Object[] reach = null;
        for (int j = 0; j < count; j++) {
            int i = order[j];
            boolean clearBefore = reach == null || compareKeys(reach, minKeys[i]) < 0;
            boolean clearAfter = j == count - 1 || compareKeys(maxKeys[i], minKeys[order[j + 1]]) < 0;
            isolated[i] = clearBefore && clearAfter;
            if (reach == null || compareKeys(maxKeys[i], reach) > 0) {
                reach = maxKeys[i];
            }
        }
        return isolated;
    }

    private Object[] keyBound(BinaryRow bound)
    {
        if (bound.arity() != keyTypes.size()) {
            return null;
        }
        try {
            Object[] values = bound.values(keyTypes).toArray();
            for (Object value : values) {
                if (value == null) {
                    return null;
                }
            }
            return values;
        }
        catch (IllegalArgumentException | UnsupportedOperationException e) {
            // malformed bounds: the file is merged like any other
            return null;
        }
    }

    private static boolean retracts(byte kind)
    {
        return kind == KeyValue.UPDATE_BEFORE || kind == KeyValue.DELETE;
    }

    private DataField field(TableSchema schema, String name, String role)
            throws UnsupportedTableFeatureException
    {
        return schema.fields().stream()
                .filter(field -> field.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new UnsupportedTableFeatureException("Table " + table.name() + ": " + role + " column '" + name + "' is not in schema " + schema.id()));
    }

    /**
     * The records of one data file in file order, with their row positions.
     */
    private final class Cursor
    {
        private final DataFileMeta meta;
        private final boolean readsKinds;
        // positions arrive in ascending order; survivors are mostly dense
        private final RoaringBitmapWriter<RoaringBitmap> survivors = RoaringBitmapWriter.writer().constantMemory().get();
        private ParquetReader reader;
        private VectorSchemaRoot batch;
        private BigIntVector sequenceNumbers;
        private TinyIntVector kinds;
        private FieldVector[] keyVectors;
        private int batchStart;  // a row position: files have fewer than 2^31 rows
        private int batchRows;
        private int row = -1;
        private int position = -1;
        private long longKey;
        private Object[] key;
        private Object[] sequenceValues;
        private long sequenceNumber;
        private byte kind;
        // whether the current record has the key of the one before it in the file
        private boolean repeatsKey;

        Cursor(PlannedFile file, boolean readsKinds, ParquetReader reader)
        {
            this.meta = file.file();
            this.readsKinds = readsKinds;
            this.reader = reader;
        }

        boolean next()
                throws IOException
        {
            row++;
            while (batch == null || row >= batchRows) {
                if (reader == null) {
                    return false;
                }
                if (batch != null) {
                    batchStart = Math.addExact(batchStart, batchRows);
                }
                if (!DataFileReaders.nextBatch(table, reader)) {
                    close();
                    return false;
                }
                useBatch(reader.root());
                row = 0;
            }
            position = batchStart + row;
            read();
            return true;
        }

        private void useBatch(VectorSchemaRoot root)
        {
            batch = root;
            batchRows = root.getRowCount();
            sequenceNumbers = (BigIntVector) root.getVector(0);
            kinds = readsKinds ? (TinyIntVector) root.getVector(columnsWithKind.size() - 1) : null;
            keyVectors = new FieldVector[keyFields.size()];
            for (int i = 0; i < keyVectors.length; i++) {
                keyVectors[i] = root.getVector(FIRST_KEY_COLUMN + i);
            }
        }

        private void read()
                throws CorruptFileException
        {
            if (sequenceNumbers.isNull(row)) {
                throw new CorruptFileException("Table " + table.name() + ": data file " + meta.fileName() + " has a record without _SEQUENCE_NUMBER");
            }
            sequenceNumber = sequenceNumbers.get(row);
            // without _VALUE_KIND, the file's metadata counts no retraction
            kind = readsKinds ? checkedKind(row) : KeyValue.INSERT;
            if (integralKey) {
                FieldVector vector = keyVectors[0];
                if (vector.isNull(row)) {
                    throw nullKey();
                }
                longKey = ((BaseIntVector) vector).getValueAsLong(row);
            }
            else {
                Object[] newKey = new Object[keyVectors.length];
                for (int i = 0; i < newKey.length; i++) {
                    newKey[i] = ArrowValues.value(keyVectors[i], row, keyTypes.get(i));
                    if (newKey[i] == null) {
                        throw nullKey();
                    }
                }
                key = newKey;
            }
            if (!sequenceFields.isEmpty()) {
                sequenceValues = new Object[sequenceFields.size()];
                for (int i = 0; i < sequenceValues.length; i++) {
                    sequenceValues[i] = ArrowValues.value(batch.getVector(FIRST_KEY_COLUMN + keyFields.size() + i), row, sequenceFields.get(i).type());
                }
            }
        }

        /**
         * With an integral key: takes the current record and the ones after it in this batch as
         * single-record keys (each survives unless a retraction) while the next record's key is
         * above its own and below {@code next}'s current key, in a tight loop without the
         * per-record bookkeeping; stops on the last such record, which is left to the caller.
         */
        void takeSingleKeys(Cursor next)
                throws CorruptFileException
        {
            boolean bounded = next != null;
            long bound = bounded ? next.longKey : 0;
            BaseIntVector keys = (BaseIntVector) keyVectors[0];
            FieldVector keyVector = keyVectors[0];
            int current = row;
            long key = longKey;
            boolean retraction = isRetraction();
            while (current + 1 < batchRows) {
                int candidate = current + 1;
                if (keyVector.isNull(candidate)) {
                    throw nullKey();
                }
                long candidateKey = keys.getValueAsLong(candidate);
                // a repeated key (merged per record) or the bound: the general path takes over
                if (candidateKey <= key || (bounded && candidateKey >= bound)) {
                    break;
                }
                if (!retraction) {
                    survivors.add(batchStart + current);
                }
                current = candidate;
                key = candidateKey;
                retraction = readsKinds && retracts(checkedKind(candidate));
            }
            if (current != row) {
                row = current;
                position = batchStart + current;
                read();
            }
        }

        private byte checkedKind(int index)
                throws CorruptFileException
        {
            if (kinds.isNull(index)) {
                throw new CorruptFileException("Table " + table.name() + ": data file " + meta.fileName() + " has a record without _VALUE_KIND");
            }
            byte value = kinds.get(index);
            if (value < KeyValue.INSERT || value > KeyValue.DELETE) {
                throw new CorruptFileException("Table " + table.name() + ": data file " + meta.fileName() + " has a record of unknown _VALUE_KIND " + value);
            }
            return value;
        }

        private CorruptFileException nullKey()
        {
            return new CorruptFileException("Table " + table.name() + ": data file " + meta.fileName() + " has a record with a NULL primary key");
        }

        boolean isRetraction()
        {
            return retracts(kind);
        }


        void close()
        {
            if (reader == null) {
                return;
            }
            ReaderMetrics fileMetrics = reader.metrics();
            metrics = metrics.plus(ReadCounters.decoded(fileMetrics).with(Counter.FILES_READ, 1));
            reader.close();
            reader = null;
            batch = null;
        }
    }
}
