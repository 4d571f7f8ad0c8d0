package io.tarn.vector.avro;

import io.tarn.index.predicate.Predicate;
import io.tarn.types.DataField;
import io.tarn.vector.ArrowTypes;
import io.tarn.vector.DataFileCorruptionException;
import io.tarn.vector.DataFileUnsupportedException;
import io.tarn.vector.filter.LeafMatches;
import io.tarn.vector.io.DataFileInput;
import io.tarn.vector.reader.CarriedColumn;
import io.tarn.vector.reader.DataFileReader;
import io.tarn.vector.reader.DictionaryIds;
import io.tarn.vector.reader.ReadOptions;
import io.tarn.vector.reader.ReaderMetrics;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.roaringbitmap.RoaringBitmap;

import java.io.IOException;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Reads an Avro data file of a Paimon table (an Avro object container file, see
 * {@link AvroFile}) into Arrow batches, decoding each record's fields straight into the batch's
 * columns and skipping the fields no column asks for: no Avro datum objects are built.
 * <p>
 * Columns are matched to the file's fields through the schema the file was written with
 * ({@link AvroBinding}): Avro files carry field names, not field ids. A column the file lacks
 * reads as nulls. The optional row selection (file row positions) limits the output to the
 * selected rows, in file order; blocks without selected rows are neither read nor decompressed,
 * and a block's records after its last selected one are not looked at. The filter is ignored:
 * Avro files have no statistics to prune by. Carried columns are decoded again.
 * <p>
 * Trust contract: the header, every block's count, size and sync marker, every compressed block
 * and every value's lengths are checked before use ({@link AvroInput}, {@link BlockDecompressor});
 * a block's records must take exactly its bytes. A violation is a
 * {@link DataFileCorruptionException} naming the file (and the Avro field when known), a feature
 * this reader lacks a {@link DataFileUnsupportedException}. The reader works in a child
 * allocator closed by {@link #close()}.
 */
public final class AvroReader
        implements DataFileReader
{
    private final DataFileInput input;
    private final AvroFile file;
    private final ReadOptions options;
    private final Map<Integer, DataField> fileFields;
    private final BufferAllocator allocator;
    private final VectorSchemaRoot root;
    private final AvroBinding binding;
    private final BlockSource blocks;
    private final BlockDecompressor decompressor;
    private final AvroInput in = new AvroInput();
    private final Optional<RoaringBitmap> selection;
    private final long metadataBytesRead;

    // the current block, the index of its next record, and how many of its records the read
    // looks at (up to its last selected one)
    private int block = -1;
    private long blockRow;
    private long blockRowLimit;
    // the next selected file position at or after the next record, or -1
    private long nextSelected = -1;
    private int[] positions = new int[0];
    private long rowsRead;
    private long rowsSkippedBySelection;
    private long blocksSkipped;
    private boolean closed;

    private AvroReader(DataFileInput input, AvroFile file, ReadOptions options, Map<Integer, DataField> fileFields, BufferAllocator allocator, long metadataBytesRead)
            throws IOException
    {
        this.input = input;
        this.file = file;
        this.options = options;
        this.fileFields = fileFields;
        this.allocator = allocator;
        this.metadataBytesRead = metadataBytesRead;
        this.binding = new AvroBinding(file.name(), file.schema(), fileFields, options.columns());
        this.selection = options.rowSelection();
        if (selection.isPresent() && file.rowCount() > Integer.MAX_VALUE) {
            throw new DataFileUnsupportedException("File " + file.name() + " has more than 2^31 rows, beyond what a row selection can address");
        }
        this.blocks = new BlockSource(input, file);
        this.decompressor = new BlockDecompressor(file.codec());
        this.root = VectorSchemaRoot.create(ArrowTypes.toArrowSchema(options.columns()), allocator);
    }

    /**
     * Reads and checks the header of {@code input}, finds its blocks, and matches the requested
     * columns to its fields through {@code fileFields}, the top-level fields of the Paimon
     * schema the file was written with: every one of them must be in the file, by name, as
     * Paimon's Avro writer lays out its type, and the file may hold no other fields but Paimon's
     * system fields. A requested column whose field id that schema lacks (one added later)
     * reads as nulls. The reader allocates only from a child of {@code allocator}, which
     * {@link #close()} releases.
     */
    public static AvroReader open(DataFileInput input, ReadOptions options, List<DataField> fileFields, BufferAllocator allocator)
            throws IOException
    {
        return open(input, options, fileFields, allocator, AvroFile.WINDOW_BYTES);
    }

    /**
     * {@link #open(DataFileInput, ReadOptions, List, BufferAllocator)} reading at least
     * {@code readBytes} at a time.
     */
    static AvroReader open(DataFileInput input, ReadOptions options, List<DataField> fileFields, BufferAllocator allocator, int readBytes)
            throws IOException
    {
        requireNonNull(input, "input is null");
        requireNonNull(options, "options is null");
        requireNonNull(fileFields, "fileFields is null");
        requireNonNull(allocator, "allocator is null");
        Map<Integer, DataField> byId = new LinkedHashMap<>();
        for (DataField field : fileFields) {
            if (byId.put(field.id(), field) != null) {
                throw new IllegalArgumentException("Field id " + field.id() + " occurs twice in the file fields of " + input.name());
            }
        }
        AvroFile file;
        try {
            file = AvroFile.read(input, readBytes);
        }
        catch (DataFileCorruptionException | DataFileUnsupportedException e) {
            throw e;
        }
        catch (RuntimeException e) {
            throw new DataFileCorruptionException("File " + input.name() + " has a corrupt Avro header: " + e, e);
        }
        return create(input, file, options, Collections.unmodifiableMap(byId), allocator, file.metadataBytesRead());
    }

    /**
     * A new reader of the same file with other options, on the header and block positions this
     * reader already read. The two readers are independent; either may be closed first. Carried
     * columns are not used: their values are decoded again, which gives the same values.
     */
    @Override
    public AvroReader reopen(ReadOptions options, BufferAllocator allocator, Map<Integer, CarriedColumn> carried)
            throws IOException
    {
        requireNonNull(options, "options is null");
        requireNonNull(allocator, "allocator is null");
        requireNonNull(carried, "carried is null");
        if (!carried.isEmpty() && (options.filter().isPresent() || options.rowSelection().isEmpty())) {
            throw new IllegalArgumentException("Carried columns need an exact row selection and no filter");
        }
        return create(input, file, options, fileFields, allocator, 0);
    }

    @Override
    public AvroReader reopen(ReadOptions options, BufferAllocator allocator)
            throws IOException
    {
        return reopen(options, allocator, Map.of());
    }

    private static AvroReader create(DataFileInput input, AvroFile file, ReadOptions options, Map<Integer, DataField> fileFields, BufferAllocator allocator, long metadataBytesRead)
            throws IOException
    {
        BufferAllocator child = allocator.newChildAllocator("avro-reader " + file.name(), 0, allocator.getLimit());
        try {
            return new AvroReader(input, file, options, fileFields, child, metadataBytesRead);
        }
        catch (IOException | RuntimeException e) {
            child.close();
            if (e instanceof DataFileUnsupportedException || e instanceof DataFileCorruptionException || e instanceof OutOfMemoryException) {
                throw e;
            }
            if (e instanceof RuntimeException) {
                throw new DataFileCorruptionException("File " + file.name() + " has an Avro schema that cannot be read: " + e, e);
            }
            throw e;
        }
    }

    @Override
    public VectorSchemaRoot root()
    {
        return root;
    }

    /**
     * Rows in the file by its blocks' record counts.
     */
    @Override
    public long fileRowCount()
    {
        return file.rowCount();
    }

    @Override
    public boolean nextBatch()
            throws IOException
    {
        if (closed) {
            throw new IllegalStateException("Reader of " + file.name() + " is closed");
        }
        try {
            StructBuilder columns = binding.columns();
            columns.reset();
            int rows = 0;
            int batchSize = options.batchSize();
            long maxBatchBytes = options.maxBatchBytes();
            ValueDecoder decoder = binding.rowDecoder();
            int nextCheck = 1;
            while (rows < batchSize && nextRecord()) {
                if (rows == positions.length) {
                    positions = Arrays.copyOf(positions, (int) Math.min(batchSize, Math.max(16L, rows * 2L)));
                }
                positions[rows++] = (int) (file.firstRow(block) + blockRow);
                decoder.decode(in);
                blockRow++;
                if (rows == nextCheck) {
                    long bytes = columns.bytes();
                    if (bytes >= maxBatchBytes) {
                        break;
                    }
                    // summing the columns' sizes costs about as much as decoding a row: check
                    // again when, at the rate so far, half the bytes left may be used
                    nextCheck = rows + (int) Math.max(1, Math.min(64, (maxBatchBytes - bytes) * rows / Math.max(1, 2 * bytes)));
                }
            }
            if (rows == 0) {
                root.setRowCount(0);
                return false;
            }
            List<FieldVector> vectors = root.getFieldVectors();
            List<ColumnBuilder> builders = columns.children();
            for (int i = 0; i < vectors.size(); i++) {
                builders.get(i).write(vectors.get(i));
            }
            root.setRowCount(rows);
            rowsRead += rows;
            return true;
        }
        catch (OutOfMemoryException e) {
            // the allocator's limit, not the file
            throw e;
        }
        catch (RuntimeException e) {
            String field = binding.failedField().map(name -> " field " + name).orElse("");
            String where = block < 0 ? "" : " (Avro block at offset " + file.blockStart(block) + ", record " + blockRow + ")";
            throw new DataFileCorruptionException("File " + file.name() + field + " is corrupt" + where + ": " + e.getMessage(), e);
        }
    }

    /**
     * Moves to the next record to decode, skipping unselected records and blocks; false at the
     * end of the file.
     */
    private boolean nextRecord()
            throws IOException
    {
        while (true) {
            if (block >= 0 && blockRow < blockRowLimit) {
                if (selection.isEmpty()) {
                    return true;
                }
                long position = file.firstRow(block) + blockRow;
                if (position == nextSelected) {
                    nextSelected = selection.get().nextValue((int) position + 1);
                    return true;
                }
                binding.rowSkipper().decode(in);
                rowsSkippedBySelection++;
                blockRow++;
                continue;
            }
            if (block >= 0 && block < file.blockCount()) {
                finishBlock();
            }
            if (!nextBlock()) {
                return false;
            }
        }
    }

    private void finishBlock()
            throws DataFileCorruptionException
    {
        long rows = file.blockRows(block);
        if (blockRow == rows && in.remaining() != 0) {
            throw new DataFileCorruptionException("File " + file.name() + " has an Avro block at offset " + file.blockStart(block) + " whose " + rows + " records leave "
                    + in.remaining() + " of its bytes unread");
        }
        rowsSkippedBySelection += rows - blockRow;
    }

    private boolean nextBlock()
            throws IOException
    {
        while (true) {
            block++;
            blockRow = 0;
            blockRowLimit = 0;
            if (block >= file.blockCount()) {
                block = file.blockCount();
                return false;
            }
            long first = file.firstRow(block);
            long rows = file.blockRows(block);
            if (rows == 0) {
                continue;
            }
            if (selection.isPresent()) {
                RoaringBitmap selected = selection.get();
                nextSelected = selected.nextValue((int) first);
                if (nextSelected < 0 || nextSelected >= first + rows) {
                    rowsSkippedBySelection += rows;
                    blocksSkipped++;
                    continue;
                }
                blockRowLimit = selected.previousValue((int) (first + rows - 1)) - first + 1;
            }
            else {
                blockRowLimit = rows;
            }
            blocks.load(block, this::wanted);
            byte[] bytes = blocks.buffer();
            int offset = blocks.offset(block);
            int size = file.blockSize(block);
            int produced = decompressor.decompress(bytes, offset, size);
            if (produced < 0) {
                in.reset(bytes, offset, size);
            }
            else {
                in.reset(decompressor.output(), 0, produced);
            }
            // every record takes at least minRowBytes: a larger count cannot be decoded
            if (rows > in.remaining() / binding.minRowBytes()) {
                throw new DataFileCorruptionException("File " + file.name() + " has an Avro block at offset " + file.blockStart(block) + " that claims " + rows + " records in "
                        + in.remaining() + " bytes");
            }
            return true;
        }
    }

    /**
     * Whether the read will decode records of {@code block}.
     */
    private boolean wanted(int block)
    {
        if (selection.isEmpty()) {
            return true;
        }
        long first = file.firstRow(block);
        long next = selection.get().nextValue((int) first);
        return next >= 0 && next < first + file.blockRows(block);
    }

    /**
     * Writes the positions in the file of the current batch's rows, ascending, into
     * {@code positions[0, root().getRowCount())}.
     */
    @Override
    public void batchPositions(int[] positions)
            throws IOException
    {
        int rows = root.getRowCount();
        if (positions.length < rows) {
            throw new IllegalArgumentException("Room for " + positions.length + " positions, but the batch has " + rows + " rows");
        }
        if (rows > 0 && file.rowCount() > Integer.MAX_VALUE) {
            throw new DataFileUnsupportedException("File " + file.name() + " has more than 2^31 rows, beyond what a row position can address");
        }
        System.arraycopy(this.positions, 0, positions, 0, rows);
    }

    /**
     * The heap this reader holds between batches: the decoded values of the batch, the loaded
     * and the decompressed block bytes, and the file's block table (and contents, when small).
     */
    @Override
    public long retainedHeapBytes()
    {
        if (closed) {
            return 0;
        }
        return binding.columns().retainedBytes() + blocks.retainedBytes() + decompressor.retainedBytes() + file.retainedBytes() + 4L * positions.length;
    }

    /**
     * The counters so far: blocks count as row groups, blocks the row selection skipped unread
     * as pages skipped.
     */
    @Override
    public ReaderMetrics metrics()
    {
        return new ReaderMetrics(file.blockCount(), 0, blocksSkipped, rowsRead, rowsSkippedBySelection, metadataBytesRead + blocks.bytesRead(), 0);
    }

    /**
     * Empty: Avro values are always decoded, and the caller tests them.
     */
    @Override
    public Map<Predicate, LeafMatches> filterMatches()
    {
        return Map.of();
    }

    /**
     * Empty: Avro has no dictionaries.
     */
    @Override
    public Optional<DictionaryIds> dictionaryIds(int column)
    {
        return Optional.empty();
    }

    @Override
    public void close()
    {
        if (closed) {
            return;
        }
        closed = true;
        try {
            decompressor.close();
            root.close();
        }
        finally {
            allocator.close();
        }
    }
}
