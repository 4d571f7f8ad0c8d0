package io.tarn.vector.reader.decoders;

import java.util.Arrays;

/**
 * The verdicts of a {@link ValueMatcher} on a batch's non-null values, one bit each in value
 * order; grows and is reused from batch to batch.
 * <p>
 * Internal to the vector-reader module: public only for the reader package.
 */
public final class MatchBits
{
    public long[] words = new long[1];
    public int count;

    public void reset()
    {
        Arrays.fill(words, 0, SelectionMasks.words(count), 0L);
        count = 0;
    }

    void add(boolean match)
    {
        reserve(1);
        if (match) {
            words[count >>> 6] |= 1L << count;
        }
        count++;
    }

    /**
     * Makes room for {@code extra} more verdicts and returns the words, for a caller that sets
     * bits {@code [count, count + extra)} itself and then advances {@link #count}.
     */
    long[] reserve(int extra)
    {
        int needed = SelectionMasks.words(count + extra);
        if (needed > words.length) {
            words = Arrays.copyOf(words, Math.max(needed, words.length * 2));
        }
        return words;
    }

    public boolean get(int index)
    {
        return (words[index >>> 6] & (1L << index)) != 0;
    }
}
