package io.tarn.vector.filter;

import static java.util.Objects.requireNonNull;

/**
 * For the rows of one batch, which values of a {@link ByteEqualityLeaf}'s column are not null
 * ({@code valid}) and which equal one of its literals ({@code equal}): bit {@code i % 64} of word
 * {@code i / 64} for row {@code i}; bits past the last row are clear, and no row is equal without
 * being valid. The arrays belong to the reader that fills them and change with its next batch.
 * Callers hold them only as the values of {@code ParquetReader.filterMatches()}, passed on to
 * {@link BatchFilter}.
 */
public record LeafMatches(int rows, long[] equal, long[] valid)
{
    public LeafMatches
    {
        requireNonNull(equal, "equal is null");
        requireNonNull(valid, "valid is null");
        int words = (rows + 63) >>> 6;
        if (rows < 0 || equal.length < words || valid.length < words) {
            throw new IllegalArgumentException("Match bits of " + equal.length + " and " + valid.length + " words for " + rows + " rows");
        }
    }
}
