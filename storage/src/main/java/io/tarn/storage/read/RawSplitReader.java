package io.tarn.storage.read;

import io.tarn.index.predicate.SelectivityEstimator;
import io.tarn.index.predicate.StatsEvaluator;
import io.tarn.index.predicate.StatsProvider;
import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.Predicates;
import io.tarn.storage.fs.InputFile;
import io.tarn.storage.manifest.DataFileMeta;
import io.tarn.storage.metrics.Counter;
import io.tarn.storage.metrics.Counters;
import io.tarn.storage.scan.DataSplit;
import io.tarn.storage.scan.FileIndexFilter;
import io.tarn.storage.scan.FileStatistics;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.scan.RowRange;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.table.PaimonTable;
import io.tarn.storage.schema.TableOptions;
import io.tarn.types.DataField;
import io.tarn.vector.reader.CarriedColumn;
import io.tarn.vector.reader.DictionaryIds;
import io.tarn.vector.reader.ReadOptions;
import io.tarn.vector.reader.DataFileReader;
import io.tarn.vector.reader.ReaderMetrics;
import io.tarn.vector.filter.BatchFilter;
import io.tarn.vector.filter.FilterProbes;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.roaringbitmap.RoaringBitmap;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.OptionalDouble;
import java.util.concurrent.CompletableFuture;

import static java.util.Objects.requireNonNull;

/**
 * Reads one split of raw-readable files (append tables, primary-key tables with deletion vectors,
 * first-row tables) as Arrow batches: each Parquet file with its deletion vector as a row
 * selection and the filter for row-group pruning. With a filter, a file's index (embedded or
 * {@code .index} file, see {@link FileIndexFilter}) may skip the file or narrow the selection to
 * the rows its bitmap index gives, after the deletion vector is subtracted; then, unless the
 * bitmap answered the whole filter exactly, the filter columns of the selected rows are read first
 * and the rows that satisfy the filter become the row selection of the other columns, so pages
 * without a matching row are not decoded at all (late materialization). A file whose statistics
 * prove that every row matches the filter is read without testing it.
 *
 * <p>A split with a row range reads only those rows of its file: the range is the file's row
 * selection, which the deletion vector and the file index narrow further.
 *
 * <p>A primary-key file read raw may still hold retraction rows (a {@code -D} that compaction kept
 * on an intermediate level): its live rows are the ones whose {@code _VALUE_KIND} is {@code +I} or
 * {@code +U}. Deletion vectors guarantee that no other live row of the key exists, so dropping the
 * retractions is the whole merge. {@code _VALUE_KIND} is read only from files that may hold a
 * retraction: a file whose metadata counts no -U/-D row ({@code deleteRowCount} 0, which Paimon's
 * writer counts exactly; absent in files of Paimon 0.8 and older) is read as an append file, its batches
 * handed out without a copy. Paimon drops retractions whenever it compacts a table with deletion
 * vectors, so this is the usual case.
 *
 * <p>Ownership: the batch returned by {@link #root()} belongs to this reader and stays valid until
 * the next {@link #nextBatch()} or {@link #close()}; all memory lives in a child allocator that
 * {@link #close()} releases.
 */
