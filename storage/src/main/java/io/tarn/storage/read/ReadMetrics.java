package io.tarn.storage.read;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What reading splits did: files opened, row groups read and skipped by statistics, rows decoded,
 * rows removed by deletion vectors, rows removed by the residual filter, rows returned and bytes
 * read; and what file indexes saved: files not opened because an index proved no row matches,
 * rows a bitmap index kept and removed (of the rows live after the deletion vector, in files
 * whose bitmap index answered), and indexes ignored as corrupt, missing or of an unsupported
 * type; and the work of the residual filter ({@code filterProbes}: comparisons of values with
 * literals or range bounds, see {@link io.tarn.vector.filter.FilterProbes}), which stays within a
 * small multiple of the rows times log2 of a filter's literal count. Immutable; {@link #plus} adds
 * two.
 * <p>
 * {@code rowsRead} counts each row of a file once, when it is first decoded. Under late
 * materialization a file is read twice, its filter columns for every row and then the other
 * columns of the matching rows; the second pass is counted in {@code rowsReadAgain}.
 */
public record ReadMetrics(
        long filesRead,
        long rowGroupsRead,
        long rowGroupsSkipped,
        long pagesSkipped,
        long rowsRead,
        long rowsDeleted,
        long rowsFiltered,
        long rowsReturned,
        long bytesRead,
        long filesSkippedByIndex,
        long rowsSelectedByIndex,
        long rowsSkippedByIndex,
        long indexesIgnored,
        long rowsReadAgain,
        long filterProbes)
{
    public static final ReadMetrics EMPTY = new ReadMetrics(0, 0, 0, 0, 0, 0, 0, 0, 0);

    /**
     * Counters without any file-index work.
     */
    public ReadMetrics(long filesRead, long rowGroupsRead, long rowGroupsSkipped, long pagesSkipped, long rowsRead, long rowsDeleted, long rowsFiltered,
            long rowsReturned, long bytesRead)
    {
        this(filesRead, rowGroupsRead, rowGroupsSkipped, pagesSkipped, rowsRead, rowsDeleted, rowsFiltered, rowsReturned, bytesRead, 0, 0, 0, 0, 0, 0);
    }

    static ReadMetrics fileIndex(long filesSkipped, long rowsSelected, long rowsSkipped, long indexesIgnored)
    {
        return new ReadMetrics(0, 0, 0, 0, 0, 0, 0, 0, 0, filesSkipped, rowsSelected, rowsSkipped, indexesIgnored, 0, 0);
    }

    /**
     * These counters with the rows decoded counted as decoded again (the second pass of a late
     * materialization), not as rows read.
     */
    ReadMetrics asReadAgain()
    {
        return new ReadMetrics(filesRead, rowGroupsRead, rowGroupsSkipped, pagesSkipped, 0, rowsDeleted, rowsFiltered, rowsReturned, bytesRead,
                filesSkippedByIndex, rowsSelectedByIndex, rowsSkippedByIndex, indexesIgnored, rowsReadAgain + rowsRead, filterProbes);
    }

    ReadMetrics withFilesRead(long files)
    {
        return new ReadMetrics(files, rowGroupsRead, rowGroupsSkipped, pagesSkipped, rowsRead, rowsDeleted, rowsFiltered, rowsReturned, bytesRead,
                filesSkippedByIndex, rowsSelectedByIndex, rowsSkippedByIndex, indexesIgnored, rowsReadAgain, filterProbes);
    }

    ReadMetrics withFilterProbes(long probes)
    {
        return new ReadMetrics(filesRead, rowGroupsRead, rowGroupsSkipped, pagesSkipped, rowsRead, rowsDeleted, rowsFiltered, rowsReturned, bytesRead,
                filesSkippedByIndex, rowsSelectedByIndex, rowsSkippedByIndex, indexesIgnored, rowsReadAgain, probes);
    }

    public ReadMetrics plus(ReadMetrics other)
    {
        return new ReadMetrics(
                filesRead + other.filesRead,
                rowGroupsRead + other.rowGroupsRead,
                rowGroupsSkipped + other.rowGroupsSkipped,
                pagesSkipped + other.pagesSkipped,
                rowsRead + other.rowsRead,
                rowsDeleted + other.rowsDeleted,
                rowsFiltered + other.rowsFiltered,
                rowsReturned + other.rowsReturned,
                bytesRead + other.bytesRead,
                filesSkippedByIndex + other.filesSkippedByIndex,
                rowsSelectedByIndex + other.rowsSelectedByIndex,
                rowsSkippedByIndex + other.rowsSkippedByIndex,
                indexesIgnored + other.indexesIgnored,
                rowsReadAgain + other.rowsReadAgain,
                filterProbes + other.filterProbes);
    }

    public Map<String, Long> asMap()
    {
        Map<String, Long> map = new LinkedHashMap<>();
        map.put("files_read", filesRead);
        map.put("row_groups_read", rowGroupsRead);
        map.put("row_groups_skipped", rowGroupsSkipped);
        map.put("pages_skipped", pagesSkipped);
        map.put("rows_read", rowsRead);
        map.put("rows_read_again", rowsReadAgain);
        map.put("rows_deleted", rowsDeleted);
        map.put("rows_filtered", rowsFiltered);
        map.put("rows_returned", rowsReturned);
        map.put("bytes_read", bytesRead);
        map.put("files_skipped_index", filesSkippedByIndex);
        map.put("rows_selected_index", rowsSelectedByIndex);
        map.put("rows_skipped_index", rowsSkippedByIndex);
        map.put("indexes_ignored", indexesIgnored);
        map.put("filter_probes", filterProbes);
        return map;
    }
}
