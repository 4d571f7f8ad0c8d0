package io.tarn.storage.read;

import io.tarn.index.predicate.Predicate;
import io.tarn.types.DataField;

import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * What to read from each split: the output columns (fields of the plan's read schema, in output
 * order), an optional filter that returned rows must satisfy, the batch size, whether file
 * indexes may skip files and rows for the filter (when the table's options allow it too), and
 * whether the caller tests the filter again on every row it gets ({@link #withFilterRecheckedByCaller()}),
 * and whether it takes dictionary ids of string columns ({@link #withDictionaryIds()}).
 */
public record ReadRequest(List<DataField> columns, Optional<Predicate> filter, int batchSize, boolean useFileIndexes, boolean filterRecheckedByCaller,
                          boolean dictionaryIds)
{
    public static final int DEFAULT_BATCH_SIZE = 4096;

    public ReadRequest
    {
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
        requireNonNull(filter, "filter is null");
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be positive: " + batchSize);
        }
    }

    public static ReadRequest of(List<DataField> columns)
    {
        return new ReadRequest(columns, Optional.empty(), DEFAULT_BATCH_SIZE, true, false, false);
    }

    public ReadRequest withFilter(Predicate predicate)
    {
        return new ReadRequest(columns, Optional.of(predicate), batchSize, useFileIndexes, filterRecheckedByCaller, dictionaryIds);
    }

    public ReadRequest withBatchSize(int size)
    {
        return new ReadRequest(columns, filter, size, useFileIndexes, filterRecheckedByCaller, dictionaryIds);
    }

    public ReadRequest withoutFileIndexes()
    {
        return new ReadRequest(columns, filter, batchSize, false, filterRecheckedByCaller, dictionaryIds);
    }

    /**
     * The caller (a query engine) tests the filter again on every row: the filter still skips
     * files, row groups, pages and rows, but where a file's statistics suggest that it keeps
     * most rows, its rows are returned untested rather than tested twice.
     */
    public ReadRequest withFilterRecheckedByCaller()
    {
        return new ReadRequest(columns, filter, batchSize, useFileIndexes, true, dictionaryIds);
    }

    /**
     * The caller can use the dictionary ids of string and binary columns where a batch's values
     * all come from one dictionary ({@code SplitReader.dictionaryIds}).
     */
    public ReadRequest withDictionaryIds()
    {
        return new ReadRequest(columns, filter, batchSize, useFileIndexes, filterRecheckedByCaller, true);
    }
}
