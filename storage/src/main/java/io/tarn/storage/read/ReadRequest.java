package io.tarn.storage.read;

import io.tarn.index.predicate.Predicate;
import io.tarn.types.DataField;

import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * What to read from each split: the output columns (fields of the plan's read schema, in output
 * order), an optional filter that returned rows must satisfy, the batch size, and whether file
 * indexes may skip files and rows for the filter (when the table's options allow it too).
 */
public record ReadRequest(List<DataField> columns, Optional<Predicate> filter, int batchSize, boolean useFileIndexes)
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
        return new ReadRequest(columns, Optional.empty(), DEFAULT_BATCH_SIZE, true);
    }

    public ReadRequest withFilter(Predicate predicate)
    {
        return new ReadRequest(columns, Optional.of(predicate), batchSize, useFileIndexes);
    }

    public ReadRequest withBatchSize(int size)
    {
        return new ReadRequest(columns, filter, size, useFileIndexes);
    }

    public ReadRequest withoutFileIndexes()
    {
        return new ReadRequest(columns, filter, batchSize, false);
    }
}
