package io.tarn.vector.avro;

import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;

import java.util.Arrays;

/**
 * CHAR, VARCHAR, BINARY and VARBINARY: the bytes of all values and an offset per value.
 */
final class BinaryBuilder
        extends ColumnBuilder
{
    private byte[] data = new byte[256];
    // offsets[i] is where value i starts; offsets[count] where the bytes end
    private int[] offsets = new int[65];

    void appendBytes(byte[] source, int offset, int length)
    {
        int end = offsets[count];
        if (length > data.length - end) {
            data = Arrays.copyOf(data, grow(data.length, end + length));
        }
        System.arraycopy(source, offset, data, end, length);
        advance(end + length);
        setValidity(true);
        count++;
    }

    private void advance(int end)
    {
        if (count + 2 > offsets.length) {
            offsets = Arrays.copyOf(offsets, grow(offsets.length, count + 2));
        }
        offsets[count + 1] = end;
    }

    /**
     * Room for {@code length} more bytes after the values so far, for a caller that writes a
     * value in place ({@link #data()} from {@link #end()}) and then {@link #commit}s it.
     */
    void reserve(int length)
    {
        int end = offsets[count];
        if (length > data.length - end) {
            data = Arrays.copyOf(data, grow(data.length, end + length));
        }
    }

    byte[] data()
    {
        return data;
    }

    int end()
    {
        return offsets[count];
    }

    void commit(int length)
    {
        advance(offsets[count] + length);
        setValidity(true);
        count++;
    }

    @Override
    void appendNull()
    {
        advance(offsets[count]);
        setValidity(false);
        count++;
    }

    @Override
    void reset()
    {
        super.reset();
        offsets[0] = 0;
    }

    @Override
    void write(FieldVector vector)
    {
        BaseVariableWidthVector variable = (BaseVariableWidthVector) vector;
        int bytes = offsets[count];
        if (variable.getValueCapacity() < count || variable.getDataBuffer().capacity() < bytes || variable.getOffsetBuffer().capacity() < 4L * (count + 1)) {
            variable.clear();
            variable.allocateNew(Math.max(bytes, 1), Math.max(count, 1));
        }
        writeOffsets(variable.getOffsetBuffer(), offsets, count);
        variable.getDataBuffer().setBytes(0, data, 0, bytes);
        writeValidity(variable.getValidityBuffer());
        variable.setLastSet(count - 1);
        variable.setValueCount(count);
    }

    @Override
    long bytes()
    {
        return offsets[count] + 4L * count;
    }

    @Override
    long retainedBytes()
    {
        return super.retainedBytes() + data.length + 4L * offsets.length;
    }
}
