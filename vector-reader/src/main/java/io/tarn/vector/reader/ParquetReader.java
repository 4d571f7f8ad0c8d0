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
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.parquet.format.RowGroup;
import org.roaringbitmap.RoaringBitmap;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

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
 * {@link RowGroupCursor} moves through the row groups to read and which of their rows, with
 * {@link RowGroupPruner} and {@link PageIndexPruner} pruning by the filter,
 * {@link ColumnChunkOpener} opens a {@link ColumnReader} (over a {@link PageReader}) per leaf
 * and row group, {@link RowGroupSelection} and {@link SelectedRuns} walk the selected rows,
 * {@link BatchSizer} sizes the batches, {@link FieldAssembler}s write the decoded leaves into
 * the batch, and {@link RowDictionaryIds} gives a batch's dictionary ids by row.
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
    private final ReaderMetrics.Accumulator metrics = new ReaderMetrics.Accumulator();
    private final RowGroupCursor rowGroups;
    // by output column index: the columns compared in their pages, not decoded (see ReadOptions)
    private final Map<Integer, MatchedColumn> matchedColumns;
    private final Map<Predicate, LeafMatches> batchMatches = new IdentityHashMap<>();
    // by output column index: the leaves of the columns whose dictionary ids are recorded
    private final Map<Integer, Integer> dictionaryIdColumns;
    private final Set<Integer> valuesAsIdsLeaves;
    // by output column index: the decoded columns whose equality tests are answered per dictionary entry
    private final Map<Integer, DictionaryMatchedColumn> dictionaryMatchedColumns;
    private final RowDictionaryIds rowDictionaryIds = new RowDictionaryIds();

    // where in the current row group the next batch begins
    private long position;
    // where in the row group the current batch began
    private long batchStart;
    // dense windows of a row selection are read in one pass per column that passes over the
    // values of the unselected rows, when no needed column is repeated
    private final boolean selectiveWindows;
    private final SelectedRuns selectedRuns = new SelectedRuns(metrics);
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
        this.valuesAsIdsLeaves = binding.valuesAsIdsLeaves();
        this.dictionaryMatchedColumns = binding.dictionaryMatchedColumns();
        this.batchSizer = new BatchSizer(options, neededLeaves);
        PageIndexReader pageIndexes = new PageIndexReader(input, footer, metrics);
        this.chunks = new ColumnChunkOpener(input, footer, pageIndexes, metrics);
        this.rowGroups = new RowGroupCursor(input, footer, options, pageIndexes, metrics);
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
        return rowGroups.fileRowCount();
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
        rowGroups.positions(batchStart, rows, positions);
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
                if (!rowGroups.started() || position >= rowGroups.rows()) {
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
                for (DictionaryMatchedColumn matched : dictionaryMatchedColumns.values()) {
                    matched.addMatches(readers[matched.leaf()], rows, rowDictionaryIds, batchMatches);
                }
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
        long rowGroupRows = rowGroups.rows();
        RoaringBitmap rowGroupSelection = rowGroups.selection();
        RowGroupSelection selection = rowGroups.selectedRows();
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
                    readSelected(window, selection.mask());
                }
                metrics.rowsSkippedBySelection += window - selected;
                position += window;
                return selected;
            }
        }
        // sparse: find the batch's selected runs first, then walk each column through all of them
        int out = selectedRuns.find(rowGroupSelection, position, rowGroupRows, batchSize);
        for (int leaf : neededLeaves) {
            activeColumn = footer.leaves().get(leaf).name();
            selectedRuns.read(readers[leaf]);
        }
        activeColumn = null;
        position = selectedRuns.end();
        return out;
    }

    private void readSelected(int window, long[] mask)
    {
        for (int leaf : neededLeaves) {
            activeColumn = footer.leaves().get(leaf).name();
            readers[leaf].readSelectedRows(window, mask);
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
        position = 0;
        if (!rowGroups.next()) {
            return false;
        }
        RowGroup rowGroup = rowGroups.rowGroup();
        openColumns(rowGroup);
        batchSizer.startRowGroup(rowGroup, rowGroups.rows());
        return true;
    }

    private void openColumns(RowGroup rowGroup)
            throws IOException
    {
        chunks.announceLoads(neededLeaves, rowGroup, rowGroups.rows(), rowGroups.selection());
        for (int leaf : neededLeaves) {
            readers[leaf] = chunks.open(leaf, rowGroup, rowGroups.rows(), rowGroups.selection());
        }
        for (MatchedColumn matched : matchedColumns.values()) {
            readers[matched.leaf()].matchValues(matched.matcher());
        }
        for (int leaf : dictionaryIdColumns.values()) {
            if (valuesAsIdsLeaves.contains(leaf)) {
                readers[leaf].leaveValuesAsIds();
            }
            else {
                readers[leaf].recordDictionaryIds();
            }
        }
        for (DictionaryMatchedColumn matched : dictionaryMatchedColumns.values()) {
            readers[matched.leaf()].recordDictionaryIds();
        }
    }

    /**
     * The verdicts of the filter's equality tests that this batch answered in the pages (when
     * the options match filter columns) or per dictionary entry (for decoded columns whose values
     * in this batch all came from a dictionary), keyed by the leaf of the options' filter
     * (compare by identity). Valid until the next batch.
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
        if (leaf == null || closed || !rowGroups.started()) {
            return Optional.empty();
        }
        return rowDictionaryIds.of(readers[leaf], root.getRowCount());
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
