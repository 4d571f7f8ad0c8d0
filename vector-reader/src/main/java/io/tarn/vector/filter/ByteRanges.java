package io.tarn.vector.filter;

import io.tarn.index.predicate.Predicate.InRanges;
import io.tarn.index.predicate.ValueRange;

import java.util.List;
import java.util.Optional;

/**
 * The ranges of an IN RANGES test of a string or binary column as byte literals, so that a value
 * is tested where it lies in the batch: one binary search over the ranges' low bounds, then one
 * comparison with the high bound, in unsigned byte order (code-point order for the well-formed
 * UTF-8 that Paimon writes). The ranges are ascending and disjoint ({@link InRanges}), so only the
 * last range starting at or below a value can hold it.
 */
final class ByteRanges
{
    // a dynamic filter's ranges on strings are few in practice (many values make an IN list);
    // beyond this, converting them for every batch would cost more than the row-by-row test
    static final int MAX_RANGES = 256;

    // null where a range has no bound on that side
    private final ByteLiteral[] lows;
    private final boolean[] lowInclusive;
    private final ByteLiteral[] highs;
    private final boolean[] highInclusive;

    private ByteRanges(ByteLiteral[] lows, boolean[] lowInclusive, ByteLiteral[] highs, boolean[] highInclusive)
    {
        this.lows = lows;
        this.lowInclusive = lowInclusive;
        this.highs = highs;
        this.highInclusive = highInclusive;
    }

    /**
     * The byte form of {@code inRanges}, unless it has more than {@link #MAX_RANGES} ranges or a
     * bound that is a string but not well-formed UTF-16 (which byte order would misplace).
     */
    static Optional<ByteRanges> of(InRanges inRanges)
    {
        List<ValueRange> ranges = inRanges.ranges();
        if (ranges.size() > MAX_RANGES) {
            return Optional.empty();
        }
        int count = ranges.size();
        ByteLiteral[] lows = new ByteLiteral[count];
        boolean[] lowInclusive = new boolean[count];
        ByteLiteral[] highs = new ByteLiteral[count];
        boolean[] highInclusive = new boolean[count];
        for (int i = 0; i < count; i++) {
            ValueRange range = ranges.get(i);
            if ((range.low() != null && bytes(range.low()) == null) || (range.high() != null && bytes(range.high()) == null)) {
                return Optional.empty();
            }
            lows[i] = range.low() == null ? null : new ByteLiteral(bytes(range.low()));
            lowInclusive[i] = range.lowInclusive();
            highs[i] = range.high() == null ? null : new ByteLiteral(bytes(range.high()));
            highInclusive[i] = range.highInclusive();
        }
        return Optional.of(new ByteRanges(lows, lowInclusive, highs, highInclusive));
    }

    private static byte[] bytes(Object bound)
    {
        return bound instanceof String string ? BatchFilter.utf8(string) : (byte[]) bound;
    }

    /**
     * Whether the {@code length} bytes at {@code address} lie in one of the ranges.
     */
    boolean contains(long address, int length)
    {
        // the last range whose low bound is at or below the value
        int low = 0;
        int high = lows.length - 1;
        int candidate = -1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            if (lows[middle] == null || lows[middle].compareAt(address, length) >= 0) {
                candidate = middle;
                low = middle + 1;
            }
            else {
                high = middle - 1;
            }
        }
        if (candidate < 0) {
            return false;
        }
        if (lows[candidate] != null && !lowInclusive[candidate] && lows[candidate].compareAt(address, length) == 0) {
            return false;
        }
        if (highs[candidate] == null) {
            return true;
        }
        int order = highs[candidate].compareAt(address, length);
        return order < 0 || (order == 0 && highInclusive[candidate]);
    }
}
