package io.tarn.storage.binary;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Paimon's per-file (or per-manifest) column statistics: min and max values as BinaryRows over the
 * stats columns (all nullable; a null min or max means unknown) and one null count per column
 * ({@code null} when unknown). Max values of truncated string stats are upper bounds.
 */
public record SimpleStats(BinaryRow minValues, BinaryRow maxValues, List<Long> nullCounts)
{
    /** Stats over zero columns, as written for the keys of append tables. */
    public static final SimpleStats EMPTY = new SimpleStats(BinaryRow.EMPTY, BinaryRow.EMPTY, List.of());

    public SimpleStats
    {
        requireNonNull(minValues, "minValues is null");
        requireNonNull(maxValues, "maxValues is null");
        // Elements may be null, which List.copyOf rejects.
        nullCounts = Collections.unmodifiableList(new ArrayList<>(requireNonNull(nullCounts, "nullCounts is null")));
    }
}
