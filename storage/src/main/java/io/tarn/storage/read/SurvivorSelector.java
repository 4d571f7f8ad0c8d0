package io.tarn.storage.read;

import io.tarn.storage.CorruptFileException;
import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.manifest.DataFileMeta;
import io.tarn.storage.scan.DataSplit;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.table.PaimonTable;
import io.tarn.types.DataField;
import io.tarn.types.DataTypes;
import io.tarn.types.ValueComparator;
import io.tarn.vector.ParquetReadOptions;
import io.tarn.vector.ParquetReader;
import io.tarn.vector.ReaderMetrics;
import io.tarn.vector.rows.ArrowValues;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.roaringbitmap.RoaringBitmap;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

import static java.util.Objects.requireNonNull;

/**
 * Finds the surviving row of every key of a merge-on-read split of a {@code deduplicate} or
 * {@code first-row} table from the key, sequence and kind columns alone: those engines keep one
 * whole record per key (the newest, or the first), so no value needs merging. The result, a row
 * selection per data file, lets the value columns be read columnar, decoding only survivors, and
 * lets a value filter skip row groups and pages safely: a stale version of a row is not selected,
 * so no filter can bring it back.
 */
final class SurvivorSelector
{
    private static final int BATCH_SIZE = 4096;
    private static final int KEY_FIELD_ID_START = 1073741823;
    private static final DataField SEQUENCE_NUMBER = new DataField(2147483646, "_SEQUENCE_NUMBER", DataTypes.bigint().withNullable(false));
    private static final DataField VALUE_KIND = new DataField(2147483645, "_VALUE_KIND", DataTypes.tinyint().withNullable(false));

    /**
     * The selected rows of each data file of the split, by file name, and what reading the key
     * columns cost.
     */
    record Survivors(Map<String, RoaringBitmap> rowsByFile, ReadMetrics metrics)
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
    private final List<DataField> sequenceFields;
    private final List<DataField> readColumns;
    private ReadMetrics metrics = ReadMetrics.EMPTY;

    private SurvivorSelector(PaimonTable table, TableSchema readSchema, MergeFunctions.Engine engine)
            throws UnsupportedTableFeatureException
    {
        this.table = table;
        this.firstRow = engine == MergeFunctions.Engine.FIRST_ROW;
        this.ignoreDelete = Boolean.parseBoolean(readSchema.option("ignore-delete", "false").trim());
        this.sequenceAscending = MergeFunctions.sequenceAscending(readSchema);
        this.keyFields = new ArrayList<>();
        for (String name : readSchema.trimmedPrimaryKeys()) {
            keyFields.add(field(readSchema, name, "primary key"));
        }
        this.sequenceFields = new ArrayList<>();
        for (String name : MergeFunctions.sequenceFields(readSchema)) {
            sequenceFields.add(field(readSchema, name.trim(), "sequence.field"));
        }
        List<DataField> columns = new ArrayList<>();
        for (DataField key : keyFields) {
            columns.add(new DataField(KEY_FIELD_ID_START + key.id(), "_KEY_" + key.name(), key.type().withNullable(true)));
        }
        columns.add(SEQUENCE_NUMBER);
        columns.add(VALUE_KIND);
        // the key's own columns too: with data-file.thin-mode the files have no _KEY_ columns
        columns.addAll(keyFields);
        columns.addAll(sequenceFields);
        this.readColumns = List.copyOf(columns);
    }

    /**
     * Whether a table's merge engine keeps whole records, so that its splits can be merged by
     * selecting survivors.
     */
    static boolean supports(String table, TableSchema readSchema)
            throws UnsupportedTableFeatureException
    {
        MergeFunctions.Engine engine = MergeFunctions.engine(table, readSchema);
        return engine == MergeFunctions.Engine.DEDUPLICATE || engine == MergeFunctions.Engine.FIRST_ROW;
    }

    static Survivors select(PaimonTable table, TableSchema readSchema, DataSplit split, BufferAllocator allocator)
            throws IOException
    {
        if (!supports(table.name(), readSchema)) {
            throw new IllegalArgumentException("Table " + table.name() + ": survivors are defined for the deduplicate and first-row merge engines only");
        }
        SurvivorSelector selector = new SurvivorSelector(table, readSchema, MergeFunctions.engine(table.name(), readSchema));
        return selector.select(split, allocator);
    }

