package io.tarn.storage.read.merge;

import io.tarn.storage.CorruptFileException;
import io.tarn.storage.manifest.DataFileMeta;
import io.tarn.storage.metrics.Counter;
import io.tarn.storage.metrics.Counters;
import io.tarn.storage.read.DataFileReaders;
import io.tarn.storage.read.ReadCounters;
import io.tarn.storage.read.SystemFields;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.table.PaimonTable;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.vector.reader.DataFileReader;
import io.tarn.vector.reader.ReaderMetrics;
import io.tarn.vector.rows.ArrowValues;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.roaringbitmap.RoaringBitmap;
import org.roaringbitmap.RoaringBitmapWriter;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The records of one data file in file order, with their row positions, as far as
 * {@link SurvivorSelector} reads them: key, sequence and kind; and the rows selected from them.
 */
final class KeyCursor
{
    // column layout: _SEQUENCE_NUMBER, the key fields, the sequence fields, then _VALUE_KIND when read
    private static final int FIRST_KEY_COLUMN = 1;

    private final PaimonTable table;
    private final DataFileMeta meta;
    private final boolean readsKinds;
    private final MergeOrder order;
    private final boolean integralKey;
    private final List<DataType> keyTypes;
    private final List<DataField> sequenceFields;
    // positions arrive in ascending order; survivors are mostly dense
    private final RoaringBitmapWriter<RoaringBitmap> survivors = RoaringBitmapWriter.writer().constantMemory().get();
    private DataFileReader reader;
    private Counters metrics = Counters.empty(Counter.Stage.READING);
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

    /**
     * @param reader a reader of the file's {@link #columns}, with {@code _VALUE_KIND} if
     * {@code readsKinds}
     */
    KeyCursor(PaimonTable table, PlannedFile file, MergeOrder order, boolean readsKinds, DataFileReader reader)
    {
        this.table = table;
        this.meta = file.file();
        this.order = order;
        this.integralKey = order.integralKey();
        this.keyTypes = order.keyTypes();
        this.sequenceFields = order.sequenceFields();
        this.readsKinds = readsKinds;
        this.reader = reader;
    }

    /**
     * The columns a cursor reads in {@code order}, with {@code _VALUE_KIND} or without.
     */
    static List<DataField> columns(MergeOrder order, boolean withKind)
    {
        List<DataField> columns = new ArrayList<>();
        columns.add(SystemFields.SEQUENCE_NUMBER);
        columns.addAll(order.keyFields());
        columns.addAll(order.sequenceFields());
        if (withKind) {
            columns.add(SystemFields.VALUE_KIND);
        }
        return List.copyOf(columns);
    }

    String fileName()
    {
        return meta.fileName();
    }

    /** The row position of the current record in its file. */
    int position()
    {
        return position;
    }

    long longKey()
    {
        return longKey;
    }

    Object[] key()
    {
        return key;
    }

    Object sequenceValue(int index)
    {
        return sequenceValues[index];
    }

    long sequenceNumber()
    {
        return sequenceNumber;
    }

    boolean repeatsKey()
    {
        return repeatsKey;
    }

    boolean isRetraction()
    {
        return retracts(kind);
    }

    void select(int rowPosition)
    {
        survivors.add(rowPosition);
    }

    /** The rows selected from this file. */
    RoaringBitmap survivors()
    {
        return survivors.get();
    }

    /** What reading the file cost, once it is closed. */
    Counters metrics()
    {
        return metrics;
    }

    /**
     * Moves to the first record, or to the next without checking the file's order; false at its end.
     */
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

    /**
     * Moves to the next record and checks the file's order; false at its end.
     */
    boolean advance()
            throws IOException
    {
        long previousLongKey = longKey;
        Object[] previousKey = key;
        long previousSequence = sequenceNumber;
        if (!next()) {
            return false;
        }
        int keyOrder = integralKey ? Long.compare(previousLongKey, longKey) : order.compareKeys(previousKey, key);
        if (keyOrder > 0 || (keyOrder == 0 && previousSequence > sequenceNumber)) {
            throw new CorruptFileException("Table " + table.name() + ": data file " + meta.fileName() + " is not sorted by primary key and sequence number");
        }
        repeatsKey = keyOrder == 0;
        return true;
    }

    private void useBatch(VectorSchemaRoot root)
    {
        batch = root;
        batchRows = root.getRowCount();
        sequenceNumbers = (BigIntVector) root.getVector(0);
        kinds = readsKinds ? (TinyIntVector) root.getVector(FIRST_KEY_COLUMN + keyTypes.size() + sequenceFields.size()) : null;
        keyVectors = new FieldVector[keyTypes.size()];
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
                sequenceValues[i] = ArrowValues.value(batch.getVector(FIRST_KEY_COLUMN + keyTypes.size() + i), row, sequenceFields.get(i).type());
            }
        }
    }

    /**
     * With an integral key: takes the current record and the ones after it in this batch as
     * single-record keys (each survives unless a retraction) while the next record's key is
     * above its own and below {@code next}'s current key, in a tight loop without the
     * per-record bookkeeping; stops on the last such record, which is left to the caller.
     */
    void takeSingleKeys(KeyCursor next)
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

    private static boolean retracts(byte kind)
    {
        return kind == KeyValue.UPDATE_BEFORE || kind == KeyValue.DELETE;
    }

    void close()
    {
        if (reader == null) {
            return;
        }
        ReaderMetrics fileMetrics = reader.metrics();
        metrics = ReadCounters.decoded(fileMetrics).with(Counter.FILES_READ, 1);
        reader.close();
        reader = null;
        batch = null;
    }
}
