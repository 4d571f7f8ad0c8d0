package io.tarn.index.predicate;

/**
 * One range of a {@link Predicate.InRanges}: the values {@code v} with {@code low < v} (or
 * {@code <=} when {@code lowInclusive}) and {@code v < high} (or {@code <=}); a null bound is
 * absent, and its inclusive flag is then ignored. Bounds are literals of the column's internal
 * class, checked when the predicate is built.
 */
public record ValueRange(Object low, boolean lowInclusive, Object high, boolean highInclusive)
{
    public ValueRange
    {
        // an absent bound has one canonical form, so equal ranges are equal records
        lowInclusive = low != null && lowInclusive;
        highInclusive = high != null && highInclusive;
    }

    public static ValueRange of(Object low, boolean lowInclusive, Object high, boolean highInclusive)
    {
        return new ValueRange(low, lowInclusive, high, highInclusive);
    }

    public static ValueRange point(Object value)
    {
        return new ValueRange(value, true, value, true);
    }

    public boolean isPoint()
    {
        return low != null && lowInclusive && highInclusive && Literals.literalEquals(low, high);
    }

    @Override
    public boolean equals(Object other)
    {
        return other instanceof ValueRange that
                && lowInclusive == that.lowInclusive
                && highInclusive == that.highInclusive
                && Literals.literalEquals(low, that.low)
                && Literals.literalEquals(high, that.high);
    }

    @Override
    public int hashCode()
    {
        return ((Literals.literalHash(low) * 31 + Literals.literalHash(high)) * 31 + Boolean.hashCode(lowInclusive)) * 31 + Boolean.hashCode(highInclusive);
    }
}
