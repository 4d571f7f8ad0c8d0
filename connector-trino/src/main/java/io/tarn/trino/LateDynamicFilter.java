package io.tarn.trino;

import io.tarn.index.predicate.Predicate;
import io.tarn.trino.TarnPageSourceProvider.DynamicFilterParts;
import io.tarn.types.DataField;
import io.trino.spi.connector.DynamicFilter;
import io.trino.spi.predicate.TupleDomain;

import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A join's dynamic filter that was not complete when a page source opened (split enumeration's
 * wait timed out, or was set to 0 s), handed to the reader in two parts once Trino completes it:
 * the whole filter as a late pruning filter, which prunes the files and row groups still to be
 * read by statistics, and the columns whose domain is small enough to test per row (the rule of
 * {@link DynamicFilterParts}) as a late row filter, with which the reader reads the rest of the
 * split (late materialization). A scan feeding a partial aggregation below the join reads on
 * while the build side is built, so the filter often arrives mid-split. Trino still filters
 * every row itself. Converted once and kept. Used by one page source, on one thread at a time.
 */
final class LateDynamicFilter
{
    private final DynamicFilter dynamicFilter;
    private final List<DataField> fields;
    // null until the filter completes
    private Arrived arrived;

    LateDynamicFilter(DynamicFilter dynamicFilter, List<DataField> fields)
    {
        this.dynamicFilter = requireNonNull(dynamicFilter, "dynamicFilter is null");
        this.fields = List.copyOf(requireNonNull(fields, "fields is null"));
    }

    /**
     * The whole filter, to prune by statistics: empty until it completes.
     */
    Optional<Predicate> pruningFilter()
    {
        return completed().flatMap(Arrived::pruning);
    }

    /**
     * The part of the filter that is tested per row: empty until it completes, and when no
     * column's domain is small enough.
     */
    Optional<Predicate> rowFilter()
    {
        return completed().flatMap(Arrived::rowTested);
    }

    /**
     * Whether the filter completed by the time it was last asked for: for the page source's metrics.
     */
    boolean arrived()
    {
        return arrived != null;
    }

    private Optional<Arrived> completed()
    {
        if (arrived == null) {
            if (!dynamicFilter.isComplete()) {
                return Optional.empty();
            }
            DynamicFilterParts parts = DynamicFilterParts.of(dynamicFilter.getCurrentPredicate().transformKeys(TarnColumnHandle.class::cast));
            arrived = new Arrived(
                    TarnPredicates.toPredicate(parts.rowTested().intersect(parts.pruningOnly()), fields),
                    TarnPredicates.toPredicate(parts.rowTested(), fields));
        }
        return Optional.of(arrived);
    }

    private record Arrived(Optional<Predicate> pruning, Optional<Predicate> rowTested) {}
}
