package io.tarn.vector.avro;

import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.FieldVector;

import java.util.Arrays;

/**
 * BOOLEAN: a bit per value, as Arrow's bit vector holds them.
 */
final class BooleanBuilder
        extends ColumnBuilder
{
    private byte[] bits = new byte[8];

    void appendBoolean(boolean value)
    {
        setBit(value);
        setValidity(true);
        count++;
    }

    @Override
    void appendNull()
    {
        setBit(false);
        setValidity(false);
        count++;
    }

    private void setBit(boolean value)
    {
        int index = count >>> 3;
        if (index >= bits.length) {
            bits = Arrays.copyOf(bits, bits.length * 2);
        }
        int current = (count & 7) == 0 ? 0 : bits[index];
        bits[index] = (byte) (value ? current | (1 << (count & 7)) : current);
    }

    @Override
    void write(FieldVector vector)
    {
        BaseFixedWidthVector fixed = (BaseFixedWidthVector) vector;
        ensureCapacity(fixed, count);
        fixed.getDataBuffer().setBytes(0, bits, 0, (count + 7) >>> 3);
        writeValidity(fixed.getValidityBuffer());
        fixed.setValueCount(count);
    }

    @Override
    long bytes()
    {
        return (count + 7L) / 8;
    }

    @Override
    long retainedBytes()
    {
        return super.retainedBytes() + bits.length;
    }
}
