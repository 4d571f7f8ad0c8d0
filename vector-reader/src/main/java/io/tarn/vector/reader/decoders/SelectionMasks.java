package io.tarn.vector.reader.decoders;

/**
 * Row selections as bit masks: bit {@code i} of a mask (bit {@code i & 63} of word
 * {@code i >>> 6}) set when row or value {@code i} is selected. A dense selection (a deletion
 * vector's few removed rows, say) costs one word per 64 rows to hand around, and a decoder finds
 * the selected values with a bit scan, without branching on each one.
 * <p>
 * Internal to the vector-reader module: public only for the reader package.
 */
public final class SelectionMasks
{
    private SelectionMasks() {}

    public static int words(int bits)
    {
        return (bits + 63) >>> 6;
    }

    /**
     * Copies bits {@code [from, from + count)} of {@code source} to bits {@code [0, count)} of
     * {@code target}, clearing the bits after them in the last word written, and returns how
     * many are set.
     */
    public static int extract(long[] source, int from, int count, long[] target)
    {
        int words = words(count);
        int shift = from & 63;
        int first = from >>> 6;
        int set = 0;
        for (int w = 0; w < words; w++) {
            long word = source[first + w] >>> shift;
            if (shift != 0 && first + w + 1 < source.length) {
                word |= source[first + w + 1] << (64 - shift);
            }
            if (w == words - 1 && (count & 63) != 0) {
                word &= (1L << count) - 1;
            }
            target[w] = word;
            set += Long.bitCount(word);
        }
        return set;
    }

    /**
     * The first set bit of {@code mask} at or after {@code from}, or {@code limit} when there is
     * none below it.
     */
    public static int nextSet(long[] mask, int from, int limit)
    {
        int bit = from;
        while (bit < limit) {
            long word = mask[bit >>> 6] >>> (bit & 63);
            if (word != 0) {
                return Math.min(limit, bit + Long.numberOfTrailingZeros(word));
            }
            bit = (bit | 63) + 1;
        }
        return limit;
    }

    /**
     * Moves the selected values of {@code values[start, start + count)} down to
     * {@code values[start, start + kept)} and returns {@code kept}. Every value is copied and
     * the write position advances by its bit: no branch on the bits, which a scattered
     * selection would mispredict.
     */
    static int compact(int[] values, int start, int count, long[] selected)
    {
        int write = start;
        for (int first = 0; first < count; first += 64) {
            long word = selected[first >>> 6];
            int n = Math.min(64, count - first);
            int base = start + first;
            for (int i = 0; i < n; i++) {
                values[write] = values[base + i];
                write += (int) (word >>> i) & 1;
            }
        }
        return write - start;
    }

    /**
     * {@link #compact(int[], int, int, long[])} for longs.
     */
    static int compact(long[] values, int start, int count, long[] selected)
    {
        int write = start;
        for (int first = 0; first < count; first += 64) {
            long word = selected[first >>> 6];
            int n = Math.min(64, count - first);
            int base = start + first;
            for (int i = 0; i < n; i++) {
                values[write] = values[base + i];
                write += (int) (word >>> i) & 1;
            }
        }
        return write - start;
    }
}