    private Survivors select(DataSplit split, BufferAllocator allocator)
            throws IOException
    {
        Map<String, RoaringBitmap> survivors = new HashMap<>();
        List<Cursor> cursors = new ArrayList<>();
        try {
            PriorityQueue<Cursor> queue = new PriorityQueue<>(Math.max(1, split.files().size()), this::compare);
            for (PlannedFile file : split.files()) {
                if (file.deletionFile().isPresent()) {
                    throw new UnsupportedTableFeatureException("Table " + table.name() + ": data file " + file.file().fileName()
                            + " has a deletion vector but its split needs merging; Tarn does not merge with deletion vectors");
                }
                survivors.put(file.file().fileName(), new RoaringBitmap());
                Cursor cursor = new Cursor(file, DataFileReaders.open(table, file, ParquetReadOptions.of(readColumns).withBatchSize(BATCH_SIZE), allocator));
                cursors.add(cursor);
                if (cursor.next()) {
                    queue.add(cursor);
                }
            }
            while (!queue.isEmpty()) {
                Cursor first = queue.poll();
                Object[] key = first.key;
                Cursor winner = null;
                long winnerRow = -1;
                int records = 0;
                boolean sawRetraction = false;
                Cursor current = first;
                while (true) {
                    records++;
                    boolean retraction = current.isRetraction();
                    sawRetraction |= retraction;
                    if (firstRow) {
                        if (winner == null && !retraction) {
                            winner = current;
                            winnerRow = current.position;
                        }
                    }
                    else if (!retraction || !ignoreDelete) {
                        // the newest record wins; a retraction that wins removes the key
                        winner = retraction ? null : current;
                        winnerRow = current.position;
                    }
                    advance(current, queue);
                    if (queue.isEmpty() || compareKeys(queue.peek().key, key) != 0) {
                        break;
                    }
                    current = queue.poll();
                }
                if (firstRow && records > 1 && sawRetraction && !ignoreDelete) {
                    throw new UnsupportedTableFeatureException("Table %s: the first-row merge engine cannot merge a retraction (-U/-D) record without 'ignore-delete'"
                            .formatted(table.name()));
                }
                if (winner != null) {
                    survivors.get(winner.meta.fileName()).add(Math.toIntExact(winnerRow));
                }
            }
        }
        finally {
            for (Cursor cursor : cursors) {
                cursor.close();
            }
        }
        return new Survivors(survivors, metrics);
    }

    private void advance(Cursor cursor, PriorityQueue<Cursor> queue)
            throws IOException
    {
        Object[] previousKey = cursor.key;
        long previousSequence = cursor.sequenceNumber;
        if (!cursor.next()) {
            return;
        }
        int order = compareKeys(previousKey, cursor.key);
        if (order > 0 || (order == 0 && previousSequence > cursor.sequenceNumber)) {
            throw new CorruptFileException("Table " + table.name() + ": data file " + cursor.meta.fileName() + " is not sorted by primary key and sequence number");
        }
        queue.add(cursor);
    }

    /**
     * Merge order: key, then the user sequence fields (nulls first), then {@code _SEQUENCE_NUMBER}.
     */
    private int compare(Cursor left, Cursor right)
    {
        int order = compareKeys(left.key, right.key);
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
        private ParquetReader reader;
        private VectorSchemaRoot batch;
        private long batchStart;
        private int row = -1;
        private long position = -1;
        private Object[] key;
        private Object[] sequenceValues;
        private long sequenceNumber;
        private byte kind;

        Cursor(PlannedFile file, ParquetReader reader)
        {
            this.meta = file.file();
            this.reader = reader;
        }

        boolean next()
                throws IOException
        {
            row++;
            while (batch == null || row >= batch.getRowCount()) {
                if (reader == null) {
                    return false;
                }
                if (batch != null) {
                    batchStart += batch.getRowCount();
                }
                if (!DataFileReaders.nextBatch(table, reader)) {
                    close();
                    return false;
                }
                batch = reader.root();
                row = 0;
            }
            position = batchStart + row;
            read();
            return true;
        }

        private void read()
                throws CorruptFileException
        {
            int keyCount = keyFields.size();
            BigIntVector sequenceNumbers = (BigIntVector) batch.getVector(keyCount);
            TinyIntVector kinds = (TinyIntVector) batch.getVector(keyCount + 1);
            if (sequenceNumbers.isNull(row) || kinds.isNull(row)) {
                throw new CorruptFileException("Table " + table.name() + ": data file " + meta.fileName() + " has a record without _SEQUENCE_NUMBER or _VALUE_KIND");
            }
            kind = kinds.get(row);
            if (kind < KeyValue.INSERT || kind > KeyValue.DELETE) {
                throw new CorruptFileException("Table " + table.name() + ": data file " + meta.fileName() + " has a record of unknown _VALUE_KIND " + kind);
            }
            sequenceNumber = sequenceNumbers.get(row);
            Object[] newKey = new Object[keyCount];
            for (int i = 0; i < keyCount; i++) {
                FieldVector keyVector = batch.getVector(i);
                FieldVector source = keyVector.isNull(row) ? batch.getVector(keyCount + 2 + i) : keyVector;
                newKey[i] = ArrowValues.value(source, row, keyFields.get(i).type());
                if (newKey[i] == null) {
                    throw new CorruptFileException("Table " + table.name() + ": data file " + meta.fileName() + " has a record with a NULL primary key");
                }
            }
            key = newKey;
            sequenceValues = new Object[sequenceFields.size()];
            for (int i = 0; i < sequenceValues.length; i++) {
                sequenceValues[i] = ArrowValues.value(batch.getVector(2 * keyCount + 2 + i), row, sequenceFields.get(i).type());
            }
        }

        boolean isRetraction()
        {
            return kind == KeyValue.UPDATE_BEFORE || kind == KeyValue.DELETE;
        }

        void close()
        {
            if (reader == null) {
                return;
            }
            ReaderMetrics fileMetrics = reader.metrics();
            metrics = metrics.plus(new ReadMetrics(1, 0, 0, fileMetrics.pagesSkipped(), fileMetrics.rowsRead(), 0, 0, 0, fileMetrics.bytesRead()));
            reader.close();
            reader = null;
            batch = null;
        }
    }
}
