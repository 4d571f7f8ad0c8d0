package io.tarn.vector.reader.decoders;

import io.tarn.vector.CorruptDataException;

/**
 * DELTA_LENGTH_BYTE_ARRAY: all lengths DELTA_BINARY_PACKED, then all bytes concatenated. The
 * lengths are decoded upfront (their count is bounded by the page's value count) because the
 * bytes start after them.
 */
final class DeltaLengthByteArrayDecoder
        implements ValuesDecoder
{
    private final byte[] data;
    private final int[] lengths;
    private int index;
    private int position;

    DeltaLengthByteArrayDecoder(byte[] data, int offset, int end, int maxValues)
    {
        DeltaBinaryPackedDecoder lengthDecoder = new DeltaBinaryPackedDecoder(data, offset, end, true);
        int count = lengthDecoder.totalCount();
        if (count > maxValues) {
            throw new CorruptDataException("DELTA_LENGTH_BYTE_ARRAY holds " + count + " lengths for a page of " + maxValues + " values");
        }
        this.lengths = new int[count];
        lengthDecoder.readInts(lengths, 0, count);
        long total = 0;
        for (int length : lengths) {
            if (length < 0) {
                throw new CorruptDataException("Negative DELTA_LENGTH_BYTE_ARRAY length " + length);
            }
            total += length;
        }
        this.data = data;
        this.position = lengthDecoder.endPosition();
        if (total > end - position) {
            throw new CorruptDataException("DELTA_LENGTH_BYTE_ARRAY values need " + total + " bytes but the page has " + (end - position));
        }
    }

    /**
     * Number of values not yet read.
     */
    int remaining()
    {
        return lengths.length - index;
    }

    @Override
    public void read(ValueBuffer out, int count)
    {
        check(count);
        long total = 0;
        for (int i = 0; i < count; i++) {
            total += lengths[index + i];
        }
        int[] offsets = out.offsets(count);
        byte[] target = out.bytes((int) total);
        int base = out.count;
        int write = offsets[base];
        System.arraycopy(data, position, target, write, (int) total);
        for (int i = 0; i < count; i++) {
            write += lengths[index + i];
            offsets[base + i + 1] = write;
        }
        position += (int) total;
        index += count;
        out.count += count;
    }

    /**
     * The length of the next value, whose bytes start at {@link #nextPosition()}; {@link #advance()}
     * moves past it.
     */
    int nextLength()
    {
        check(1);
        return lengths[index];
    }

    int nextPosition()
    {
        return position;
    }

    void advance()
    {
        position += lengths[index];
        index++;
    }

    byte[] data()
    {
        return data;
    }

    @Override
    public void readSelected(ValueBuffer out, int count, long[] selected)
    {
        check(count);
        int[] offsets = out.offsets(count);
        long total = 0;
        for (int i = 0; i < count; i++) {
            if ((selected[i >>> 6] & (1L << i)) != 0) {
                total += lengths[index + i];
            }
        }
        byte[] target = out.bytes((int) total);
        int value = out.count;
        int write = offsets[value];
        int at = position;
        for (int i = 0; i < count; i++) {
            int length = lengths[index + i];
            if ((selected[i >>> 6] & (1L << i)) != 0) {
                System.arraycopy(data, at, target, write, length);
                write += length;
                offsets[++value] = write;
            }
            at += length;
        }
        position = at;
        index += count;
        out.count = value;
    }

    @Override
    public void skip(int count)
    {
        check(count);
        for (int i = 0; i < count; i++) {
            position += lengths[index + i];
        }
        index += count;
    }

    private void check(int count)
    {
        if (count > lengths.length - index) {
            throw new CorruptDataException("DELTA_LENGTH_BYTE_ARRAY holds only " + lengths.length + " values");
        }
    }
}
