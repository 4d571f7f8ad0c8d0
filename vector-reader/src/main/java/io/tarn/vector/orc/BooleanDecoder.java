package io.tarn.vector.orc;

import io.tarn.vector.CorruptDataException;

/**
 * ORC's boolean encoding: bits packed into bytes from the most significant bit down, the bytes
 * run-length encoded as in {@link ByteRleDecoder}. Present streams use it with true for non-null.
 */
final class BooleanDecoder
{
    private final ByteRleDecoder bytes;
    private final byte[] scratch = new byte[1024];
    private int current;
    // bits of current not yet read
    private int bitsLeft;

    BooleanDecoder(DecompressedStream input)
    {
        this.bytes = new ByteRleDecoder(input);
    }

    boolean next()
    {
        if (bitsLeft == 0) {
            current = bytes.next() & 0xFF;
            bitsLeft = 8;
        }
        bitsLeft--;
        return (current >>> bitsLeft & 1) != 0;
    }

    /**
     * Reads {@code count} values into {@code values[offset, offset + count)} and returns how many
     * of them are true.
     */
    int next(boolean[] values, int offset, int count)
    {
        int trues = 0;
        int i = 0;
        while (i < count && bitsLeft > 0) {
            boolean value = next();
            values[offset + i++] = value;
            trues += value ? 1 : 0;
        }
        // whole bytes: taken from the byte decoder in bulk and spread out 8 values at a time
        int wholeBytes = (count - i) / 8;
        while (wholeBytes > 0) {
            int n = Math.min(wholeBytes, scratch.length);
            bytes.next(scratch, 0, n);
            for (int k = 0; k < n; k++) {
                int b = scratch[k] & 0xFF;
                trues += Integer.bitCount(b);
                int at = offset + i;
                if (b == 0xFF) {
                    for (int bit = 0; bit < 8; bit++) {
                        values[at + bit] = true;
                    }
                }
                else {
                    for (int bit = 0; bit < 8; bit++) {
                        values[at + bit] = (b << bit & 0x80) != 0;
                    }
                }
                i += 8;
            }
            wholeBytes -= n;
        }
        while (i < count) {
            boolean value = next();
            values[offset + i++] = value;
            trues += value ? 1 : 0;
        }
        return trues;
    }

    /**
     * Skips {@code count} values and returns how many of them were true.
     */
    long skip(long count)
    {
        long trues = 0;
        while (count > 0 && bitsLeft > 0) {
            trues += next() ? 1 : 0;
            count--;
        }
        long wholeBytes = count / 8;
        trues += bytes.skipCountingBits(wholeBytes);
        count -= wholeBytes * 8;
        while (count > 0) {
            trues += next() ? 1 : 0;
            count--;
        }
        return trues;
    }

    /**
     * Moves to a row index position: that of the byte decoder, then the bits to skip in the byte
     * found there.
     */
    void seek(PositionCursor positions)
    {
        bytes.seek(positions);
        bitsLeft = 0;
        long consumedBits = positions.next();
        if (consumedBits > 8) {
            throw new CorruptDataException("Row index skips " + consumedBits + " bits of a byte");
        }
        if (consumedBits > 0) {
            current = bytes.next() & 0xFF;
            bitsLeft = 8 - (int) consumedBits;
        }
    }
}
