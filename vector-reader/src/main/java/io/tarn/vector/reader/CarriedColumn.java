package io.tarn.vector.reader;

import io.tarn.vector.filter.ValueGather;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The values of one fixed-width filter column at the rows a filter pass kept, collected batch by
 * batch. Handed to {@link ParquetReader#reopen(ReadOptions, BufferAllocator,
 * java.util.Map)} for the read of those rows' other columns, it fills its column there: the
 * column's pages are not read, decompressed and decoded a second time. The caller owns it and
 * closes it after that reader.
 *
 * <p>The values are kept in chunks of {@value #CHUNK_ROWS} rows. One vector doubled as it grew
 * became, at each doubling past a few megabytes, a fresh buffer that the JDK zeroes before use
 * and that the old values were copied into: in a profile of TPC-H Q3 (a line-item filter that
 * keeps half of 6 M rows) that zeroing was 60% of this class's time, and appending the kept
 * values took more time than decoding the filter columns. Chunks this size come from the
 * allocator's pool and are never copied.
 */
public final class CarriedColumn
        implements AutoCloseable
{
    static final int CHUNK_ROWS = 1 << 14;

    private final Field field;
    private final BufferAllocator allocator;
    private final int width;
    private final List<Chunk> chunks = new ArrayList<>();
    private int rows;

    /**
     * Whether a batch's vector can be carried: fixed-width values of whole bytes.
     */
    public static boolean canCarry(FieldVector vector)
    {
        return vector instanceof BaseFixedWidthVector && !(vector instanceof BitVector);
    }

    public CarriedColumn(Field field, BufferAllocator allocator)
    {
        this.field = requireNonNull(field, "field is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        FieldVector vector = field.createVector(allocator);
        if (!canCarry(vector)) {
            vector.close();
            throw new IllegalArgumentException("Column " + field.getName() + " of type " + field.getType() + " is not fixed-width");
        }
        BaseFixedWidthVector first = (BaseFixedWidthVector) vector;
        this.width = first.getTypeWidth();
        try {
            first.allocateNew(CHUNK_ROWS);
        }
        catch (RuntimeException e) {
            first.close();
            throw e;
        }
        chunks.add(new Chunk(first));
    }

    public int rowCount()
    {
        return rows;
    }

    /**
     * Appends the values of rows {@code selected[0, count)} of {@code batch}, a vector of this
     * column's type.
     */
    public void append(FieldVector batch, int[] selected, int count)
    {
        if (batch.getClass() != chunks.get(0).values.getClass()) {
            throw new IllegalArgumentException("A " + batch.getClass().getSimpleName() + " appended to a carried " + chunks.get(0).values.getClass().getSimpleName());
        }
        BaseFixedWidthVector source = (BaseFixedWidthVector) batch;
        int valueCount = source.getValueCount();
        // a batch without nulls sets its validity bits a byte at a time, not row by row
        boolean sourceHasNulls = source.getNullCount() > 0;
        long sourceData = source.getDataBuffer().memoryAddress();
        ArrowBuf sourceValidity = source.getValidityBuffer();
        int done = 0;
        while (done < count) {
            int offset = rows % CHUNK_ROWS;
            if (rows / CHUNK_ROWS == chunks.size()) {
                chunks.add(newChunk());
            }
            Chunk chunk = chunks.get(rows / CHUNK_ROWS);
            int length = Math.min(count - done, CHUNK_ROWS - offset);
            gather(sourceData, valueCount, selected, done, length, chunk.values.getDataBuffer().memoryAddress() + (long) offset * width);
            ArrowBuf targetValidity = chunk.values.getValidityBuffer();
            if (sourceHasNulls) {
                chunk.hasNulls = true;
                for (int i = 0; i < length; i++) {
                    BitVectorHelper.setValidityBit(targetValidity, offset + i, BitVectorHelper.get(sourceValidity, selected[done + i]));
                }
            }
            else {
                setBits(targetValidity, offset, length);
            }
            chunk.values.setValueCount(offset + length);
            rows += length;
            done += length;
        }
    }

    private Chunk newChunk()
    {
        BaseFixedWidthVector vector = (BaseFixedWidthVector) field.createVector(allocator);
        try {
            vector.allocateNew(CHUNK_ROWS);
        }
        catch (RuntimeException e) {
            vector.close();
            throw e;
        }
        return new Chunk(vector);
    }

    /**
     * Copies the values of rows {@code selected[from, from + length)} of a batch's data buffer to
     * {@code target}, one after the other.
     */
    private void gather(long sourceData, int valueCount, int[] selected, int from, int length, long target)
    {
        for (int i = from; i < from + length; i++) {
            if (selected[i] < 0 || selected[i] >= valueCount) {
                throw new IllegalArgumentException("Row " + selected[i] + " of a batch of " + valueCount);
            }
        }
        ValueGather.gatherFixed(sourceData, width, selected, from, length, target);
    }

    /**
     * Sets validity bits {@code [from, from + count)}: whole bytes at once.
     */
    private static void setBits(ArrowBuf validity, int from, int count)
    {
        int bit = from;
        int end = from + count;
        while (bit < end && (bit & 7) != 0) {
            BitVectorHelper.setBit(validity, bit++);
        }
        int bytes = (end - bit) >>> 3;
        if (bytes > 0) {
            validity.setOne(bit >>> 3, bytes);
            bit += bytes << 3;
        }
        while (bit < end) {
            BitVectorHelper.setBit(validity, bit++);
        }
    }

    /**
     * Copies rows {@code [from, from + count)} into {@code target}, a vector of this column's
     * type, as its {@code count} values.
     */
    void copyTo(FieldVector target, int from, int count)
    {
        if (from < 0 || count < 0 || from + count > rows) {
            throw new IllegalStateException("Rows " + from + " to " + (from + count) + " of a carried column of " + rows);
        }
        BaseFixedWidthVector fixed = (BaseFixedWidthVector) target;
        FieldAssembler.ensureFixedCapacity(fixed, count);
        ArrowBuf targetValidity = fixed.getValidityBuffer();
        int done = 0;
        while (done < count) {
            Chunk chunk = chunks.get((from + done) / CHUNK_ROWS);
            int offset = (from + done) % CHUNK_ROWS;
            int length = Math.min(count - done, CHUNK_ROWS - offset);
            MemoryUtil.copyMemory(chunk.values.getDataBuffer().memoryAddress() + (long) offset * width, fixed.getDataBuffer().memoryAddress() + (long) done * width, (long) length * width);
            if (chunk.hasNulls) {
                ArrowBuf sourceValidity = chunk.values.getValidityBuffer();
                for (int i = 0; i < length; i++) {
                    BitVectorHelper.setValidityBit(targetValidity, done + i, BitVectorHelper.get(sourceValidity, offset + i));
                }
            }
            else {
                setBits(targetValidity, done, length);
            }
            done += length;
        }
        fixed.setValueCount(count);
    }

    @Override
    public void close()
    {
        chunks.forEach(chunk -> chunk.values.close());
    }

    private static final class Chunk
    {
        private final BaseFixedWidthVector values;
        // whether any value appended here was null; a chunk without nulls copies its validity a byte at a time
        private boolean hasNulls;

        Chunk(BaseFixedWidthVector values)
        {
            this.values = values;
        }
    }
}
