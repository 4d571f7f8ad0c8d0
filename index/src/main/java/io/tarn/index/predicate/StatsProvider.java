package io.tarn.index.predicate;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * The statistics {@link StatsEvaluator} prunes with, for one unit of data (file, bucket, ...).
 */
public interface StatsProvider
{
    /**
     * The statistics of {@code field} in this unit, or empty when unknown.
     * <p>
     * Contract: return empty unless the stored statistics were collected for a column of exactly
     * {@code field.type()} (same field id and type root; after a type change such as INT to
     * BIGINT, the old file's stats must not be offered). min / max must be in the internal
     * representation of that type. As a second line of defense the evaluator ignores a min or max
     * of the wrong Java class, but it cannot detect e.g. DATE stats offered for an INT column.
     */
    Optional<ColumnStats> columnStats(FieldRef field);

    /**
     * The number of rows of the unit when known. When it is known to be 0, nothing can match.
     */
    default OptionalLong rowCount()
    {
        return OptionalLong.empty();
    }
}
