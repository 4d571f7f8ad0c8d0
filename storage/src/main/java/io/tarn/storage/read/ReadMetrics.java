package io.tarn.storage.read;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What reading splits did: files opened, row groups read and skipped by statistics, rows decoded,
 * rows removed by deletion vectors, rows removed by the residual filter, rows returned and bytes
 * read. Immutable; {@link #plus} adds two.
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
        long bytesRead)
{
    public static final ReadMetrics EMPTY = new ReadMetrics(0, 0, 0, 0, 0, 0, 0, 0, 0);

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
                bytesRead + other.bytesRead);
    }

    public Map<String, Long> asMap()
    {
        Map<String, Long> map = new LinkedHashMap<>();
        map.put("files_read", filesRead);
        map.put("row_groups_read", rowGroupsRead);
        map.put("row_groups_skipped", rowGroupsSkipped);
        map.put("pages_skipped", pagesSkipped);
        map.put("rows_read", rowsRead);
        map.put("rows_deleted", rowsDeleted);
        map.put("rows_filtered", rowsFiltered);
        map.put("rows_returned", rowsReturned);
        map.put("bytes_read", bytesRead);
        return map;
    }
}
