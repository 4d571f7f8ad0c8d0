package io.tarn.vector;

import io.tarn.index.predicate.Predicate;
import io.tarn.types.DataField;
import org.roaringbitmap.RoaringBitmap;

import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * What a {@link ParquetReader} returns: {@code columns} in output order, matched to file columns
 * by field id; batches of at most {@code batchSize} rows; only the row positions in
 * {@code rowSelection} when present; {@code filter} only prunes row groups and pages by
 * statistics and never removes single rows.
 */
public record ParquetReadOptions(List<DataField> columns, int batchSize, Optional<RoaringBitmap> rowSelection, Optional<Predicate> filter)
{
    public static final int DEFAULT_BATCH_SIZE = 4096;

    public ParquetReadOptions
    {
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
        requireNonNull(rowSelection, "rowSelection is null");
        requireNonNull(filter, "filter is null");
        if (batchSize <= 0) {
            throw new IllegalArgumentException("Batch size must be positive: " + batchSize);
        }
    }

    public static ParquetReadOptions of(List<DataField> columns)
    {
        return new ParquetReadOptions(columns, DEFAULT_BATCH_SIZE, Optional.empty(), Optional.empty());
    }

    public ParquetReadOptions withBatchSize(int batchSize)
    {
        return new ParquetReadOptions(columns, batchSize, rowSelection, filter);
    }

    public ParquetReadOptions withRowSelection(RoaringBitmap rowSelection)
    {
        return new ParquetReadOptions(columns, batchSize, Optional.of(rowSelection), filter);
    }

    public ParquetReadOptions withFilter(Predicate filter)
    {
        return new ParquetReadOptions(columns, batchSize, rowSelection, Optional.of(filter));
    }
}
