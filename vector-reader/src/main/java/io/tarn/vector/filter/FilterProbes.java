package io.tarn.vector.filter;

/**
 * Counts the work of residual filters: the comparisons of column values with literals or range
 * bounds, one per row for a comparison or starts_with, the steps of a binary search per row for
 * IN and IN RANGES (one for an IN of integers, dates or strings, looked up in a bitmap or by
 * hash). It shows that a filter's cost grows with
 * the rows and at most with the logarithm of its number of literals, which a dynamic filter of
 * 10^5 values makes matter. Mutable; one per reader, not shared between threads.
 */
public final class FilterProbes
{
    private long count;

    public void add(long probes)
    {
        count += probes;
    }

    public long count()
    {
        return count;
    }

    /**
     * The steps of a binary search over {@code size} sorted entries: ceil(log2(size + 1)).
     */
    static int binarySearchSteps(int size)
    {
        return Integer.SIZE - Integer.numberOfLeadingZeros(size);
    }
}
