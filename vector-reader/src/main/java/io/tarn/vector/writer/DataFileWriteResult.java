package io.tarn.vector.writer;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * What a finished data file holds: its size in bytes, its row count and one
 * {@link ColumnStatistics} per top-level field of the written schema, in schema order.
 */
public record DataFileWriteResult(long fileSize, long rowCount, List<ColumnStatistics> statistics)
{
    public DataFileWriteResult
    {
        statistics = List.copyOf(requireNonNull(statistics, "statistics is null"));
        if (fileSize < 0 || rowCount < 0) {
            throw new IllegalArgumentException("Negative file size or row count: " + fileSize + ", " + rowCount);
        }
    }
}
