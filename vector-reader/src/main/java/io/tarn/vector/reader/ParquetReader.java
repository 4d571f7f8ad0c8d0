package io.tarn.vector.reader;

import io.tarn.index.predicate.Predicate;
import io.tarn.types.DataField;
import io.tarn.vector.ArrowTypes;
import io.tarn.vector.ParquetCorruptionException;
import io.tarn.vector.ParquetUnsupportedException;
import io.tarn.vector.filter.LeafMatches;
import io.tarn.vector.io.DataFileInput;
import io.tarn.vector.metadata.LegacyFieldIds;
import io.tarn.vector.metadata.PaimonParquetLayout;
import io.tarn.vector.metadata.ParquetFooter;
import io.tarn.vector.reader.decoders.UnsupportedEncodingException;
import io.tarn.vector.reader.decoders.ValueBuffer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.parquet.format.RowGroup;
import org.roaringbitmap.RoaringBitmap;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Reads a Parquet file into Arrow batches, without Hadoop: footer and schema through
 * parquet-format-structures, pages decoded by Tarn's own decoders straight into the vectors of
 * one reused {@link VectorSchemaRoot}.
 * <p>
 * Output columns are matched to file columns by Parquet field id; a column the file lacks comes
 * out all null. Row groups are skipped when the filter cannot match their statistics or the
 * small dictionaries of fully dictionary-encoded columns, pages when it cannot match their
 * column index; the optional row selection (file row positions) limits the
 * output to the selected rows, in file order, and skips pages without selected rows undecoded.
 * <p>
 * Trust contract: every length, offset and count from the file is checked before use; any
 * violation is a {@link ParquetCorruptionException} naming the file and column, an unsupported
 * feature a {@link ParquetUnsupportedException}. The reader works in a child allocator closed by
 * {@link #close()}.
 * <p>
 * The reader orchestrates: {@link SchemaBinding} binds the columns to the file's leaves,
 * {@link RowGroupPruner} and {@link PageIndexPruner} prune by the filter,
 * {@link ColumnChunkOpener} opens a {@link ColumnReader} (over a {@link PageReader}) per leaf
 * and row group, {@link RowGroupSelection} walks the row selection, {@link BatchSizer} sizes the
 * batches, and {@link FieldAssembler}s write the decoded leaves into the batch.
 */
public final class ParquetReader
        implements DataFileReader
{
    private final DataFileInput input;
    private final String file;
    private final ReadOptions options;
    private final ParquetFooter footer;
    // by field id, the top-level fields of the schema the file was written with, when known
    private final Optional<Map<Integer, DataField>> fileFields;
    private final BufferAllocator allocator;
    private final VectorSchemaRoot root;
    private final List<FieldAssembler> assemblers;
    private final List<Integer> neededLeaves;
    private final ColumnReader[] readers;
    private final ColumnChunkOpener chunks;
    private final BatchSizer batchSizer;
    // with a filter: what prunes row groups and pages
    private final Optional<RowGroupPruner> rowGroupPruner;
    private final Optional<PageIndexPruner> pageIndexPruner;
    private final ReaderMetrics.Accumulator metrics = new ReaderMetrics.Accumulator();
    // by output column index: the columns compared in their pages, not decoded (see ReadOptions)
    private final Map<Integer, MatchedColumn> matchedColumns;
    private final Map<Predicate, LeafMatches> batchMatches = new IdentityHashMap<>();
    // by output column index: the leaves of the columns whose dictionary ids are recorded
    private final Map<Integer, Integer> dictionaryIdColumns;
    private int[] rowIds = new int[0];
    private final long fileRowCount;

    private int rowGroupIndex = -1;
    private long rowGroupStart;
    private long rowGroupRows;
    private long position;
    // where in the row group the current batch began
    private long batchStart;
    private RoaringBitmap rowGroupSelection;
    // dense windows of a row selection are read in one pass per column that passes over the
    // values of the unselected rows, when no needed column is repeated
    private final boolean selectiveWindows;
    private final RowGroupSelection selection = new RowGroupSelection();
    // the selected runs of a sparse batch: skip runGaps[k] rows, then read runRows[k] rows
    private long[] runGaps = new long[16];
    private int[] runRows = new int[16];
    private boolean closed;

    private ParquetReader(DataFileInput input, ReadOptions options, ParquetFooter footer, Optional<Map<Integer, DataField>> fileFields, BufferAllocator allocator,
            Map<Integer, CarriedColumn> carried)
            throws ParquetCorruptionException, ParquetUnsupportedException
    {
        this.input = input;
        this.file = input.name();
        this.options = options;
        this.footer = footer;
        this.fileFields = fileFields;
        this.allocator = allocator;
        this.readers = new ColumnReader[footer.leaves().size()];
        SchemaBinding binding = new SchemaBinding(file, footer, options, fileFields, carried, readers);
        this.assemblers = binding.assemblers();
        this.neededLeaves = binding.neededLeaves();
        this.matchedColumns = binding.matchedColumns();
        this.dictionaryIdColumns = binding.dictionaryIdColumns();
        this.batchSizer = new BatchSizer(options, neededLeaves);
        PageIndexReader pageIndexes = new PageIndexReader(input, footer, metrics);
        this.chunks = new ColumnChunkOpener(input, footer, pageIndexes, metrics);
        this.rowGroupPruner = options.filter().map(filter -> new RowGroupPruner(input, footer, filter, metrics));
        this.pageIndexPruner = options.filter().map(filter -> new PageIndexPruner(footer, filter, pageIndexes, metrics));
        long rows = 0;
        for (RowGroup rowGroup : footer.metadata().getRow_groups()) {
            rows += rowGroup.getNum_rows();
        }
        this.fileRowCount = rows;
        this.metrics.rowGroups = footer.metadata().getRow_groups().size();
        this.root = VectorSchemaRoot.create(ArrowTypes.toArrowSchema(options.columns()), allocator);
        this.selectiveWindows = neededLeaves.stream().allMatch(leaf -> footer.leaves().get(leaf).repetitionLevel() == 0);
    }

    /**
     * Reads and checks the footer and matches the requested columns to the file's. The reader
     * allocates only from a child of {@code allocator}, which {@link #close()} releases.
     */
    public static ParquetReader open(DataFileInput input, ReadOptions options, BufferAllocator allocator)
            throws IOException
    {
        return open(input, options, Optional.empty(), allocator);
    }

    /**
     * {@link #open(DataFileInput, ReadOptions, BufferAllocator)} of a file written with the
     * top-level fields {@code fileFields} (the Paimon schema its data file meta names). Every
     * field of that schema must then be in the file under its field id (a file of a Paimon before
     * 1.0, which wrote no field ids, takes them from the names: {@link LegacyFieldIds}), with the Parquet layout
     * Paimon writes for its type ({@link PaimonParquetLayout}), and the file may hold no other
     * fields but Paimon's system fields: anything else fails as corrupt. A requested column
     * whose field id that schema lacks (one added later) reads as nulls.
     */
    public static ParquetReader open(DataFileInput input, ReadOptions options, List<DataField> fileFields, BufferAllocator allocator)
            throws IOException
    {
        requireNonNull(fileFields, "fileFields is null");
        Map<Integer, DataField> byId = new LinkedHashMap<>();
        for (DataField field : fileFields) {
            if (byId.put(field.id(), field) != null) {
                throw new IllegalArgumentException("Field id " + field.id() + " occurs twice in the file fields of " + input.name());
            }
        }
        return open(input, options, Optional.of(Collections.unmodifiableMap(byId)), allocator);
    }

    private static ParquetReader open(DataFileInput input, ReadOptions options, Optional<Map<Integer, DataField>> fileFields, BufferAllocator allocator)
            throws IOException
    {
        requireNonNull(input, "input is null");
        requireNonNull(options, "options is null");
        requireNonNull(allocator, "allocator is null");
        SchemaBinding.checkReadable(input.name(), options);
        ParquetFooter footer;
        try {
            footer = ParquetFooter.read(input);
        }
        catch (ParquetCorruptionException | ParquetUnsupportedException e) {
            throw e;
        }
        catch (RuntimeException e) {
            throw new ParquetCorruptionException("File " + input.name() + " has a corrupt footer: " + e, e);
        }
        if (fileFields.isPresent()) {
            LegacyFieldIds.assignByName(footer, fileFields.get().values());
        }
        ParquetReader reader = create(input, options, footer, fileFields, allocator, Map.of());
        reader.metrics.bytesRead += footer.fileLength() - footer.footerStart() + 12;
        return reader;
    }

    /**
     * A new reader of the same file with other options (columns, row selection), on the footer
     * this reader already read and checked: a filter pass and the read of the rows it keeps open
     * the file twice, but read and parse its footer once. The two readers are independent; either
     * may be closed first.
     */
    @Override
    public ParquetReader reopen(ReadOptions options, BufferAllocator allocator)
            throws IOException
    {
        return reopen(options, allocator, Map.of());
    }

    /**
     * {@link #reopen(ReadOptions, BufferAllocator)} where the columns whose field ids are
     * keys of {@code carried} take their values from there, in order, instead of from the file:
     * the values of the rows the options select, which a filter pass over those columns
     * collected. The options must then select exactly those rows and carry no filter (which
     * could prune pages); the reader does not close the carried columns.
     */
    @Override
    public ParquetReader reopen(ReadOptions options, BufferAllocator allocator, Map<Integer, CarriedColumn> carried)
            throws IOException
    {
        requireNonNull(options, "options is null");
        requireNonNull(allocator, "allocator is null");
        requireNonNull(carried, "carried is null");
        if (!carried.isEmpty() && (options.filter().isPresent() || options.rowSelection().isEmpty())) {
            throw new IllegalArgumentException("Carried columns need an exact row selection and no filter");
        }
        SchemaBinding.checkReadable(input.name(), options);
        return create(input, options, footer, fileFields, allocator, Map.copyOf(carried));
    }

    private static ParquetReader create(DataFileInput input, ReadOptions options, ParquetFooter footer, Optional<Map<Integer, DataField>> fileFields, BufferAllocator allocator,
            Map<Integer, CarriedColumn> carried)
            throws ParquetCorruptionException, ParquetUnsupportedException
    {
        BufferAllocator child = allocator.newChildAllocator("parquet-reader " + input.name(), 0, allocator.getLimit());
        try {
            return new ParquetReader(input, options, footer, fileFields, child, carried);
        }
        catch (ParquetCorruptionException | ParquetUnsupportedException | RuntimeException e) {
            child.close();
            if (e instanceof RuntimeException) {
                throw new ParquetCorruptionException("File " + input.name() + " has a schema that cannot be read: " + e, e);
            }
            throw e;
        }
    }

    /**
     * The batch of the last successful {@link #nextBatch()}: owned by the reader, valid until
     * the next call to {@code nextBatch()} or {@code close()}; its buffers are reused.
     */
    @Override
    public VectorSchemaRoot root()
    {
        return root;
    }

    /**
     * Rows in the file according to its footer, before any skipping.
     */
    @Override
    public long fileRowCount()
    {
        return fileRowCount;
    }

    /**
     * Writes the positions in the file of the current batch's rows, ascending, into
     * {@code positions[0, root().getRowCount())}. A batch's rows are consecutive file rows unless
     * a row selection or the page index left some out; they are then the selected rows of the
     * stretch of the row group the batch covers.
     */
    @Override
    public void batchPositions(int[] positions)
            throws ParquetUnsupportedException
    {
        int rows = root.getRowCount();
        if (positions.length < rows) {
            throw new IllegalArgumentException("Room for " + positions.length + " positions, but the batch has " + rows + " rows");
        }
        if (rows == 0) {
            return;
        }
        if (rowGroupStart + rowGroupRows > Integer.MAX_VALUE) {
            throw new ParquetUnsupportedException("File " + file + " has more than 2^31 rows, beyond what a row position can address");
        }
        int first = (int) (rowGroupStart + batchStart);
        if (rowGroupSelection == null) {
            for (int i = 0; i < rows; i++) {
                positions[i] = first + i;
            }
            return;
        }
        selection.positions((int) batchStart, rows, (int) rowGroupStart, positions, file);
    }

    /**
     * The heap this reader holds between batches: the loaded windows of its column chunks, the
     * decompressed pages, dictionaries and decoded values of the batch. Its Arrow memory is its
     * allocator's.
     */
    @Override
    public long retainedHeapBytes()
    {
        if (closed) {
            return 0;
        }
        long bytes = 0;
        for (ColumnReader reader : readers) {
            if (reader != null) {
                bytes += reader.retainedBytes();
            }
        }
        return bytes;
    }

    /**
     * A snapshot of the counters so far.
     */
    @Override
    public ReaderMetrics metrics()
    {
        return metrics.snapshot();
    }

    /**
     * Fills {@link #root()} with the next batch of between 1 and {@code batchSize} rows, in file
     * order; false (and an empty root) at the end of the file. A failure leaves the reader
     * unusable except for {@link #close()}.
     *
     * @throws ParquetCorruptionException when the file breaks the format
     * @throws ParquetUnsupportedException when it uses a feature this reader lacks
     */
    @Override
    public boolean nextBatch()
            throws IOException
    {
        if (closed) {
            throw new IllegalStateException("Reader of " + file + " is closed");
        }
        try {
            while (true) {
                if (rowGroupIndex < 0 || position >= rowGroupRows) {
                    if (!nextRowGroup()) {
                        root.setRowCount(0);
                        return false;
                    }
                    continue;
                }
                int rows = readBatchRows();
                if (rows == 0) {
                    continue;
                }
                List<FieldVector> vectors = root.getFieldVectors();
                batchMatches.clear();
                for (int i = 0; i < assemblers.size(); i++) {
                    activeColumn = options.columns().get(i).name();
                    MatchedColumn matched = matchedColumns.get(i);
                    if (matched == null) {
                        assemblers.get(i).write(vectors.get(i), 0, 0, rows);
                    }
                    else {
                        batchMatches.put(matched.equality().leaf(), matched.matches(readers[matched.leaf()], rows));
                    }
                }
                activeColumn = null;
                root.setRowCount(rows);
                batchSizer.measure(readers, rows);
                metrics.rowsRead += rows;
                return true;
            }
        }
        catch (UnsupportedEncodingException e) {
            throw new ParquetUnsupportedException("File " + file + columnSuffix() + ": " + e.getMessage(), e);
        }
        catch (UncheckedIOException e) {
            // a page loaded on demand could not be read: the file, not its content, failed
            throw e.getCause();
        }
        catch (OutOfMemoryException e) {
            // the allocator's limit, not the file
            throw e;
        }
        catch (RuntimeException e) {
            throw new ParquetCorruptionException("File " + file + columnSuffix() + " is corrupt: " + e.getMessage(), e);
        }
    }

    private String activeColumn;

    private String columnSuffix()
    {
        return activeColumn == null ? "" : " column " + activeColumn;
    }

    private int readBatchRows()
    {
        batchStart = position;
        int batchSize = batchSizer.rows();
        for (int leaf : neededLeaves) {
            readers[leaf].startBatch();
        }
        if (rowGroupSelection == null) {
            int rows = (int) Math.min(batchSize, rowGroupRows - position);
            readAll(rows);
            position += rows;
            return rows;
        }
        if (selectiveWindows) {
            int window = (int) Math.min(batchSize, rowGroupRows - position);
            int selected = selection.select(position, window, options.batchSize());
            if (selected * 4L >= window * 3L || (selected * 8L >= window && selection.selectedRuns() * 32L >= window - selected)) {
                // dense (most rows selected, or many short runs: walking the runs one by one
                // costs more than decoding the rows between them): one pass over the window per
                // column, copying only the selected rows' values
                if (selected == window) {
                    readAll(window);
                }
                else {
                    readSelected(window);
                }
                metrics.rowsSkippedBySelection += window - selected;
                position += window;
                return selected;
            }
        }
        // sparse: find the batch's selected runs first, then walk each column through all of them
        // in one go (skip the gap, read the run), which keeps one decoder hot at a time
        int runs = 0;
        int out = 0;
        long cursor = position;
        while (out < batchSize && cursor < rowGroupRows) {
            long next = rowGroupSelection.nextValue((int) cursor);
            if (next < 0 || next >= rowGroupRows) {
                metrics.rowsSkippedBySelection += rowGroupRows - cursor;
                cursor = rowGroupRows;
                break;
            }
            long runEnd = Math.min(rowGroupSelection.nextAbsentValue((int) next), rowGroupRows);
            int rows = (int) Math.min(runEnd - next, batchSize - out);
            if (runs == runGaps.length) {
                runGaps = Arrays.copyOf(runGaps, runs * 2);
                runRows = Arrays.copyOf(runRows, runs * 2);
            }
            runGaps[runs] = next - cursor;
            runRows[runs] = rows;
            runs++;
            metrics.rowsSkippedBySelection += next - cursor;
            cursor = next + rows;
            out += rows;
        }
        for (int leaf : neededLeaves) {
            activeColumn = footer.leaves().get(leaf).name();
            ColumnReader reader = readers[leaf];
            for (int run = 0; run < runs; run++) {
                if (runGaps[run] > 0) {
                    reader.skipRows(runGaps[run]);
                }
                reader.readRows(runRows[run]);
            }
        }
        activeColumn = null;
        position = cursor;
        return out;
    }

    private void readSelected(int window)
    {
        for (int leaf : neededLeaves) {
            activeColumn = footer.leaves().get(leaf).name();
            readers[leaf].readSelectedRows(window, selection.mask());
        }
        activeColumn = null;
    }

    private void readAll(int rows)
    {
        for (int leaf : neededLeaves) {
            activeColumn = footer.leaves().get(leaf).name();
            readers[leaf].readRows(rows);
        }
        activeColumn = null;
    }

    private boolean nextRowGroup()
            throws IOException
    {
        List<RowGroup> rowGroups = footer.metadata().getRow_groups();
        while (true) {
            if (rowGroupIndex >= 0) {
                rowGroupStart += rowGroupRows;
            }
            rowGroupIndex++;
            if (rowGroupIndex >= rowGroups.size()) {
                rowGroupRows = 0;
                position = 0;
                return false;
            }
            RowGroup rowGroup = rowGroups.get(rowGroupIndex);
            rowGroupRows = rowGroup.getNum_rows();
            position = 0;
            if (rowGroupRows == 0) {
                continue;
            }
            if (rowGroupPruner.isPresent() && !rowGroupPruner.get().mightMatch(rowGroup)) {
                metrics.rowGroupsSkipped++;
                continue;
            }
            rowGroupSelection = null;
            if (options.rowSelection().isPresent()) {
                RoaringBitmap selection = options.rowSelection().get();
                if (rowGroupStart + rowGroupRows > Integer.MAX_VALUE) {
                    throw new ParquetUnsupportedException("File " + file + " has more than 2^31 rows, beyond what a row selection can address");
                }
                RoaringBitmap local = RoaringBitmap.addOffset(
                        RoaringBitmap.and(selection, RoaringBitmap.bitmapOfRange(rowGroupStart, rowGroupStart + rowGroupRows)),
                        -rowGroupStart);
                if (local.isEmpty()) {
                    metrics.rowsSkippedBySelection += rowGroupRows;
                    continue;
                }
                rowGroupSelection = local;
            }
            if (pageIndexPruner.isPresent()) {
                RoaringBitmap pages = pageIndexPruner.get().keptRows(rowGroup, rowGroupRows);
                if (pages != null) {
                    rowGroupSelection = rowGroupSelection == null ? pages : RoaringBitmap.and(rowGroupSelection, pages);
                    if (rowGroupSelection.isEmpty()) {
                        continue;
                    }
                }
            }
            if (rowGroupSelection != null) {
                selection.reset(rowGroupSelection);
            }
            openColumns(rowGroup);
            batchSizer.startRowGroup(rowGroup, rowGroupRows);
            return true;
        }
    }

    private void openColumns(RowGroup rowGroup)
            throws IOException
    {
        chunks.announceLoads(neededLeaves, rowGroup, rowGroupRows, rowGroupSelection);
        for (int leaf : neededLeaves) {
            readers[leaf] = chunks.open(leaf, rowGroup, rowGroupRows, rowGroupSelection);
        }
        for (MatchedColumn matched : matchedColumns.values()) {
            readers[matched.leaf()].matchValues(matched.matcher());
        }
        for (int leaf : dictionaryIdColumns.values()) {
            readers[leaf].recordDictionaryIds();
        }
    }

    /**
     * The verdicts of the filter's equality tests that this batch answered in the pages, keyed
     * by the leaf of the options' filter (compare by identity); empty unless the options match
     * filter columns. Valid until the next batch.
     */
    @Override
    public Map<Predicate, LeafMatches> filterMatches()
    {
        return Collections.unmodifiableMap(batchMatches);
    }

    /**
     * The dictionary ids of output column {@code column} in the current batch: present when the
     * options ask for them, the column is a string or binary column, and every value of the
     * batch came from dictionary-encoded pages. Valid until the next batch.
     */
    @Override
    public Optional<DictionaryIds> dictionaryIds(int column)
    {
        Integer leaf = dictionaryIdColumns.get(column);
        if (leaf == null || closed || rowGroupIndex < 0) {
            return Optional.empty();
        }
        ColumnReader reader = readers[leaf];
        ValueBuffer dictionary = reader.dictionary();
        int rows = root.getRowCount();
        if (dictionary == null || !reader.valueIdsComplete || reader.valueIdCount != reader.values.count || reader.entries != rows) {
            return Optional.empty();
        }
        if (reader.valueIdCount == rows) {
            // a value per row: the values' ids are the rows' ids
            return Optional.of(new DictionaryIds(dictionary.bytes, dictionary.offsets, dictionary.count, reader.valueIds, rows));
        }
        if (rowIds.length < rows) {
            rowIds = new int[ValueBuffer.grow(rowIds.length, rows)];
        }
        // nulls take no value: walk the definition levels
        int value = 0;
        for (int row = 0; row < rows; row++) {
            rowIds[row] = reader.definitions[row] == reader.maxDefinition() ? reader.valueIds[value++] : -1;
        }
        return Optional.of(new DictionaryIds(dictionary.bytes, dictionary.offsets, dictionary.count, rowIds, rows));
    }

    /**
     * Releases the batch and the child allocator; idempotent.
     */
    @Override
    public void close()
    {
        if (closed) {
            return;
        }
        closed = true;
        try {
            root.close();
        }
        finally {
            allocator.close();
        }
    }
}
