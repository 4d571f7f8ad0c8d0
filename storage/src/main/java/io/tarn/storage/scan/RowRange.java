package io.tarn.storage.scan;

/**
 * The rows {@code [start, end)} of a data file, by position in the file: the part of a large file
 * that one split reads, so that several readers share the file.
 */
public record RowRange(long start, long end)
{
    public RowRange
    {
        if (start < 0 || end <= start) {
            throw new IllegalArgumentException("Invalid row range [%s, %s)".formatted(start, end));
        }
    }

    public long rows()
    {
        return end - start;
    }
}
