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
 * {@code exactValue}: {@code min} and {@code max} are the one value of every non-null row
 * ({@link #ofValue}).
 */
public record ColumnStats(Object min, Object max, Long nullCount, long rowCount, boolean exactValue)
{
    public ColumnStats
    {
        if (exactValue && (min == null ? max != null : !min.equals(max))) {
            throw new IllegalArgumentException("An exact value has min " + min + " and max " + max);
        }
        if (rowCount < 0) {
            throw new IllegalArgumentException("Row count is negative: " + rowCount);
        }
        if (nullCount != null && (nullCount < 0 || nullCount > rowCount)) {
            throw new IllegalArgumentException("Null count " + nullCount + " is outside 0.." + rowCount);
        }
    }

    /**
     * Bounds as a writer's statistics give them, which need not be exact (see above).
     */
    public ColumnStats(Object min, Object max, Long nullCount, long rowCount)
    {
        this(min, max, nullCount, rowCount, false);
    }

    /**
     * A column that holds one value, or null, in all {@code rowCount} rows, known exactly
     * whatever its type: a partition's value. Unlike a writer's string bounds, it is not a
     * truncated prefix, so {@link StatsEvaluator#allMatch} may prove a string comparison by it.
     */
    public static ColumnStats ofValue(Object value, long rowCount)
    {
        return new ColumnStats(value, value, value == null ? rowCount : 0L, rowCount, true);
    }

    /**
     * Statistics that only know the row count.
     */
    public static ColumnStats unknown(long rowCount)
    {
        return new ColumnStats(null, null, null, rowCount);
    }
}
