package io.tarn.vector.reader.decoders;

import io.tarn.vector.CorruptDataException;

import java.util.Arrays;

/**
 * DELTA_BYTE_ARRAY (incremental encoding): prefix lengths DELTA_BINARY_PACKED, then the suffixes
 * as DELTA_LENGTH_BYTE_ARRAY; each value is the first {@code prefix} bytes of the previous value
 * followed by its suffix. Skipping still rebuilds the skipped values, since later values depend
 * on them.
 */
final class DeltaByteArrayDecoder
        implements ValuesDecoder
{
    private final int[] prefixes;
    private final DeltaLengthByteArrayDecoder suffixes;
    private int index;
    private byte[] previous = new byte[0];
    private int previousLength;

    DeltaByteArrayDecoder(byte[] data, int offset, int end, int maxValues)
    {
        DeltaBinaryPackedDecoder prefixDecoder = new DeltaBinaryPackedDecoder(data, offset, end, true);
        int count = prefixDecoder.totalCount();
        if (count > maxValues) {
            throw new CorruptDataException("DELTA_BYTE_ARRAY holds " + count + " prefixes for a page of " + maxValues + " values");
        }
        this.prefixes = new int[count];
        prefixDecoder.readInts(prefixes, 0, count);
        this.suffixes = new DeltaLengthByteArrayDecoder(data, prefixDecoder.endPosition(), end, maxValues);
        if (suffixes.remaining() != count) {
            throw new CorruptDataException("DELTA_BYTE_ARRAY has " + count + " prefixes but " + suffixes.remaining() + " suffixes");
        }
    }

    @Override
    public void read(ValueBuffer out, int count)
    {
        check(count);
        // room for the offsets of every value, which the loop writes through out.offsets
        out.offsets(count);
        for (int i = 0; i < count; i++) {
            next();
            byte[] target = out.bytes(previousLength);
            int start = out.offsets[out.count];
            System.arraycopy(previous, 0, target, start, previousLength);
            out.count++;
            out.offsets[out.count] = start + previousLength;
        }
    }

    @Override
    public void readSelected(ValueBuffer out, int count, long[] selected)
    {
        // each value is built from the one before: every value is decoded, the selected ones copied
        check(count);
        out.offsets(count);
        for (int i = 0; i < count; i++) {
            next();
            if ((selected[i >>> 6] & (1L << i)) == 0) {
                continue;
            }
            byte[] target = out.bytes(previousLength);
            int start = out.offsets[out.count];
            System.arraycopy(previous, 0, target, start, previousLength);
            out.count++;
            out.offsets[out.count] = start + previousLength;
        }
    }

    @Override
    public void skip(int count)
    {
        check(count);
        for (int i = 0; i < count; i++) {
            next();
        }
    }

    private void next()
    {
        int prefix = prefixes[index];
        if (prefix < 0 || prefix > previousLength) {
            throw new CorruptDataException("DELTA_BYTE_ARRAY prefix length " + prefix + " exceeds the previous value of " + previousLength + " bytes");
        }
        int suffixLength = suffixes.nextLength();
        int length = prefix + suffixLength;
        if (previous.length < length) {
            previous = Arrays.copyOf(previous, ValueBuffer.grow(previous.length, length));
        }
        System.arraycopy(suffixes.data(), suffixes.nextPosition(), previous, prefix, suffixLength);
        suffixes.advance();
        previousLength = length;
        index++;
    }

    private void check(int count)
    {
        if (count > prefixes.length - index) {
            throw new CorruptDataException("DELTA_BYTE_ARRAY holds only " + prefixes.length + " values");
        }
    }
}
