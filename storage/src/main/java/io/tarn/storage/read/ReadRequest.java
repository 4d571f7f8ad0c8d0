package io.tarn.storage.read;

import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.Predicates;
import io.tarn.types.DataField;

import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * What to read from each split: the output columns (fields of the plan's read schema, in output
 * order), an optional filter that returned rows must satisfy, the batch size, whether file
 * indexes may skip files and rows for the filter (when the table's options allow it too), and
 * whether the caller tests the filter again on every row it gets ({@link #withFilterRecheckedByCaller()}),
 * whether it takes dictionary ids of string columns ({@link #withDictionaryIds()}), and a
 * filter that only skips ({@link #withPruningFilter}).
 */
public record ReadRequest(List<DataField> columns, Optional<Predicate> filter, int batchSize, boolean useFileIndexes, boolean filterRecheckedByCaller,
                          boolean dictionaryIds, Optional<Predicate> pruningFilter)
{
    public static final int DEFAULT_BATCH_SIZE = 4096;

    public ReadRequest
    {
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
        requireNonNull(filter, "filter is null");
        requireNonNull(pruningFilter, "pruningFilter is null");
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be positive: " + batchSize);
        }
    }

    public static ReadRequest of(List<DataField> columns)
    {
        return new ReadRequest(columns, Optional.empty(), DEFAULT_BATCH_SIZE, true, false, false, Optional.empty());
    }

    public ReadRequest withFilter(Predicate predicate)
    {
        return new ReadRequest(columns, Optional.of(predicate), batchSize, useFileIndexes, filterRecheckedByCaller, dictionaryIds, pruningFilter);
    }

    public ReadRequest withBatchSize(int size)
    {
        return new ReadRequest(columns, filter, size, useFileIndexes, filterRecheckedByCaller, dictionaryIds, pruningFilter);
    }

    public ReadRequest withoutFileIndexes()
    {
        return new ReadRequest(columns, filter, batchSize, false, filterRecheckedByCaller, dictionaryIds, pruningFilter);
    }

    /**
     * The caller (a query engine) tests the filter again on every row: the filter still skips
     * files, row groups, pages and rows, but where a file's statistics suggest that it keeps
     * most rows, its rows are returned untested rather than tested twice.
     */
    public ReadRequest withFilterRecheckedByCaller()
    {
        return new ReadRequest(columns, filter, batchSize, useFileIndexes, true, dictionaryIds, pruningFilter);
    }

    /**
     * The caller can use the dictionary ids of string and binary columns where a batch's values
     * all come from one dictionary ({@code SplitReader.dictionaryIds}).
     */
    public ReadRequest withDictionaryIds()
    {
        return new ReadRequest(columns, filter, batchSize, useFileIndexes, filterRecheckedByCaller, true, pruningFilter);
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
        return new ReadRequest(columns, filter, batchSize, useFileIndexes, filterRecheckedByCaller, dictionaryIds, Optional.of(predicate));
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
