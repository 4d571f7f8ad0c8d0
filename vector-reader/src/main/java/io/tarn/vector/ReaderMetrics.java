package io.tarn.vector;

/**
 * Counters of one {@link ParquetReader}: row groups in the file; row groups skipped by statistics
 * or dictionaries; data pages skipped without being decompressed (by the row selection or by the
 * column index); rows decoded into batches; rows of the row groups read that were left out by
 * the row selection or by page statistics; bytes read from the input.
 */
public record ReaderMetrics(long rowGroups, long rowGroupsSkipped, long pagesSkipped, long rowsRead, long rowsSkippedBySelection, long bytesRead)
{
}
