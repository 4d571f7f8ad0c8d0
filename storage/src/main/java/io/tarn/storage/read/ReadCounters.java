package io.tarn.storage.read;

import io.tarn.storage.metrics.Counters;
import io.tarn.vector.reader.ReaderMetrics;

import static io.tarn.storage.metrics.Counter.BYTES_READ;
import static io.tarn.storage.metrics.Counter.FILES_READ;
import static io.tarn.storage.metrics.Counter.FILES_SKIPPED_BY_INDEX;
import static io.tarn.storage.metrics.Counter.INDEXES_IGNORED;
import static io.tarn.storage.metrics.Counter.PAGES_SKIPPED;
import static io.tarn.storage.metrics.Counter.ROWS_FILTERED;
import static io.tarn.storage.metrics.Counter.ROWS_READ;
import static io.tarn.storage.metrics.Counter.ROWS_READ_AGAIN;
import static io.tarn.storage.metrics.Counter.ROWS_RETURNED;
import static io.tarn.storage.metrics.Counter.ROWS_SELECTED_BY_INDEX;
import static io.tarn.storage.metrics.Counter.ROWS_SKIPPED_BY_INDEX;
import static io.tarn.storage.metrics.Counter.ROW_GROUPS_READ;
import static io.tarn.storage.metrics.Counter.ROW_GROUPS_SKIPPED;
import static io.tarn.storage.metrics.Counter.ROW_GROUPS_SKIPPED_BY_BLOOM_FILTER;

/**
 * The reading counters of the split readers' recurring events, from a Parquet file reader's own
 * report where one was read.
 */
public final class ReadCounters
{
    private ReadCounters() {}

    /**
     * A file opened: its row groups read and skipped.
     */
    static Counters opened(ReaderMetrics file)
    {
        return Counters.of(FILES_READ, 1, ROW_GROUPS_READ, file.rowGroups() - file.rowGroupsSkipped())
                .with(ROW_GROUPS_SKIPPED, file.rowGroupsSkipped());
    }

    /**
     * What a reader of a file decoded: pages skipped, rows decoded, bytes read; and the ORC
     * row-index groups, within the stripes it read, that Bloom filters ruled out (counted here
     * because a filter pass skips them, while the read of its matching rows never looks at them).
     */
    public static Counters decoded(ReaderMetrics file)
    {
        return Counters.of(PAGES_SKIPPED, file.pagesSkipped(), ROWS_READ, file.rowsRead())
                .with(BYTES_READ, file.bytesRead())
                .with(ROW_GROUPS_SKIPPED_BY_BLOOM_FILTER, file.rowGroupsSkippedByBloomFilter());
    }

    /**
     * A file opened and read to its end.
     */
    public static Counters fileRead(ReaderMetrics file)
    {
        return opened(file).plus(decoded(file));
    }

    public static Counters returned(long rows, long filtered)
    {
        return Counters.of(ROWS_RETURNED, rows, ROWS_FILTERED, filtered);
    }

    static Counters fileIndex(long filesSkipped, long rowsSelected, long rowsSkipped, long indexesIgnored)
    {
        return Counters.of(FILES_SKIPPED_BY_INDEX, filesSkipped, ROWS_SELECTED_BY_INDEX, rowsSelected)
                .with(ROWS_SKIPPED_BY_INDEX, rowsSkipped)
                .with(INDEXES_IGNORED, indexesIgnored);
    }

    /**
     * {@code counters} with the rows decoded counted as decoded again (the second pass of a late
     * materialization), not as rows read.
     */
    static Counters readAgain(Counters counters)
    {
        return counters.with(ROWS_READ_AGAIN, counters.get(ROWS_READ_AGAIN) + counters.get(ROWS_READ)).with(ROWS_READ, 0);
    }
}
