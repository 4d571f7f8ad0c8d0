package io.tarn.storage.read;

import io.tarn.index.predicate.Predicate;
import io.tarn.storage.fs.InputFile;
import io.tarn.storage.metrics.Counter;
import io.tarn.storage.metrics.Counters;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.table.PaimonTable;
import io.tarn.types.DataField;
import io.tarn.vector.filter.BatchFilter;
import io.tarn.vector.filter.FilterProbes;
import io.tarn.vector.reader.CarriedColumn;
import io.tarn.vector.reader.DataFileReader;
import io.tarn.vector.reader.ReadOptions;
import io.tarn.vector.reader.ReaderMetrics;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.roaringbitmap.RoaringBitmap;
import org.roaringbitmap.RoaringBitmapWriter;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Late materialization for {@link RawSplitReader}: reads a file's filter columns alone, finds the
 * rows that satisfy the filter, then opens the file again for the requested columns of only
 * those rows. The values of the fixed-width filter columns that are also requested are carried
 * over from the first pass instead of being decoded again.
 *
 * <p>Counters of the first passes accumulate here ({@link #metrics()}); the readers it returns
 * belong to the caller, as do the carried columns it hands over through them.
 */
final class FilterFirstPass
{
    private static final int FILTER_BATCH_SIZE = 8192;

    private final PaimonTable table;
    private final List<DataField> filterColumns;
    private final Map<Integer, Integer> filterColumnIndexByFieldId = new HashMap<>();
    private final int batchSize;
    private final BufferAllocator allocator;
    private final FilterProbes filterProbes = new FilterProbes();
    private Counters metrics = Counters.empty(Counter.Stage.READING);

    /**
     * Whether the pass pays for a request with these filter columns: it needs a filter, and a
     * requested column outside it (if every requested column is a filter column, evaluating the
     * filter first saves nothing).
     */
    static boolean pays(List<DataField> filterColumns, ReadRequest request)
    {
        return !filterColumns.isEmpty() && !request.columns().stream().allMatch(column -> filterColumns.stream().anyMatch(field -> field.id() == column.id()));
    }

    FilterFirstPass(PaimonTable table, List<DataField> filterColumns, int batchSize, BufferAllocator allocator)
    {
        this.table = requireNonNull(table, "table is null");
        this.filterColumns = List.copyOf(filterColumns);
        for (int i = 0; i < this.filterColumns.size(); i++) {
            filterColumnIndexByFieldId.put(this.filterColumns.get(i).id(), i);
        }
        this.batchSize = batchSize;
        this.allocator = requireNonNull(allocator, "allocator is null");
    }

    /**
     * Finds the rows of {@code file}, read through {@code input}, among {@code selection} (all rows when null) that satisfy
     * {@code filter} (over the filter columns, or some of them), pruning row groups and pages of the filter columns by {@code skippingFilter}, and
     * opens the file again for {@code options}' columns of only those rows; returns null when no
     * row matches. The columns carried into the returned reader go to {@code carriedColumns},
     * which the caller closes after the reader. {@code selectionReadBefore}: an earlier pass
     * decoded the selected rows, so the filter columns' rows count as decoded again.
     */
    MatchingRows readMatchingRows(PlannedFile file, InputFile input, RoaringBitmap selection, boolean selectionReadBefore, Predicate filter, Predicate skippingFilter, ReadOptions options,
            List<CarriedColumn> carriedColumns)
            throws IOException
    {
        long live = selection == null ? file.file().rowCount() : selection.getLongCardinality();
        Map<Integer, CarriedColumn> carried = new HashMap<>();
        try (DataFileReader filterReader = DataFileReaders.open(table, file, input, passOptions(selection, skippingFilter).withLatePruning(options.latePruning()), allocator)) {
            RoaringBitmap matches = matchingRows(filterReader, filter, carried, options.columns(), selectionReadBefore);
            metrics = metrics.plus(Counters.of(Counter.ROWS_FILTERED, live - matches.getLongCardinality()));
            if (matches.isEmpty()) {
                // opened and read, though only for the filter columns
                metrics = metrics.plus(ReadCounters.opened(filterReader.metrics()));
                carried.values().forEach(CarriedColumn::close);
                return null;
            }
            ReadOptions rows = options.withRowSelection(matches);
            if (!carried.isEmpty()) {
                // the selection is exact: a filter could only prune pages, which would misalign the carried values
                rows = rows.withoutFilter();
            }
            DataFileReader reader = DataFileReaders.reopen(table, filterReader, rows, allocator, carried);
            carriedColumns.addAll(carried.values());
            return new MatchingRows(reader, matches);
        }
        catch (IOException | RuntimeException e) {
            carried.values().forEach(CarriedColumn::close);
            throw e;
        }
    }

    /**
     * A reader of the rows of a file that satisfy the filter, and their positions in the file.
     */
    record MatchingRows(DataFileReader reader, RoaringBitmap positions) {}

    /**
     * The counters of the passes so far: rows filtered out, what the filter columns' reads
     * decoded, and the probes of the filter's evaluation.
     */
    Counters metrics()
    {
        return metrics.with(Counter.FILTER_PROBES, metrics.get(Counter.FILTER_PROBES) + filterProbes.count());
    }

    private ReadOptions passOptions(RoaringBitmap selection, Predicate skippingFilter)
    {
        // the filter columns are read for the filter alone: equality tests of strings compare in the pages
        ReadOptions options = ReadOptions.of(filterColumns)
                .withBatchSize(Math.max(batchSize, FILTER_BATCH_SIZE))
                .withFilter(skippingFilter)
                .withFilterColumnsMatched();
        return selection == null ? options : options.withRowSelection(selection);
    }

    /**
     * The file positions of the rows that satisfy the filter. On the way, the values of those
     * rows of the fixed-width filter columns that {@code readColumns} reads too go to
     * {@code carried} (by field id), so that the read of the rows does not decode them again.
     */
    private RoaringBitmap matchingRows(DataFileReader reader, Predicate filter, Map<Integer, CarriedColumn> carried, List<DataField> readColumns, boolean readBefore)
            throws IOException
    {
        // positions arrive in ascending order, which the writer appends without searching; it
        // gathers each 65,536 positions in a bitmap first, where growing an array container a
        // value at a time showed in the profile of a scan that keeps most rows
        RoaringBitmapWriter<RoaringBitmap> matches = RoaringBitmapWriter.writer().constantMemory().get();
        int[] positions = new int[0];
        boolean first = true;
        while (DataFileReaders.nextBatch(table, reader)) {
            VectorSchemaRoot batch = reader.root();
            int[] selected = BatchFilter.selectedRows(filter, batch, filterColumnIndexByFieldId, reader.filterMatches(), filterProbes);
            if (first) {
                for (DataField column : readColumns) {
                    Integer index = filterColumnIndexByFieldId.get(column.id());
                    if (index != null && CarriedColumn.canCarry(batch.getVector(index))) {
                        carried.put(column.id(), new CarriedColumn(batch.getVector(index).getField(), allocator));
                    }
                }
                first = false;
            }
            for (Map.Entry<Integer, CarriedColumn> column : carried.entrySet()) {
                column.getValue().append(batch.getVector(filterColumnIndexByFieldId.get(column.getKey())), selected, selected.length);
            }
            if (positions.length < batch.getRowCount()) {
                positions = new int[batch.getRowCount()];
            }
            reader.batchPositions(positions);
            for (int row : selected) {
                matches.add(positions[row]);
            }
        }
        ReaderMetrics filterMetrics = reader.metrics();
        Counters decoded = ReadCounters.decoded(filterMetrics);
        metrics = metrics.plus(readBefore ? ReadCounters.readAgain(decoded) : decoded);
        return matches.get();
    }
}
