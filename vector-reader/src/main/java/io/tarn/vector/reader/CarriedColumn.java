package io.tarn.vector.reader;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

import static java.util.Objects.requireNonNull;

/**
 * The values of one fixed-width filter column at the rows a filter pass kept, collected batch by
 * batch. Handed to {@link ParquetReader#reopen(ReadOptions, BufferAllocator,
 * java.util.Map)} for the read of those rows' other columns, it fills its column there: the
 * column's pages are not read, decompressed and decoded a second time. The caller owns it and
 * closes it after that reader.
 */
public final class CarriedColumn
        implements AutoCloseable
{
    private final BaseFixedWidthVector values;
    private final int width;
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
        FieldVector vector = requireNonNull(field, "field is null").createVector(requireNonNull(allocator, "allocator is null"));
        if (!canCarry(vector)) {
            vector.close();
            throw new IllegalArgumentException("Column " + field.getName() + " of type " + field.getType() + " is not fixed-width");
        }
        this.values = (BaseFixedWidthVector) vector;
        this.width = values.getTypeWidth();
        values.allocateNew(1024);
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
        if (batch.getClass() != values.getClass()) {
            throw new IllegalArgumentException("A " + batch.getClass().getSimpleName() + " appended to a carried " + values.getClass().getSimpleName());
        }
        BaseFixedWidthVector source = (BaseFixedWidthVector) batch;
        while (values.getValueCapacity() < rows + count) {
            values.reAlloc();
        }
        long sourceData = source.getDataBuffer().memoryAddress();
        long targetData = values.getDataBuffer().memoryAddress();
        ArrowBuf sourceValidity = source.getValidityBuffer();
        ArrowBuf targetValidity = values.getValidityBuffer();
        int valueCount = source.getValueCount();
        for (int i = 0; i < count; i++) {
            int row = selected[i];
            if (row < 0 || row >= valueCount) {
                throw new IllegalArgumentException("Row " + row + " of a batch of " + valueCount);
            }
            copyValue(sourceData + (long) row * width, targetData + (long) (rows + i) * width);
            BitVectorHelper.setValidityBit(targetValidity, rows + i, BitVectorHelper.get(sourceValidity, row));
        }
        rows += count;
        values.setValueCount(rows);
    }

    private void copyValue(long from, long to)
    {
        switch (width) {
            case 1 -> MemoryUtil.putByte(to, MemoryUtil.getByte(from));
            case 2 -> MemoryUtil.putShort(to, MemoryUtil.getShort(from));
            case 4 -> MemoryUtil.putInt(to, MemoryUtil.getInt(from));
            case 8 -> MemoryUtil.putLong(to, MemoryUtil.getLong(from));
            default -> MemoryUtil.copyMemory(from, to, width);
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
        MemoryUtil.copyMemory(values.getDataBuffer().memoryAddress() + (long) from * width, fixed.getDataBuffer().memoryAddress(), (long) count * width);
        ArrowBuf sourceValidity = values.getValidityBuffer();
        ArrowBuf targetValidity = fixed.getValidityBuffer();
        for (int i = 0; i < count; i++) {
            BitVectorHelper.setValidityBit(targetValidity, i, BitVectorHelper.get(sourceValidity, from + i));
        }
        fixed.setValueCount(count);
    }

    @Override
    public void close()
    {
        values.close();
    }
}