public final class RawSplitReader
        implements SplitReader
{
    private static final byte UPDATE_BEFORE = 1;
    private static final byte DELETE = 3;
    // a filter pass decodes the filter columns and selects rows, which then cost more to read:
    // for a caller that tests rows anyway, it pays back only when it drops a fifth of them or more
    private static final double RECHECKED_FILTER_MIN_KEPT_FRACTION = 0.8;

    private final PaimonTable table;
    private final TableSchema readSchema;
    private final DataSplit split;
    private final ReadRequest request;
    private final BufferAllocator allocator;
    private final List<DataField> readColumns;
    private final Map<Integer, Integer> columnIndexByFieldId = new HashMap<>();
    // the filter evaluated on decoded batches; empty when it is evaluated first, on its own columns
    private final Optional<Predicate> residualFilter;
    // the filter evaluated first, on its own columns (late materialization)
    private final Optional<FilterFirstPass> filterFirst;
    private final int valueKindColumn;
    // the columns of a file without _VALUE_KIND: a prefix of readColumns
    private final List<DataField> columnsWithoutKind;
    private final Optional<FileIndexFilter> indexFilter;
    // the requested row-tracking columns, completed from each file's metadata
    private final Optional<RowTrackingColumns> rowTracking;
    // the requested columns of the file reader's batches, as they are or with some rows dropped
    private final RequestedColumns requestedColumns;
    // rows chosen per data file (by name) before reading, e.g. the survivors of a merge
    private final Map<String, RoaringBitmap> rowSelections;
    // the columns whose values the file readers may leave as dictionary ids: those the caller
    // takes as ids that no filter here tests
    private final Set<Integer> valuesAsDictionaryIds;
    private FileStatistics fileStatistics;
    private boolean currentFileAllMatch;
    // the conjuncts of the filter that the current file's statistics do not prove for all its rows
    private Optional<Predicate> currentFileFilter = Optional.empty();
    // whether rows of the current file are tested against the filter here
    private boolean currentFileTestsRows;
    // what the reader of the current file skips row groups and pages by
    private Optional<Predicate> currentSkippingFilter = Optional.empty();

    private int nextFile;
    // the files to open next, fetched ahead from an object store
    private final FetchAheadQueue filesAhead;
    private DataFileReader current;
    private DataFileMeta currentFile;
    // what the current file is read through: handed over with the rest of the split
    private InputFile currentInput;
    // the rows of the current file that its deletion vector deletes; null without one
    private RoaringBitmap currentDeleted;
    // the positions the current file's reader reads after a filter pass found them; else null
    private RoaringBitmap currentMatches;
    // whether the rows of the given selections were decoded before: the rest of a split read again
    private final boolean selectionsReadBefore;
    private VectorSchemaRoot currentRoot;
    // whether the current file is read with _VALUE_KIND, and whether its batches need a copy
    private boolean currentReadsKinds;
    private boolean currentCopies;
    // what root() returns: the reader's own batch, a view of its requested columns, or a copy of some rows
    private VectorSchemaRoot result;
    // whether the rows of result are those of the file reader's batch (not a copy of some of them)
    private boolean resultIsReaderBatch;
    // when result is a copy: the positions in the file reader's batch of its rows
    private int[] resultSelected;
    // filter-column values of the current file's matching rows, which its reader copies from
    private final List<CarriedColumn> currentCarried = new ArrayList<>();
    private Counters metrics = Counters.empty(Counter.Stage.READING);
    private final FilterProbes filterProbes = new FilterProbes();
    private long currentFileRowsDeleted;
    // the current reader decodes again rows that a filter pass already decoded
    private boolean currentFileReadAgain;

    public RawSplitReader(PaimonTable table, TableSchema readSchema, DataSplit split, ReadRequest request, BufferAllocator allocator)
    {
        this(table, readSchema, split, request, allocator, null, Map.of(), false);
    }

    /**
     * A reader of {@code split}'s files read as they are: this class, or, for a request with a
     * late row filter ({@link ReadRequest#withLateRowFilter}), one that reads the rest of the
     * split with that filter once it arrives.
     */
    public static SplitReader open(PaimonTable table, TableSchema readSchema, DataSplit split, ReadRequest request, BufferAllocator allocator)
    {
        if (request.hasLateRowFilter()) {
            return new LateRowFilterReader(table, readSchema, split, request, allocator);
        }
        return new RawSplitReader(table, readSchema, split, request, allocator);
    }

    /**
     * Reads the rest of a split that an earlier reader stopped ({@link #stopAndHandOverRest()}):
     * of the files with a selection, only the selected rows, which the earlier reader's filter
     * pass found and decoded; the files it held are taken as they are, not fetched again.
     */
    static RawSplitReader rest(PaimonTable table, TableSchema readSchema, DataSplit split, ReadRequest request, BufferAllocator allocator, UnreadRest rest)
    {
        return new RawSplitReader(table, readSchema, split, request, allocator, rest.rowSelections(), rest.heldFiles(), true);
    }

    /**
     * Reads only the given rows of each file of the split: how a merge whose survivors are known
     * reads its value columns. The selections must not select a retraction (-U/-D) row: the
     * files are read without {@code _VALUE_KIND}. {@code heldFiles} are files the key pass
     * fetched, by name, read from what they hold rather than fetched again.
     */
    public static RawSplitReader withRowSelections(PaimonTable table, TableSchema readSchema, DataSplit split, ReadRequest request, BufferAllocator allocator,
            Map<String, RoaringBitmap> rowSelections, Map<String, InputFile> heldFiles)
    {
        return new RawSplitReader(table, readSchema, split, request, allocator, requireNonNull(rowSelections, "rowSelections is null"), heldFiles, false);
    }

    private RawSplitReader(PaimonTable table, TableSchema readSchema, DataSplit split, ReadRequest request, BufferAllocator allocator, Map<String, RoaringBitmap> rowSelections,
            Map<String, InputFile> heldFiles, boolean selectionsReadBefore)
    {
        this.selectionsReadBefore = selectionsReadBefore;
        this.table = requireNonNull(table, "table is null");
        this.readSchema = requireNonNull(readSchema, "readSchema is null");
        this.split = requireNonNull(split, "split is null");
        this.request = requireNonNull(request, "request is null");
        this.rowSelections = rowSelections == null ? Map.of() : Map.copyOf(rowSelections);
        List<DataField> filterFields = filterColumns(request);
        Set<Integer> takenAsIds = new HashSet<>(request.dictionaryIdFields());
        filterFields.forEach(field -> takenAsIds.remove(field.id()));
        this.valuesAsDictionaryIds = Set.copyOf(takenAsIds);
        boolean filterFirstPays = FilterFirstPass.pays(filterFields, request);
        this.residualFilter = filterFirstPays ? Optional.empty() : request.filter();
        List<DataField> columns = new ArrayList<>(request.columns());
        if (!filterFirstPays) {
            for (DataField field : filterFields) {
                if (columns.stream().noneMatch(column -> column.id() == field.id())) {
                    columns.add(field);
                }
            }
        }
        if (!readSchema.primaryKeys().isEmpty()) {
            columns.add(SystemFields.VALUE_KIND);
        }
        this.readColumns = RowTrackingColumns.asStored(columns);
        for (int i = 0; i < readColumns.size(); i++) {
            columnIndexByFieldId.put(readColumns.get(i).id(), i);
        }
        this.valueKindColumn = readSchema.primaryKeys().isEmpty() ? -1 : readColumns.size() - 1;
        this.columnsWithoutKind = valueKindColumn < 0 ? readColumns : readColumns.subList(0, valueKindColumn);
        this.filesAhead = new FetchAheadQueue(table, split.files(), this::opens, heldFiles);
        this.indexFilter = request.skippingFilter().isPresent() && request.useFileIndexes() && new TableOptions(table.name(), readSchema.options()).fileIndexReadEnabled()
                ? Optional.of(new FileIndexFilter(table, request.skippingFilter().get()))
                : Optional.empty();
        this.allocator = requireNonNull(allocator, "allocator is null").newChildAllocator("split-reader", 0, Long.MAX_VALUE);
        try {
            this.rowTracking = RowTrackingColumns.of(table.name(), readSchema, readColumns, this.allocator);
        }
        catch (RuntimeException e) {
            this.allocator.close();
            throw e;
        }
        this.filterFirst = filterFirstPays
                ? Optional.of(new FilterFirstPass(table, filterFields, request.batchSize(), this.allocator))
                : Optional.empty();
        this.requestedColumns = new RequestedColumns(request.columns(), columnIndexByFieldId, rowTracking, this.allocator);
    }

    @Override
    public CompletableFuture<Void> fetchAhead()
    {
        return filesAhead.start(nextFile);
    }

    @Override
    public boolean nextBatch()
            throws IOException
    {
        while (true) {
            if (current == null) {
                if (nextFile == split.files().size()) {
                    return false;
                }
                int index = nextFile++;
                if (!opens(split.files().get(index)) || !openFile(index)) {
                    continue;
                }
            }
            if (!nextFromCurrent()) {
                closeCurrentFile();
                continue;
            }
            int rows = currentRoot.getRowCount();
            if (!currentCopies) {
                metrics = metrics.plus(ReadCounters.returned(rows, 0));
                result = rowTracking.isPresent() ? requestedColumns.view(currentRoot) : currentRoot;
                resultIsReaderBatch = true;
                resultSelected = null;
                return true;
            }
            int[] selected = residualFilter.isPresent() && currentFileTestsRows
                    ? BatchFilter.selectedRows(currentFileFilter.orElseThrow(), currentRoot, columnIndexByFieldId, current.filterMatches(), filterProbes)
                    : allRows(rows);
            if (currentReadsKinds) {
                selected = withoutRetractions(selected);
            }
            metrics = metrics.plus(ReadCounters.returned(selected.length, rows - selected.length));
            if (selected.length == 0) {
                continue;
            }
            if (selected.length == rows) {
                // every row stays (the usual case: no retraction, no residual filter): the
                // requested vectors of the reader's batch are the result, without a copy
                result = requestedColumns.view(currentRoot);
                resultIsReaderBatch = true;
                resultSelected = null;
                return true;
            }
            result = requestedColumns.copy(currentRoot, selected);
            resultIsReaderBatch = false;
            resultSelected = selected;
            return true;
        }
    }

    @Override
    public VectorSchemaRoot root()
    {
        return result;
    }

    /**
     * The counters so far: those of the files read to their end, and the bytes the open file has
     * read. A consumer that polls between batches (Trino's physical input) sees the bytes of the
     * last file before the reader learns it is at its end.
     */
    @Override
    public Counters metrics()
    {
        Counters counted = metrics.with(Counter.FILTER_PROBES, metrics.get(Counter.FILTER_PROBES) + filterProbes.count());
        if (filterFirst.isPresent()) {
            counted = counted.plus(filterFirst.get().metrics());
        }
        if (current == null) {
            return counted;
        }
        return counted.plus(Counters.of(Counter.BYTES_READ, current.metrics().bytesRead()));
    }

    /**
     * The heap the reader of the current file holds (the loaded parts of its column chunks,
     * pages, dictionaries and decoded values); its Arrow memory is the allocator's.
     */
    @Override
    public long retainedHeapBytes()
    {
        return (current == null ? 0 : current.retainedHeapBytes()) + filesAhead.heldBytes();
    }

    @Override
    public Optional<DictionaryIds> dictionaryIds(int column)
    {
        if (!request.dictionaryIdFields().contains(request.columns().get(column).id()) || current == null || (!resultIsReaderBatch && resultSelected == null)) {
            return Optional.empty();
        }
        Optional<DictionaryIds> ids = current.dictionaryIds(columnIndexByFieldId.get(request.columns().get(column).id()));
        if (resultIsReaderBatch) {
            return ids;
        }
        // the copied rows keep their dictionary: a filtered batch still reaches Trino as ids
        int[] selected = resultSelected;
        return ids.map(all -> {
            int[] selectedIds = new int[selected.length];
            for (int row = 0; row < selected.length; row++) {
                selectedIds[row] = all.ids()[selected[row]];
            }
            return new DictionaryIds(all.dictionaryBytes(), all.dictionaryOffsets(), all.dictionarySize(), selectedIds, selected.length);
        });
    }

    @Override
    public void close()
    {
        filesAhead.close();
        try {
            closeCurrentFile();
        }
        finally {
            requestedColumns.close();
            rowTracking.ifPresent(RowTrackingColumns::close);
            allocator.close();
        }
    }

    private FileStatistics fileStatistics()
    {
        if (fileStatistics == null) {
            fileStatistics = new FileStatistics(table, readSchema);
        }
        return fileStatistics;
    }

    /**
     * Whether the reader opens {@code file} when it comes to it: unless the rows chosen of it
     * before reading are none.
     */
    private boolean opens(PlannedFile file)
    {
        RoaringBitmap chosen = rowSelections.get(file.file().fileName());
        return chosen == null || !chosen.isEmpty();
    }

    /**
     * Opens the split's file at {@code index} for reading, unless its file index proves that no
     * live row matches, or its statistics rule out a late pruning filter that has arrived.
     */
    private boolean openFile(int index)
            throws IOException
    {
        PlannedFile file = split.files().get(index);
        DataFileMeta meta = file.file();
        currentFile = meta;
        RoaringBitmap chosen = rowSelections.get(meta.fileName());
        // a given selection never selects a retraction
        currentReadsKinds = valueKindColumn >= 0 && chosen == null && mayHoldRetractions(meta);
        List<DataField> columns = currentReadsKinds ? readColumns : columnsWithoutKind;
        currentCopies = columns.size() != request.columns().size() || residualFilter.isPresent();
        Optional<Predicate> lateFilter = request.latePruningFilter().get();
        if (lateFilter.isPresent() && !StatsEvaluator.mightMatch(lateFilter.get(), fileStatistics().valueStats(file))) {
            metrics = metrics.plus(Counters.of(Counter.FILES_SKIPPED_BY_LATE_FILTER, 1));
            filesAhead.skip(index);
            return false;
        }
        // statistics that prove every row of the file matches leave nothing to test, and nothing
        // for the reader to prune (it would read the column indexes for it)
        StatsProvider stats = request.skippingFilter().isPresent() ? fileStatistics().valueStats(file) : null;
        currentFileFilter = stats == null ? request.filter() : request.filter().flatMap(filter -> StatsEvaluator.unprovenConjuncts(filter, stats));
        currentFileAllMatch = request.filter().isPresent() && currentFileFilter.isEmpty();
        currentFileTestsRows = currentFileFilter.isPresent() && !(request.filterRecheckedByCaller() && keepsMostRows(currentFileFilter.get(), stats));
        ReadOptions options = ReadOptions.of(columns).withBatchSize(request.batchSize()).withLatePruning(request.latePruningFilter());
        if (!request.dictionaryIdFields().isEmpty()) {
            options = options.withDictionaryIds().withValuesAsDictionaryIds(valuesAsDictionaryIds);
        }
        // what the reader may skip by: the filter, and the pruning filter (never tested per row)
        List<Predicate> skipping = new ArrayList<>();
        currentFileFilter.ifPresent(skipping::add);
        if (request.pruningFilter().isPresent() && !StatsEvaluator.allMatch(request.pruningFilter().get(), stats)) {
            skipping.add(request.pruningFilter().get());
        }
        currentSkippingFilter = skipping.isEmpty() ? Optional.empty() : Optional.of(Predicates.and(skipping));
        if (currentSkippingFilter.isPresent()) {
            options = options.withFilter(currentSkippingFilter.get());
        }
        currentMatches = null;
        // the survivors of a merge were chosen by a pass over the key columns of every row
        currentFileReadAgain = chosen != null;
        FileRowSelection rows = FileRowSelection.of(table, file, split.rowRange(), chosen,
                currentSkippingFilter.isPresent() ? indexFilter : Optional.empty());
        metrics = metrics.plus(rows.indexCounters());
        currentFileRowsDeleted = rows.rowsDeleted();
        currentDeleted = rows.deleted().orElse(null);
        if (rows.skip()) {
            filesAhead.skip(index);
            return false;
        }
        RoaringBitmap selection = rows.rows().orElse(null);
        InputFile input = filesAhead.take(index);
        currentInput = input;
        if (filterFirst.isPresent() && !rows.exact() && currentFileTestsRows) {
            FilterFirstPass.MatchingRows matching = filterFirst.get().readMatchingRows(file, input, selection, chosen != null && selectionsReadBefore,
                    currentFileFilter.orElseThrow(), currentSkippingFilter.orElseThrow(), options, currentCarried);
            current = matching == null ? null : matching.reader();
            currentMatches = matching == null ? null : matching.positions();
            currentFileReadAgain |= current != null;
            if (current == null) {
                // no row matched: the file is done, and its deletion vector was applied
                metrics = metrics.plus(Counters.of(Counter.ROWS_DELETED, currentFileRowsDeleted));
                currentInput = null;
                currentDeleted = null;
            }
            return current != null;
        }
        if (selection != null) {
            options = options.withRowSelection(selection);
        }
        current = DataFileReaders.open(table, file, input, options, allocator);
        return true;
    }

    /**
     * Stops reading and hands over what is left of the split after the batches returned so far:
     * splits that read exactly the rows not returned yet (the rest of the current file as a row
     * range, then the files not opened yet), and the current file's input, which a reader of the
     * rest reads from rather than fetching it again. When a filter pass found the current file's
     * matching rows, the rest of them is handed over as its selection, so that the rest is not
     * filtered and decoded again from scratch. From then on the counters count only what this
     * reader read; the caller closes it. Empty, and the reader goes on, for a reader of chosen
     * rows (a merge's value pass), whose selections a split cannot carry.
     */
    Optional<UnreadRest> stopAndHandOverRest()
            throws IOException
    {
        if (!rowSelections.isEmpty() || (current != null && currentRoot.getRowCount() == 0)) {
            return Optional.empty();
        }
        List<DataSplit> rest = new ArrayList<>();
        Map<String, InputFile> held = Map.of();
        Map<String, RoaringBitmap> selections = Map.of();
        if (current != null) {
            PlannedFile file = split.files().get(nextFile - 1);
            long end = split.rowRange().map(RowRange::end).orElse(file.file().rowCount());
            long next = nextUnreturnedPosition();
            if (next < end) {
                rest.add(new DataSplit(split.partition(), split.bucket(), split.totalBuckets(), List.of(file), false, Optional.of(new RowRange(next, end))));
                held = Map.of(file.file().fileName(), currentInput);
                // matches may hold retractions, which a selection must not select
                if (currentMatches != null && !currentReadsKinds) {
                    RoaringBitmap restOfMatches = RoaringBitmap.and(currentMatches, RoaringBitmap.bitmapOfRange(next, end));
                    selections = Map.of(file.file().fileName(), restOfMatches);
                }
                else if (currentDeleted != null) {
                    // the reader of the rest counts the deleted rows it passes (a selection of
                    // matches has none: they stay counted here)
                    currentFileRowsDeleted -= currentDeleted.rangeCardinality(next, end);
                }
            }
            closeCurrentFile();
        }
        if (nextFile == 0) {
            rest.add(split);
        }
        else if (nextFile < split.files().size()) {
            // a split of several files has no row range
            rest.add(new DataSplit(split.partition(), split.bucket(), split.totalBuckets(), split.files().subList(nextFile, split.files().size()), false));
        }
        nextFile = split.files().size();
        filesAhead.close();
        return Optional.of(new UnreadRest(rest, held, selections));
    }

    /**
     * The splits left to read, the files to read them from and the rows of them found to
     * match, by file name ({@link #stopAndHandOverRest()}).
     */
    record UnreadRest(List<DataSplit> splits, Map<String, InputFile> heldFiles, Map<String, RoaringBitmap> rowSelections)
    {
        UnreadRest
        {
            splits = List.copyOf(splits);
            heldFiles = Map.copyOf(heldFiles);
            rowSelections = Map.copyOf(rowSelections);
        }
    }

    /**
     * The position in the current file after the last row of its current batch: every row before
     * it was returned, dropped by the filter or deleted.
     */
    private long nextUnreturnedPosition()
            throws IOException
    {
        int rows = currentRoot.getRowCount();
        int[] positions = new int[rows];
        current.batchPositions(positions);
        return positions[rows - 1] + 1L;
    }

    /**
     * Whether the file's statistics suggest that the filter keeps so many of its rows that testing
     * them costs more than handing the rest to a caller that tests them again anyway.
     */
    private boolean keepsMostRows(Predicate filter, StatsProvider stats)
    {
        OptionalDouble kept = SelectivityEstimator.fraction(filter, stats);
        return kept.isPresent() && kept.getAsDouble() >= RECHECKED_FILTER_MIN_KEPT_FRACTION;
    }

    /**
     * Whether a primary-key file may hold -U/-D rows: Paimon's writer counts them exactly in the
     * file's {@code deleteRowCount}; files of Paimon 0.8 and older lack the count.
     */
    public static boolean mayHoldRetractions(DataFileMeta meta)
    {
        return meta.deleteRowCount().isEmpty() || meta.deleteRowCount().getAsLong() > 0;
    }

    private boolean nextFromCurrent()
            throws IOException
    {
        if (!DataFileReaders.nextBatch(table, current)) {
            return false;
        }
        currentRoot = current.root();
        if (rowTracking.isPresent()) {
            rowTracking.get().fill(current, currentRoot, currentFile);
        }
        return true;
    }

    private void closeCurrentFile()
    {
        if (current == null) {
            return;
        }
        ReaderMetrics fileMetrics = current.metrics();
        Counters fileRead = ReadCounters.fileRead(fileMetrics).with(Counter.ROWS_DELETED, currentFileRowsDeleted);
        metrics = metrics.plus(currentFileReadAgain ? ReadCounters.readAgain(fileRead) : fileRead);
        current.close();
        currentCarried.forEach(CarriedColumn::close);
        currentCarried.clear();
        current = null;
        currentInput = null;
        currentDeleted = null;
        currentMatches = null;
        currentRoot = null;
        result = null;
        resultIsReaderBatch = false;
        resultSelected = null;
    }

    private int[] withoutRetractions(int[] selected)
    {
        TinyIntVector kinds = (TinyIntVector) currentRoot.getVector(valueKindColumn);
        int kept = 0;
        int[] live = new int[selected.length];
        for (int row : selected) {
            byte kind = kinds.get(row);
            if (kind != UPDATE_BEFORE && kind != DELETE) {
                live[kept++] = row;
            }
        }
        return kept == selected.length ? selected : Arrays.copyOf(live, kept);
    }

    private static int[] allRows(int count)
    {
        int[] rows = new int[count];
        for (int i = 0; i < count; i++) {
            rows[i] = i;
        }
        return rows;
    }

    /**
     * The fields the filter reads, in the order of the read schema.
     */
    private List<DataField> filterColumns(ReadRequest request)
    {
        if (request.filter().isEmpty()) {
            return List.of();
        }
        Predicate filter = request.filter().get();
        List<DataField> fields = new ArrayList<>();
        for (int fieldId : filter.fieldIds()) {
            fields.add(readSchema.rowType().fieldById(fieldId)
                    .orElseThrow(() -> new IllegalArgumentException("Table " + table.name() + " has no column with field id " + fieldId + " for the filter " + filter)));
        }
        return fields;
    }
}
