package io.tarn.index.predicate;

import java.util.Arrays;

/**
 * Constant-time membership of a long in a fixed set: a bitmap over {@code [min, max]} when the
 * set is dense enough for one to stay small, an open-addressing hash table otherwise, both behind
 * a bounds check that rejects most values of a selective set at once.
 * <p>
 * A binary search over a dynamic filter's few hundred join keys was the hottest frame of a
 * TPC-H Q17 scan: its eight or so unpredictable branches per row cost more than the rows they
 * removed. Trino's own readers pick a bitmask or a hash table for the same reason.
 */
final class LongMembership
{
    // a bitmap may spend up to this many 64-bit words per value of the set ...
    private static final long BITMAP_WORDS_PER_VALUE = 32;
    // ... and never more than 1 MiB, which 100,000 keys spread over 8 M values still fit
    private static final long MAX_BITMAP_WORDS = 1L << 17;
    // Long.MIN_VALUE marks an empty slot of the hash table and is never stored in it: when it is
    // a member, it is the minimum, so the bounds check tells
    private static final long EMPTY = Long.MIN_VALUE;

    private final long min;
    private final long max;
    private final long[] bitmap;
    private final long[] slots;
    private final int mask;

    /**
     * @param sortedDistinct ascending, without duplicates
     */
    LongMembership(long[] sortedDistinct)
    {
        int count = sortedDistinct.length;
        this.min = count == 0 ? 1 : sortedDistinct[0];
        this.max = count == 0 ? 0 : sortedDistinct[count - 1];
        long[] bits = null;
        long[] table = null;
        int tableMask = 0;
        if (count > 0) {
            // the span in words, computed so that no difference of two longs overflows
            long wordsNeeded = Long.compareUnsigned(max - min, MAX_BITMAP_WORDS * 64) < 0 ? ((max - min) >>> 6) + 1 : Long.MAX_VALUE;
            if (wordsNeeded <= Math.min(MAX_BITMAP_WORDS, count * BITMAP_WORDS_PER_VALUE)) {
                bits = new long[(int) wordsNeeded];
                for (long value : sortedDistinct) {
                    long offset = value - min;
                    bits[(int) (offset >>> 6)] |= 1L << offset;
                }
            }
            else {
                // load factor at most one half keeps probe runs short
                int capacity = Integer.highestOneBit(Math.max(count, 2) * 2 - 1) << 1;
                table = new long[capacity];
                Arrays.fill(table, EMPTY);
                tableMask = capacity - 1;
                for (long value : sortedDistinct) {
                    if (value == EMPTY) {
                        continue;
                    }
                    int slot = slot(value, tableMask);
                    while (table[slot] != EMPTY) {
                        slot = (slot + 1) & tableMask;
                    }
                    table[slot] = value;
                }
            }
        }
        this.bitmap = bits;
        this.slots = table;
        this.mask = tableMask;
    }

    boolean contains(long value)
    {
        if (value < min || value > max) {
            return false;
        }
        if (bitmap != null) {
            long offset = value - min;
            return (bitmap[(int) (offset >>> 6)] & (1L << offset)) != 0;
        }
        if (value == EMPTY) {
            // within the bounds only when the set's minimum is Long.MIN_VALUE
            return true;
        }
        int slot = slot(value, mask);
        while (true) {
            long held = slots[slot];
            if (held == value) {
                return true;
            }
            if (held == EMPTY) {
                return false;
            }
            slot = (slot + 1) & mask;
        }
    }

    /**
     * Whether the set is held as a bitmap (for tests of the choice).
     */
    boolean usesBitmap()
    {
        return bitmap != null;
    }

    private static int slot(long value, int mask)
    {
        // Fibonacci hashing: the multiply spreads keys that differ only in low or only in high bits
        long mixed = value * 0x9E3779B97F4A7C15L;
        return (int) (mixed ^ (mixed >>> 32)) & mask;
    }
}
