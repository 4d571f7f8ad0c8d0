package io.tarn.vector.reader.decoders;

import io.tarn.vector.CorruptDataException;

import java.util.Arrays;

/**
 * Decoded non-null values of one column, densely, in the array that fits their physical type:
 * {@code ints} for BOOLEAN (0/1), INT32 and FLOAT (raw bits); {@code longs} for INT64, DOUBLE
 * (raw bits) and INT96 (epoch nanoseconds); {@code bytes} with {@code offsets} (count + 1
 * entries, starting at 0) for BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY. Arrays grow and are reused.
 * <p>
 * Internal to the vector-reader module: public only for the reader package.
 */
public final class ValueBuffer
{
    public int[] ints = new int[0];
    public long[] longs = new long[0];
    public byte[] bytes = new byte[0];
    public int[] offsets = new int[1];
    public int count;

    public void reset()
    {
        count = 0;
        offsets[0] = 0;
    }

    public void copyFrom(ValueBuffer source)
    {
        int n = source.count;
        if (ints.length < n && source.ints.length >= n) {
            ints = new int[n];
        }
        if (longs.length < n && source.longs.length >= n) {
            longs = new long[n];
        }
        if (offsets.length < n + 1) {
            offsets = new int[n + 1];
        }
        if (source.ints.length >= n) {
            System.arraycopy(source.ints, 0, ints, 0, n);
        }
        if (source.longs.length >= n) {
            System.arraycopy(source.longs, 0, longs, 0, n);
        }
        if (source.offsets.length >= n + 1) {
            System.arraycopy(source.offsets, 0, offsets, 0, n + 1);
            int byteCount = source.offsets[n];
            if (byteCount >= 0 && byteCount <= source.bytes.length) {
                if (bytes.length < byteCount) {
                    bytes = new byte[byteCount];
                }
                System.arraycopy(source.bytes, 0, bytes, 0, byteCount);
            }
        }
        count = n;
    }

    /**
     * The heap of the arrays, whatever of them is in use.
     */
    public long retainedBytes()
    {
        return 4L * ints.length + 8L * longs.length + bytes.length + 4L * offsets.length;
    }

    public int byteCount()
    {
        return offsets[count];
    }

    int[] ints(int extra)
    {
        int needed = count + extra;
        if (ints.length < needed) {
            ints = Arrays.copyOf(ints, grow(ints.length, needed));
        }
        return ints;
    }

    long[] longs(int extra)
    {
        int needed = count + extra;
        if (longs.length < needed) {
            longs = Arrays.copyOf(longs, grow(longs.length, needed));
        }
        return longs;
    }

    int[] offsets(int extra)
    {
        int needed = count + extra + 1;
        if (offsets.length < needed) {
            offsets = Arrays.copyOf(offsets, grow(offsets.length, needed));
        }
        return offsets;
    }

    byte[] bytes(int extraBytes)
    {
        long needed = (long) offsets[count] + extraBytes;
        if (needed > Integer.MAX_VALUE - 16) {
            throw new CorruptDataException("Decoded binary values exceed 2 GB in one batch");
        }
        if (bytes.length < needed) {
            bytes = Arrays.copyOf(bytes, grow(bytes.length, (int) needed));
        }
        return bytes;
    }

    /**
     * Appends one binary value; slow path for decoders that do not know the total size upfront.
     */
    void appendBinary(byte[] source, int offset, int length)
    {
        offsets(1);
        byte[] target = bytes(length);
        int start = offsets[count];
        System.arraycopy(source, offset, target, start, length);
        count++;
        offsets[count] = start + length;
    }

    /**
     * Keeps, of the {@code n} int values appended from index {@code start} on, only those whose
     * bit is set in {@code selected}, moved down in place; for decoders that cannot pass over the
     * values a selection leaves out.
     */
    void retainInts(int start, int n, long[] selected)
    {
        count = start + SelectionMasks.compact(ints, start, n, selected);
    }

    /**
     * {@link #retainInts} for long values.
     */
    void retainLongs(int start, int n, long[] selected)
    {
        count = start + SelectionMasks.compact(longs, start, n, selected);
    }

    /**
     * {@link #retainInts} for binary values: their bytes move down and the offsets follow.
     */
    void retainBinary(int start, int n, long[] selected)
    {
        int write = start;
        int byteWrite = offsets[start];
        for (int w = 0; w < SelectionMasks.words(n); w++) {
            long word = selected[w];
            int base = start + (w << 6);
            while (word != 0) {
                // offsets[source] and offsets[source + 1] are read before the write index, at
                // most source, reaches them
                int source = base + Long.numberOfTrailingZeros(word);
                int from = offsets[source];
                int length = offsets[source + 1] - from;
                if (from != byteWrite) {
                    System.arraycopy(bytes, from, bytes, byteWrite, length);
                }
                byteWrite += length;
                offsets[++write] = byteWrite;
                word &= word - 1;
            }
        }
        count = write;
    }

    public static int grow(int current, int needed)
    {
        long grown = Math.max((long) needed, current + (current >> 1) + 16L);
        return (int) Math.min(grown, Integer.MAX_VALUE - 16);
    }
}
