package io.tarn.vector;

/**
 * Counters of one {@link ParquetReader}: row groups in the file, row groups skipped by
 * statistics, data pages skipped without being decompressed, rows decoded, rows left out by the
 * row selection, and bytes read from the input.
 */
public record ReaderMetrics(long rowGroups, long rowGroupsSkipped, long pagesSkipped, long rowsRead, long rowsSkippedBySelection, long bytesRead)
{
}
