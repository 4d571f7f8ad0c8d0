package io.tarn.vector.reader;

import io.tarn.index.predicate.Predicate;
import io.tarn.vector.ParquetUnsupportedException;
import io.tarn.vector.io.DataFileInput;
import io.tarn.vector.metadata.ParquetFooter;
import org.apache.parquet.format.RowGroup;
import org.roaringbitmap.RoaringBitmap;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * The row group a {@link ParquetReader} reads and which of its rows, moving through the file's
 * row groups in order. Moving on skips the row groups without rows, those the filter rules out
 * by their statistics or dictionaries ({@link RowGroupPruner}), and those where the row
 * selection or the pages the column index keeps ({@link PageIndexPruner}) leave no row; what
 * remains of a row group is the intersection of the two, as row numbers within it, walked by a
 * {@link RowGroupSelection}. A late pruning filter ({@link ReadOptions#latePruning()}) is asked
 * before each row group until it arrives, and prunes the row groups after that. Kept apart from the reader so that its batch loop only sees the
 * current row group.
 */
final class RowGroupCursor
{
    private final String file;
    private final List<RowGroup> rowGroups;
    private final Optional<RoaringBitmap> rowSelection;
    // with a filter: what prunes row groups and pages
    private final Optional<RowGroupPruner> rowGroupPruner;
    private final Optional<PageIndexPruner> pageIndexPruner;
    private final Supplier<Optional<Predicate>> latePruning;
    private final DataFileInput input;
    private final ParquetFooter footer;
    // once the late pruning filter arrived
    private RowGroupPruner latePruner;
    private final ReaderMetrics.Accumulator metrics;
    private final long fileRowCount;

    private int index = -1;
    private long start;
    private long rows;
    // the rows of the current row group to read, or null for all of them
    private RoaringBitmap selection;
    private final RowGroupSelection selectedRows = new RowGroupSelection();

    RowGroupCursor(DataFileInput input, ParquetFooter footer, ReadOptions options, PageIndexReader pageIndexes, ReaderMetrics.Accumulator metrics)
    {
        requireNonNull(input, "input is null");
        requireNonNull(footer, "footer is null");
        requireNonNull(pageIndexes, "pageIndexes is null");
        this.file = input.name();
        this.input = input;
        this.footer = footer;
        this.latePruning = options.latePruning();
        this.rowGroups = footer.metadata().getRow_groups();
        this.rowSelection = options.rowSelection();
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.rowGroupPruner = options.filter().map(filter -> new RowGroupPruner(input, footer, filter, metrics));
        this.pageIndexPruner = options.filter().map(filter -> new PageIndexPruner(footer, filter, pageIndexes, metrics));
        long total = 0;
        for (RowGroup rowGroup : rowGroups) {
            total += rowGroup.getNum_rows();
        }
        this.fileRowCount = total;
    }

    /**
     * The rows of all the file's row groups, read or skipped.
     */
    long fileRowCount()
    {
        return fileRowCount;
    }

    /**
     * Whether the cursor moved to a row group yet: false before the first {@link #next()}.
     */
    boolean started()
    {
        return index >= 0;
    }

    /**
     * The current row group.
     */
    RowGroup rowGroup()
    {
        return rowGroups.get(index);
    }

    /**
     * The row of the file where the current row group starts.
     */
    long start()
    {
        return start;
    }

    /**
     * The rows of the current row group, selected or not; 0 past the last row group.
     */
    long rows()
    {
        return rows;
    }

    /**
     * The rows of the current row group to read, numbered from its start, or null for all.
     */
    RoaringBitmap selection()
    {
        return selection;
    }

    /**
     * The walk of {@link #selection()}, when not null.
     */
    RowGroupSelection selectedRows()
    {
        return selectedRows;
    }

    /**
     * Writes into {@code positions} the positions in the file of the {@code batchRows} rows of
     * the batch that began at row {@code batchStart} of the current row group: consecutive rows,
     * or the selected ones.
     */
    void positions(long batchStart, int batchRows, int[] positions)
            throws ParquetUnsupportedException
    {
        if (start + rows > Integer.MAX_VALUE) {
            throw new ParquetUnsupportedException("File " + file + " has more than 2^31 rows, beyond what a row position can address");
        }
        int first = (int) (start + batchStart);
        if (selection == null) {
            for (int i = 0; i < batchRows; i++) {
                positions[i] = first + i;
            }
            return;
        }
        selectedRows.positions((int) batchStart, batchRows, (int) start, positions, file);
    }

    /**
     * Moves to the next row group with rows to read; false past the last one.
     */
    boolean next()
            throws IOException
    {
        while (true) {
            if (index >= 0) {
                start += rows;
            }
            index++;
            if (index >= rowGroups.size()) {
                rows = 0;
                return false;
            }
            RowGroup rowGroup = rowGroups.get(index);
            rows = rowGroup.getNum_rows();
            if (rows == 0) {
                continue;
            }
            if ((rowGroupPruner.isPresent() && !rowGroupPruner.get().mightMatch(rowGroup)) || lateFilterRulesOut(rowGroup)) {
                metrics.rowGroupsSkipped++;
                continue;
            }
            selection = null;
            if (rowSelection.isPresent()) {
                if (start + rows > Integer.MAX_VALUE) {
                    throw new ParquetUnsupportedException("File " + file + " has more than 2^31 rows, beyond what a row selection can address");
                }
                RoaringBitmap local = RoaringBitmap.addOffset(
                        RoaringBitmap.and(rowSelection.get(), RoaringBitmap.bitmapOfRange(start, start + rows)),
                        -start);
                if (local.isEmpty()) {
                    metrics.rowsSkippedBySelection += rows;
                    continue;
                }
                selection = local;
            }
            if (pageIndexPruner.isPresent()) {
                RoaringBitmap pages = pageIndexPruner.get().keptRows(rowGroup, rows);
                if (pages != null) {
                    selection = selection == null ? pages : RoaringBitmap.and(selection, pages);
                    if (selection.isEmpty()) {
                        continue;
                    }
                }
            }
            if (selection != null) {
                selectedRows.reset(selection);
            }
            return true;
        }
    }

    private boolean lateFilterRulesOut(RowGroup rowGroup)
            throws IOException
    {
        if (latePruner == null) {
            Optional<Predicate> arrived = latePruning.get();
            if (arrived.isEmpty()) {
                return false;
            }
            latePruner = new RowGroupPruner(input, footer, arrived.get(), metrics);
        }
        return !latePruner.mightMatch(rowGroup);
    }
}
