package io.tarn.storage.read;

import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.Predicates;
import io.tarn.types.DataField;

import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * What to read from each split: the output columns (fields of the plan's read schema, in output
 * order), an optional filter that returned rows must satisfy, the batch size, whether file
 * indexes may skip files and rows for the filter (when the table's options allow it too), and
 * whether the caller tests the filter again on every row it gets ({@link #withFilterRecheckedByCaller()}),
 * whether it takes dictionary ids of string columns ({@link #withDictionaryIds()}), a
 * filter that only skips ({@link #withPruningFilter}), and one that may arrive while the split
 * is read ({@link #withLatePruningFilter}).
 */
public record ReadRequest(List<DataField> columns, Optional<Predicate> filter, int batchSize, boolean useFileIndexes, boolean filterRecheckedByCaller,
                          boolean dictionaryIds, Optional<Predicate> pruningFilter, Supplier<Optional<Predicate>> latePruningFilter)
{
    public static final int DEFAULT_BATCH_SIZE = 4096;
    private static final Supplier<Optional<Predicate>> NO_LATE_PRUNING = Optional::empty;

    public ReadRequest
    {
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
        requireNonNull(filter, "filter is null");
        requireNonNull(pruningFilter, "pruningFilter is null");
        requireNonNull(latePruningFilter, "latePruningFilter is null");
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be positive: " + batchSize);
        }
    }

    public static ReadRequest of(List<DataField> columns)
    {
        return new ReadRequest(columns, Optional.empty(), DEFAULT_BATCH_SIZE, true, false, false, Optional.empty(), NO_LATE_PRUNING);
    }

    public ReadRequest withFilter(Predicate predicate)
    {
        return new ReadRequest(columns, Optional.of(predicate), batchSize, useFileIndexes, filterRecheckedByCaller, dictionaryIds, pruningFilter, latePruningFilter);
    }

    public ReadRequest withBatchSize(int size)
    {
        return new ReadRequest(columns, filter, size, useFileIndexes, filterRecheckedByCaller, dictionaryIds, pruningFilter, latePruningFilter);
    }

    public ReadRequest withoutFileIndexes()
    {
        return new ReadRequest(columns, filter, batchSize, false, filterRecheckedByCaller, dictionaryIds, pruningFilter, latePruningFilter);
    }

    /**
     * The caller (a query engine) tests the filter again on every row: the filter still skips
     * files, row groups, pages and rows, but where a file's statistics suggest that it keeps
     * most rows, its rows are returned untested rather than tested twice.
     */
    public ReadRequest withFilterRecheckedByCaller()
    {
        return new ReadRequest(columns, filter, batchSize, useFileIndexes, true, dictionaryIds, pruningFilter, latePruningFilter);
    }

    /**
     * The caller can use the dictionary ids of string and binary columns where a batch's values
     * all come from one dictionary ({@code SplitReader.dictionaryIds}).
     */
    public ReadRequest withDictionaryIds()
    {
        return new ReadRequest(columns, filter, batchSize, useFileIndexes, filterRecheckedByCaller, true, pruningFilter, latePruningFilter);
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
        return new ReadRequest(columns, filter, batchSize, useFileIndexes, filterRecheckedByCaller, dictionaryIds, Optional.of(predicate), latePruningFilter);
    }

    /**
     * A pruning filter (see {@link #withPruningFilter}) that may arrive while the split is read:
     * a join's dynamic filter that was not complete when the read began. It is asked before each
     * file and each Parquet row group until it answers, and its answer must stay. What was read
     * before it arrived is not filtered by it, so the caller must not rely on it for rows.
     */
    public ReadRequest withLatePruningFilter(Supplier<Optional<Predicate>> latePruning)
    {
        return new ReadRequest(columns, filter, batchSize, useFileIndexes, filterRecheckedByCaller, dictionaryIds, pruningFilter, latePruning);
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
