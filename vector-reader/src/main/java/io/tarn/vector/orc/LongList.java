package io.tarn.vector.orc;

import java.util.Arrays;

/**
 * A growable list of longs, for repeated protobuf numbers (type ids, row index positions).
 */
final class LongList
{
    private long[] values = new long[8];
    private int size;

    void add(long value)
    {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = value;
    }

    int size()
    {
        return size;
    }

    long[] toArray()
    {
        return Arrays.copyOf(values, size);
    }
}
