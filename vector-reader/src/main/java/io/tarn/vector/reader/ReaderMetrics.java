package io.tarn.vector.reader;

/**
 * Counters of one {@link DataFileReader}: row groups (ORC: stripes) in the file; row groups skipped by statistics
 * or dictionaries; data pages skipped without being decompressed (by the row selection or by the
 * column index); rows decoded into batches; rows of the row groups read that were left out by
 * the row selection or by page statistics; bytes read from the input; ORC's row-index groups
 * (within the stripes read) that their statistics kept but their Bloom filters left out.
 */
public record ReaderMetrics(long rowGroups, long rowGroupsSkipped, long pagesSkipped, long rowsRead, long rowsSkippedBySelection, long bytesRead, long rowGroupsSkippedByBloomFilter)
{
    /**
     * The same figures while a reader runs: the reader and its page readers add to them,
     * {@link DataFileReader#metrics()} copies them out. Owned by one reader, not thread safe.
     */
    static final class Accumulator
    {
        long rowGroups;
        long rowGroupsSkipped;
        long pagesSkipped;
        long rowsRead;
        long rowsSkippedBySelection;
        long bytesRead;

        ReaderMetrics snapshot()
        {
            // Tarn's Parquet reader does not read Bloom filters
            return new ReaderMetrics(rowGroups, rowGroupsSkipped, pagesSkipped, rowsRead, rowsSkippedBySelection, bytesRead, 0);
        }
    }
}
