package io.tarn.vector;

/**
 * Mutable counters behind {@link ReaderMetrics}, owned by one reader.
 */
final class ReaderCounters
{
    long rowGroups;
    long rowGroupsSkipped;
    long pagesSkipped;
    long pagesRead;
    long rowsRead;
    long rowsSkippedBySelection;
    long bytesRead;

    ReaderMetrics snapshot()
    {
        return new ReaderMetrics(rowGroups, rowGroupsSkipped, pagesSkipped, rowsRead, rowsSkippedBySelection, bytesRead);
    }
}
