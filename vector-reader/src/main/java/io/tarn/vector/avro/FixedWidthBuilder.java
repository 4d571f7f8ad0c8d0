package io.tarn.vector.avro;

import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.FieldVector;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Values of 1, 2, 4, 8 or 16 bytes (BOOLEAN excepted), little-endian.
 */
final class FixedWidthBuilder
        extends ColumnBuilder
{
    private static final VarHandle SHORTS = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final int width;
    private byte[] data = new byte[64];

    FixedWidthBuilder(int width)
    {
        this.width = width;
    }

    int width()
    {
        return width;
    }

    private int slotOffset()
    {
        int offset = count * width;
        if (offset > data.length - width) {
            data = Arrays.copyOf(data, grow(data.length, offset + width));
        }
        return offset;
    }

    void appendByte(int value)
    {
        // the offset first: growing replaces the array
        int offset = slotOffset();
        data[offset] = (byte) value;
        setValidity(true);
        count++;
    }

    void appendShort(int value)
    {
        int offset = slotOffset();
        SHORTS.set(data, offset, (short) value);
        setValidity(true);
        count++;
    }

    void appendInt(int value)
    {
        int offset = slotOffset();
        INTS.set(data, offset, value);
        setValidity(true);
        count++;
    }

    void appendLong(long value)
    {
        int offset = slotOffset();
        LONGS.set(data, offset, value);
        setValidity(true);
        count++;
    }

    /**
     * A 128-bit two's complement value, low 64 bits first.
     */
    void appendDecimal(long low, long high)
    {
        int offset = slotOffset();
        LONGS.set(data, offset, low);
        LONGS.set(data, offset + 8, high);
        setValidity(true);
        count++;
    }

    /**
     * An integer of any width: truncated to this builder's width, or sign-extended.
     */
    void appendInteger(long value)
    {
        switch (width) {
            case 1 -> appendByte((int) value);
            case 2 -> appendShort((int) value);
            case 4 -> appendInt((int) value);
            case 8 -> appendLong(value);
            default -> appendDecimal(value, value >> 63);
        }
    }

    @Override
    void appendNull()
    {
        int offset = slotOffset();
        Arrays.fill(data, offset, offset + width, (byte) 0);
        setValidity(false);
        count++;
    }

    @Override
    void write(FieldVector vector)
    {
        BaseFixedWidthVector fixed = (BaseFixedWidthVector) vector;
        if (fixed.getTypeWidth() != width) {
            throw new IllegalStateException("A builder of " + width + "-byte values for a vector of " + fixed.getTypeWidth() + "-byte values");
        }
        ensureCapacity(fixed, count);
        fixed.getDataBuffer().setBytes(0, data, 0, (long) count * width);
        writeValidity(fixed.getValidityBuffer());
        fixed.setValueCount(count);
    }

    @Override
    long bytes()
    {
        return (long) count * width;
    }

    @Override
    long retainedBytes()
    {
        return super.retainedBytes() + data.length;
    }
}
