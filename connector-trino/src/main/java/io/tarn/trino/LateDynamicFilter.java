package io.tarn.trino;

import io.tarn.index.predicate.Predicate;
import io.tarn.trino.TarnPageSourceProvider.DynamicFilterParts;
import io.tarn.types.DataField;
import io.trino.spi.connector.DynamicFilter;
import io.trino.spi.predicate.TupleDomain;

import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * A join's dynamic filter that was not complete when a page source opened (split enumeration's
 * wait timed out, or was set to 0 s), handed to the reader as its late pruning filter: once Trino
 * completes it, the files and row groups still to be read are pruned by it (by statistics only;
 * Trino filters the rows itself). A probe-side scan usually blocks on the join's build side after
 * its first batch, so the filter is often complete before most of the split is read. Converted
 * once, with the rule of {@link DynamicFilterParts} (large domains reduced to their envelope),
 * and kept. Used by one page source, on one thread at a time.
 */
final class LateDynamicFilter
        implements Supplier<Optional<Predicate>>
{
    private final DynamicFilter dynamicFilter;
    private final List<DataField> fields;
    // null until the filter completes
    private Optional<Predicate> arrived;

    LateDynamicFilter(DynamicFilter dynamicFilter, List<DataField> fields)
    {
        this.dynamicFilter = requireNonNull(dynamicFilter, "dynamicFilter is null");
        this.fields = List.copyOf(requireNonNull(fields, "fields is null"));
    }

    @Override
    public Optional<Predicate> get()
    {
        if (arrived == null) {
            if (!dynamicFilter.isComplete()) {
                return Optional.empty();
            }
            DynamicFilterParts parts = DynamicFilterParts.of(dynamicFilter.getCurrentPredicate().transformKeys(TarnColumnHandle.class::cast));
            TupleDomain<TarnColumnHandle> pruning = parts.rowTested().intersect(parts.pruningOnly());
            arrived = TarnPredicates.toPredicate(pruning, fields);
        }
        return arrived;
    }

    /**
     * Whether the filter completed by the time of the last {@link #get()}: for the page source's metrics.
     */
    boolean arrived()
    {
        return arrived != null;
    }
}
