package io.tarn.storage.read;

import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.Predicates;
import io.tarn.types.DataField;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * What to read from each split: the output columns (fields of the plan's read schema, in output
 * order), an optional filter that returned rows must satisfy, the batch size, whether file
 * indexes may skip files and rows for the filter (when the table's options allow it too), and
 * whether the caller tests the filter again on every row it gets ({@link #withFilterRecheckedByCaller()}),
 * the string columns whose values it takes as dictionary ids ({@link #withDictionaryIds}), a
 * filter that only skips ({@link #withPruningFilter}), and filters that may arrive while the split
 * is read: one that only skips ({@link #withLatePruningFilter}) and one that the rows returned
 * after it arrived satisfy ({@link #withLateRowFilter}).
 */
public record ReadRequest(List<DataField> columns, Optional<Predicate> filter, int batchSize, boolean useFileIndexes, boolean filterRecheckedByCaller,
                          Set<Integer> dictionaryIdFields, Optional<Predicate> pruningFilter, Supplier<Optional<Predicate>> latePruningFilter,
                          Supplier<Optional<Predicate>> lateRowFilter)
{
    public static final int DEFAULT_BATCH_SIZE = 4096;
    // a late filter that never arrives: compared by identity to learn that none was asked for
    private static final Supplier<Optional<Predicate>> NO_LATE_FILTER = Optional::empty;

    public ReadRequest
    {
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
        requireNonNull(filter, "filter is null");
        dictionaryIdFields = Set.copyOf(requireNonNull(dictionaryIdFields, "dictionaryIdFields is null"));
        requireNonNull(pruningFilter, "pruningFilter is null");
        requireNonNull(latePruningFilter, "latePruningFilter is null");
        requireNonNull(lateRowFilter, "lateRowFilter is null");
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be positive: " + batchSize);
        }
    }

    public static ReadRequest of(List<DataField> columns)
    {
        return new ReadRequest(columns, Optional.empty(), DEFAULT_BATCH_SIZE, true, false, Set.of(), Optional.empty(), NO_LATE_FILTER, NO_LATE_FILTER);
    }

    public ReadRequest withFilter(Predicate predicate)
    {
        return new ReadRequest(columns, Optional.of(predicate), batchSize, useFileIndexes, filterRecheckedByCaller, dictionaryIdFields, pruningFilter, latePruningFilter, lateRowFilter);
    }

    public ReadRequest withBatchSize(int size)
    {
        return new ReadRequest(columns, filter, size, useFileIndexes, filterRecheckedByCaller, dictionaryIdFields, pruningFilter, latePruningFilter, lateRowFilter);
    }

    public ReadRequest withoutFileIndexes()
    {
        return new ReadRequest(columns, filter, batchSize, false, filterRecheckedByCaller, dictionaryIdFields, pruningFilter, latePruningFilter, lateRowFilter);
    }

    /**
     * The caller (a query engine) tests the filter again on every row: the filter still skips
     * files, row groups, pages and rows, but where a file's statistics suggest that it keeps
     * most rows, its rows are returned untested rather than tested twice.
     */
    public ReadRequest withFilterRecheckedByCaller()
    {
        return new ReadRequest(columns, filter, batchSize, useFileIndexes, true, dictionaryIdFields, pruningFilter, latePruningFilter, lateRowFilter);
    }

    /**
     * The caller takes the values of the string and binary columns {@code fieldIds} (by field
     * id) from their dictionary ids wherever a batch's values all come from one dictionary
     * ({@code SplitReader.dictionaryIds}); the batch's vector of such a column may then hold
     * nulls in their place. A caller that hands the ids on (Trino's dictionary blocks) is spared
     * the decoding of every value.
     */
    public ReadRequest withDictionaryIds(Set<Integer> fieldIds)
    {
        return new ReadRequest(columns, filter, batchSize, useFileIndexes, filterRecheckedByCaller, fieldIds, pruningFilter, latePruningFilter, lateRowFilter);
    }

    /**
     * A filter that returned rows need not satisfy, used only to skip what it rules out by
     * statistics, indexes and dictionaries (files, row groups, pages), never tested row by row:
     * what a caller hands over when testing it per row would cost more than it saves (a large
     * join's dynamic filter, reduced to its lowest and highest value, which the caller applies
     * itself). Rows it rules out may still be returned; every row skipped fails it.
     */
    public ReadRequest withPruningFilter(Predicate predicate)
    {
        return new ReadRequest(columns, filter, batchSize, useFileIndexes, filterRecheckedByCaller, dictionaryIdFields, Optional.of(predicate), latePruningFilter, lateRowFilter);
    }

    /**
     * A pruning filter (see {@link #withPruningFilter}) that may arrive while the split is read:
     * a join's dynamic filter that was not complete when the read began. It is asked before each
     * file and each Parquet row group until it answers, and its answer must stay. What was read
     * before it arrived is not filtered by it, so the caller must not rely on it for rows.
     */
    public ReadRequest withLatePruningFilter(Supplier<Optional<Predicate>> latePruning)
    {
        return new ReadRequest(columns, filter, batchSize, useFileIndexes, filterRecheckedByCaller, dictionaryIdFields, pruningFilter, latePruning, lateRowFilter);
    }

    /**
     * A filter that may arrive while the split is read, and that every row returned after it
     * arrived satisfies: a join's dynamic filter small enough to test per row, which was not
     * complete when the read began. It is asked before each batch until it answers, and its
     * answer must stay. A reader of files read as they are then reads the rows it has not
     * returned yet with it added to the filter (tested first, on its own columns: late
     * materialization). Rows returned before it arrived, and every row of a split merged by key,
     * may fail it, so the caller must test it itself.
     */
    public ReadRequest withLateRowFilter(Supplier<Optional<Predicate>> lateRows)
    {
        return new ReadRequest(columns, filter, batchSize, useFileIndexes, filterRecheckedByCaller, dictionaryIdFields, pruningFilter, latePruningFilter, lateRows);
    }

    /**
     * Whether a late row filter was asked for ({@link #withLateRowFilter}).
     */
    public boolean hasLateRowFilter()
    {
        return lateRowFilter != NO_LATE_FILTER;
    }

    /**
     * This request with {@code rowFilter} added to its filter and no late row filter: how the
     * rest of a split is read once its late row filter has arrived.
     */
    ReadRequest withArrivedRowFilter(Predicate rowFilter)
    {
        Predicate combined = filter.map(own -> Predicates.and(List.of(own, rowFilter))).orElse(rowFilter);
        return new ReadRequest(columns, Optional.of(combined), batchSize, useFileIndexes, filterRecheckedByCaller, dictionaryIdFields, pruningFilter, latePruningFilter, NO_LATE_FILTER);
    }

    /**
     * The filter and the pruning filter together: what may skip files, row groups and pages.
     */
    public Optional<Predicate> skippingFilter()
    {
        if (pruningFilter.isEmpty()) {
            return filter;
        }
        if (filter.isEmpty()) {
            return pruningFilter;
        }
        return Optional.of(Predicates.and(List.of(filter.get(), pruningFilter.get())));
    }
}
