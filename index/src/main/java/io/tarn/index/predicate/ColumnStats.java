package io.tarn.index.predicate;

/**
 * Statistics of one column over a set of rows (a file, a bucket, a partition, a row group).
 * <p>
 * {@code min} and {@code max} are bounds over the non-null values in the order of
 * {@link io.tarn.types.ValueComparator}: every value v satisfies {@code min <= v <= max}. For
 * FLOAT / DOUBLE they need only bound the values other than NaN (Parquet writers leave NaN out,
 * Paimon's make it the max), and a zero bound may have either sign. They need not be values that occur, so a truncated
 * string prefix is a valid {@code min} and a truncated string with its last character incremented
 * a valid {@code max}. Either may be null when unknown (also when all values are null).
 * {@code nullCount} may be null when unknown. {@code rowCount} counts all rows, null or not.
 */
public record ColumnStats(Object min, Object max, Long nullCount, long rowCount)
{
    public ColumnStats
    {
        if (rowCount < 0) {
            throw new IllegalArgumentException("Row count is negative: " + rowCount);
        }
        if (nullCount != null && (nullCount < 0 || nullCount > rowCount)) {
            throw new IllegalArgumentException("Null count " + nullCount + " is outside 0.." + rowCount);
        }
    }

    /**
     * Statistics that only know the row count.
     */
    public static ColumnStats unknown(long rowCount)
    {
        return new ColumnStats(null, null, null, rowCount);
    }
}
