package io.tarn.vector.filter;

/**
 * The rows where a predicate is TRUE and the rows where it is FALSE, as bitmaps; unknown rows
 * are in neither. Bits at or above the row count are always clear.
 */
final class Truth
{
    private final int rows;
    private final long[] isTrue;
    private final long[] isFalse;

    Truth(int rows)
    {
        this(rows, new long[(rows + 63) >>> 6], new long[(rows + 63) >>> 6]);
    }

    private Truth(int rows, long[] isTrue, long[] isFalse)
    {
        this.rows = rows;
        this.isTrue = isTrue;
        this.isFalse = isFalse;
    }

    static Truth constant(int rows, boolean value)
    {
        Truth truth = new Truth(rows);
        long[] words = value ? truth.isTrue : truth.isFalse;
        for (int word = 0; word < words.length; word++) {
            words[word] = lowBits(Math.min(Long.SIZE, rows - (word << 6)));
        }
        return truth;
    }

    static int words(int rows)
    {
        return (rows + 63) >>> 6;
    }

    /**
     * A word with its lowest {@code count} bits set, {@code count} in [0, 64].
     */
    static long lowBits(int count)
    {
        return count == Long.SIZE ? -1L : (1L << count) - 1;
    }

    void set(int row, boolean value)
    {
        long[] words = value ? isTrue : isFalse;
        words[row >>> 6] |= 1L << row;
    }

    /**
     * Sets the TRUE and FALSE rows of one word of 64 rows; bits past the last row must be clear.
     */
    void assign(int word, long trueBits, long falseBits)
    {
        isTrue[word] = trueBits;
        isFalse[word] = falseBits;
    }

    /**
     * The rows of one word of 64 that a leaf's test finds TRUE: bit {@code i} for row
     * {@code first + i}, {@code count} rows in all; bits of null rows and past {@code count} are ignored.
     */
    interface WordTest
    {
        long trueBits(int first, int count);
    }

    /**
     * Sets the verdicts of every row a word of 64 rows at a time: each non-null row (a set bit
     * of {@code valid}, or every row when it is null) is TRUE where {@code test} says and FALSE
     * elsewhere; null rows stay unknown.
     */
    void assignByWord(long[] valid, WordTest test)
    {
        for (int word = 0; word < isTrue.length; word++) {
            int first = word << 6;
            int count = Math.min(Long.SIZE, rows - first);
            long validBits = valid == null ? lowBits(count) : valid[word];
            long trueBits = test.trueBits(first, count);
            assign(word, trueBits & validBits, ~trueBits & validBits);
        }
    }

    Truth and(Truth other)
    {
        for (int i = 0; i < isTrue.length; i++) {
            isTrue[i] &= other.isTrue[i];
            isFalse[i] |= other.isFalse[i];
        }
        return this;
    }

    Truth or(Truth other)
    {
        for (int i = 0; i < isTrue.length; i++) {
            isTrue[i] |= other.isTrue[i];
            isFalse[i] &= other.isFalse[i];
        }
        return this;
    }

    Truth not()
    {
        return new Truth(rows, isFalse, isTrue);
    }

    int[] trueRows()
    {
        int count = 0;
        for (long word : isTrue) {
            count += Long.bitCount(word);
        }
        int[] result = new int[count];
        int next = 0;
        for (int i = 0; i < isTrue.length; i++) {
            long word = isTrue[i];
            while (word != 0) {
                result[next++] = (i << 6) + Long.numberOfTrailingZeros(word);
                word &= word - 1;
            }
        }
        return result;
    }
}
