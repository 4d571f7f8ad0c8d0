package io.tarn.vector.orc;

import io.tarn.index.predicate.Predicate;
import io.tarn.types.ArrayType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.MapType;
import io.tarn.types.MultisetType;
import io.tarn.types.RowType;
import io.tarn.types.TypeRoot;
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
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * Reads an ORC data file of a Paimon table into Arrow batches, without ORC's or Hadoop's
 * libraries: the tail, stripe footers and row indexes are parsed by Tarn's own protobuf reader,
 * and the streams decoded by its own run-length decoders.
 * <p>
 * Output columns are matched to the file's columns by Paimon field id ({@link OrcSchemaBinding});
 * a column the file lacks reads as nulls. With a filter, stripes whose statistics prove that no
 * row matches are skipped, then the 10,000-row groups of the row index likewise, and groups
 * whose Bloom filters hold none of an equality or IN filter's values ({@link OrcPruner},
 * {@link BloomFilterPruner}); the optional row selection limits the output to the selected file rows,
 * in file order. Rows left out are passed over in the streams, not decoded into the batch. The
 * reader decodes every column it returns: it gives no page-level filter verdicts, dictionary ids
 * or carried columns, and {@link #reopen} decodes carried columns again.
 * <p>
 * Trust contract: every length, offset and count from the file is checked before it is used or
 * allocated for; any violation is a {@link DataFileCorruptionException} naming the file, an
 * unsupported feature (codec, encryption, ORC version 2, a type conversion) a
 * {@link DataFileUnsupportedException}. No other exception escapes from reading a file's bytes.
 * The reader works in a child allocator that {@link #close()} releases.
 */
public final class OrcReader
        implements DataFileReader
{
    private final DataFileInput input;
    private final String file;
    private final ReadOptions options;
    private final OrcTail tail;
    private final Optional<List<DataField>> fileFields;
    private final boolean legacyTimestampLtz;
    private final BufferAllocator allocator;
    private final VectorSchemaRoot root;
    private final List<ColumnDecoder> decoders;
    private final Set<Integer> dataColumns;
    private final OrcCodec codec;
    private final Optional<OrcPruner> pruner;

    private long rowGroupsSkipped;
    private long rowsRead;
    private long rowsSkippedBySelection;
    private long bytesRead;

    private int stripeIndex = -1;
    private long stripeStart;
    private long stripeRows;
    private long position;
    // the stripe's rows to read (stripe positions), null for all
    private RoaringBitmap stripeSelection;
    // with a row selection or a filter: the row indexes of the columns read, to move past
    // unselected row groups without decoding them; null where the stripe has none
    private RowIndexes rowIndexes;
    private int rowIndexStride;
    private int batchRows;
    // the file positions of the batch's rows when they are not consecutive
    private int[] positions = new int[0];
    private boolean positionsListed;
    private long batchFirst;
    private boolean closed;

    private OrcReader(DataFileInput input, ReadOptions options, OrcTail tail, Optional<List<DataField>> fileFields, boolean legacyTimestampLtz, BufferAllocator allocator)
            throws DataFileCorruptionException, DataFileUnsupportedException
    {
        this.input = input;
        this.file = input.name();
        this.options = options;
        this.tail = tail;
        this.fileFields = fileFields;
        this.legacyTimestampLtz = legacyTimestampLtz;
        this.allocator = allocator;
        OrcSchemaBinding binding = new OrcSchemaBinding(file, tail.footer().types(), fileFields, legacyTimestampLtz, tail.footer().calendar() != FileFooter.PROLEPTIC_GREGORIAN);
        List<ColumnDecoder> built = new ArrayList<>();
        Set<Integer> columns = new HashSet<>();
        for (DataField column : options.columns()) {
            ColumnDecoder decoder = binding.topLevel(column);
            decoder.collectColumns(columns);
            built.add(decoder);
        }
        this.decoders = List.copyOf(built);
        this.dataColumns = Set.copyOf(columns);
        this.pruner = options.filter().isPresent()
                ? Optional.of(new OrcPruner(tail, binding, options.filter().get(), fileFields, legacyTimestampLtz))
                : Optional.empty();
        this.codec = tail.newCodec();
        this.root = VectorSchemaRoot.create(ArrowTypes.toArrowSchema(options.columns()), allocator);
        this.batchRows = options.batchSize();
    }

    /**
     * Reads and checks the file's tail and matches the requested columns to the file's: by field
     * id, or by the names in {@code fileFields} (the top-level fields of the schema the file was
     * written with) for files without ids. A requested column whose field id that schema lacks
     * (one added later) reads as nulls; one it has must be in the file. TIMESTAMP_LTZ columns are
     * read as Paimon writes them by default ({@code orc.timestamp-ltz.legacy.type=true}).
     */
    public static OrcReader open(DataFileInput input, ReadOptions options, List<DataField> fileFields, BufferAllocator allocator)
            throws IOException
    {
        return open(input, options, fileFields, true, allocator);
    }

    /**
     * {@link #open(DataFileInput, ReadOptions, List, BufferAllocator)} of a table whose option
     * {@code orc.timestamp-ltz.legacy.type} is {@code legacyTimestampLtz}: when true (Paimon's
     * default), Paimon's writer stores a TIMESTAMP_LTZ as the instant at which the writer's time
     * zone shows the value's UTC wall clock, which this reader undoes with the writer's zone the
     * file records; when false, the instant itself.
     */
    public static OrcReader open(DataFileInput input, ReadOptions options, List<DataField> fileFields, boolean legacyTimestampLtz, BufferAllocator allocator)
            throws IOException
    {
        requireNonNull(fileFields, "fileFields is null");
        return open(input, options, Optional.of(List.copyOf(fileFields)), legacyTimestampLtz, allocator);
    }

    /**
     * Reads a file without knowing the schema it was written with: columns are matched by field
     * id, or by their requested names in a file without ids.
     */
    public static OrcReader open(DataFileInput input, ReadOptions options, BufferAllocator allocator)
            throws IOException
    {
        return open(input, options, Optional.empty(), true, allocator);
    }

    private static OrcReader open(DataFileInput input, ReadOptions options, Optional<List<DataField>> fileFields, boolean legacyTimestampLtz, BufferAllocator allocator)
            throws IOException
    {
        requireNonNull(input, "input is null");
        requireNonNull(options, "options is null");
        requireNonNull(allocator, "allocator is null");
        OrcTail tail;
        try {
            tail = OrcTail.read(input);
        }
        catch (DataFileCorruptionException | DataFileUnsupportedException e) {
            throw e;
        }
        catch (OrcLimitException e) {
            throw new DataFileUnsupportedException("File " + input.name() + ": " + e.getMessage(), e);
        }
        catch (RuntimeException e) {
            throw new DataFileCorruptionException("File " + input.name() + " has a corrupt ORC tail: " + e, e);
        }
        OrcReader reader = create(input, options, tail, fileFields, legacyTimestampLtz, allocator);
        reader.bytesRead += tail.tailLength();
        return reader;
    }

    private static OrcReader create(DataFileInput input, ReadOptions options, OrcTail tail, Optional<List<DataField>> fileFields, boolean legacyTimestampLtz, BufferAllocator allocator)
            throws IOException
    {
        for (DataField column : options.columns()) {
            if (column.type().contains(TypeRoot.VARIANT)) {
                throw new DataFileUnsupportedException("Reading column " + column.name() + " of type VARIANT from " + input.name() + " is not supported");
            }
        }
        BufferAllocator child = allocator.newChildAllocator("orc-reader " + input.name(), 0, allocator.getLimit());
        try {
            return new OrcReader(input, options, tail, fileFields, legacyTimestampLtz, child);
        }
        catch (DataFileCorruptionException | DataFileUnsupportedException | RuntimeException e) {
            child.close();
            if (e instanceof RuntimeException) {
                throw new DataFileCorruptionException("File " + input.name() + " has an ORC schema that cannot be read: " + e, e);
            }
            throw e;
        }
    }

    /**
     * A new reader of the same file with other options, on the tail this reader read. Carried
     * columns are decoded again from the file (the contract allows it), so they are ignored.
     */
    @Override
    public OrcReader reopen(ReadOptions options, BufferAllocator allocator, Map<Integer, CarriedColumn> carried)
            throws IOException
    {
        requireNonNull(options, "options is null");
        requireNonNull(allocator, "allocator is null");
        requireNonNull(carried, "carried is null");
        return create(input, options, tail, fileFields, legacyTimestampLtz, allocator);
    }

    @Override
    public VectorSchemaRoot root()
    {
        return root;
    }

    @Override
    public long fileRowCount()
    {
        return tail.footer().numberOfRows();
    }

    @Override
    public boolean nextBatch()
            throws IOException
    {
        if (closed) {
            throw new IllegalStateException("Reader of " + file + " is closed");
        }
        try {
            while (true) {
                if (stripeIndex < 0 || position >= stripeRows) {
                    if (!nextStripe()) {
                        root.setRowCount(0);
                        return false;
                    }
                    continue;
                }
                int rows = readBatch();
                if (rows == 0) {
                    continue;
                }
                List<FieldVector> vectors = root.getFieldVectors();
                long batchBytes = 0;
                for (int i = 0; i < decoders.size(); i++) {
                    ColumnDecoder decoder = decoders.get(i);
                    decoder.write(vectors.get(i), rows, null);
                    batchBytes += decoder.batchBytes();
                }
                root.setRowCount(rows);
                rowsRead += rows;
                batchRows = fittingRows((double) batchBytes / rows);
                return true;
            }
        }
        catch (DataFileCorruptionException | DataFileUnsupportedException e) {
            throw e;
        }
        catch (OrcLimitException e) {
            throw new DataFileUnsupportedException("File " + file + ": " + e.getMessage(), e);
        }
        catch (OutOfMemoryException e) {
            // the allocator's limit, not the file
            throw e;
        }
        catch (RuntimeException e) {
            throw new DataFileCorruptionException("File " + file + " is corrupt" + stripeSuffix() + ": " + e.getMessage(), e);
        }
    }

    private String stripeSuffix()
    {
        return stripeIndex >= 0 && stripeIndex < tail.footer().stripes().size() ? " in stripe " + stripeIndex : "";
    }

    private int fittingRows(double bytesPerRow)
    {
        if (bytesPerRow <= 0) {
            return options.batchSize();
        }
        return (int) Math.max(1, Math.min(options.batchSize(), options.maxBatchBytes() / bytesPerRow));
    }

    private int readBatch()
    {
        for (ColumnDecoder decoder : decoders) {
            decoder.startBatch();
        }
        int limit = batchRows;
        if (stripeSelection == null) {
            int rows = (int) Math.min(limit, stripeRows - position);
            for (ColumnDecoder decoder : decoders) {
                decoder.read(rows);
            }
            positionsListed = false;
            batchFirst = stripeStart + position;
            position += rows;
            return rows;
        }
        positionsListed = true;
        if (positions.length < limit) {
            positions = new int[Math.max(limit, positions.length * 2)];
        }
        long cursor = position;
        int out = 0;
        while (out < limit && cursor < stripeRows) {
            long next = stripeSelection.nextValue((int) cursor);
            if (next < 0 || next >= stripeRows) {
                rowsSkippedBySelection += stripeRows - cursor;
                cursor = stripeRows;
                break;
            }
            long runEnd = Math.min(stripeSelection.nextAbsentValue((int) next), stripeRows);
            int rows = (int) Math.min(runEnd - next, limit - out);
            long gap = next - cursor;
            long groupStart = rowIndexes == null ? 0 : next / rowIndexStride * rowIndexStride;
            for (ColumnDecoder decoder : decoders) {
                if (rowIndexes != null && groupStart > cursor) {
                    // the next selected row lies in a later row group: move there by the row index
                    decoder.seek(rowIndexes, (int) (next / rowIndexStride));
                    decoder.skip(next - groupStart);
                }
                else if (gap > 0) {
                    decoder.skip(gap);
                }
                decoder.read(rows);
            }
            rowsSkippedBySelection += gap;
            for (int k = 0; k < rows; k++) {
                positions[out + k] = (int) (stripeStart + next + k);
            }
            out += rows;
            cursor = next + rows;
        }
        position = cursor;
        return out;
    }

    private boolean nextStripe()
            throws IOException
    {
        List<StripeInformation> stripes = tail.footer().stripes();
        while (true) {
            if (stripeIndex >= 0) {
                stripeStart += stripeRows;
            }
            stripeIndex++;
            position = 0;
            if (stripeIndex >= stripes.size()) {
                stripeRows = 0;
                return false;
            }
            StripeInformation stripe = stripes.get(stripeIndex);
            stripeRows = stripe.numberOfRows();
            if (stripeRows == 0) {
                continue;
            }
            if (pruner.isPresent() && !pruner.get().stripeMightMatch(stripeIndex, stripeRows, codec)) {
                rowGroupsSkipped++;
                continue;
            }
            stripeSelection = null;
            if (options.rowSelection().isPresent()) {
                if (stripeStart + stripeRows > Integer.MAX_VALUE) {
                    throw new DataFileUnsupportedException("File " + file + " has more than 2^31 rows, beyond what a row selection can address");
                }
                RoaringBitmap local = RoaringBitmap.addOffset(
                        RoaringBitmap.and(options.rowSelection().get(), RoaringBitmap.bitmapOfRange(stripeStart, stripeStart + stripeRows)),
                        -stripeStart);
                if (local.isEmpty()) {
                    rowsSkippedBySelection += stripeRows;
                    continue;
                }
                stripeSelection = local;
            }
            // row indexes prune by the filter and let a selective read skip row groups undecoded
            boolean indexed = pruner.isPresent() || stripeSelection != null;
            Set<Integer> indexColumns = new HashSet<>();
            if (indexed) {
                indexColumns.addAll(dataColumns);
                pruner.ifPresent(value -> indexColumns.addAll(value.indexColumns()));
            }
            Set<Integer> bloomFilterColumns = pruner.isPresent() && tail.footer().rowIndexStride() > 0 ? pruner.get().bloomFilterColumns() : Set.of();
            StripeStreams streams = StripeStreams.read(input, tail, stripeIndex, codec, dataColumns, indexColumns, bloomFilterColumns);
            rowIndexStride = tail.footer().rowIndexStride();
            bytesRead += streams.bytesRead();
            if (pruner.isPresent()) {
                Optional<RoaringBitmap> kept = rowIndexStride > 0 ? pruner.get().keptRows(streams, stripeRows, rowIndexStride, stripeSelection) : Optional.empty();
                if (kept.isPresent()) {
                    long before = stripeSelection == null ? stripeRows : stripeSelection.getLongCardinality();
                    stripeSelection = stripeSelection == null ? kept.get() : RoaringBitmap.and(stripeSelection, kept.get());
                    if (stripeSelection.isEmpty()) {
                        rowsSkippedBySelection += before;
                        continue;
                    }
                }
            }
            if (stripeStart + stripeRows > Integer.MAX_VALUE && stripeSelection != null) {
                throw new DataFileUnsupportedException("File " + file + " has more than 2^31 rows, beyond what a row position can address");
            }
            for (ColumnDecoder decoder : decoders) {
                decoder.startStripe(streams);
            }
            rowIndexes = null;
            if (stripeSelection != null && rowIndexStride > 0) {
                rowIndexes = RowIndexes.read(streams, dataColumns, (stripeRows + rowIndexStride - 1) / rowIndexStride).orElse(null);
            }
            // the first batch of a stripe is sized by the stored bytes of its columns, which decode to several times as many
            batchRows = fittingRows(4.0 * streams.bytesRead() / stripeRows);
            return true;
        }
    }

    @Override
    public void batchPositions(int[] positions)
            throws IOException
    {
        int rows = root.getRowCount();
        if (positions.length < rows) {
            throw new IllegalArgumentException("Room for " + positions.length + " positions, but the batch has " + rows + " rows");
        }
        if (rows == 0) {
            return;
        }
        if (positionsListed) {
            System.arraycopy(this.positions, 0, positions, 0, rows);
            return;
        }
        if (batchFirst + rows > Integer.MAX_VALUE) {
            throw new DataFileUnsupportedException("File " + file + " has more than 2^31 rows, beyond what a row position can address");
        }
        for (int i = 0; i < rows; i++) {
            positions[i] = (int) (batchFirst + i);
        }
    }

    @Override
    public long retainedHeapBytes()
    {
        if (closed) {
            return 0;
        }
        long bytes = 0;
        for (ColumnDecoder decoder : decoders) {
            bytes += decoder.batchBytes();
        }
        return bytes;
    }

    @Override
    public ReaderMetrics metrics()
    {
        long bloomFilterSkips = pruner.map(OrcPruner::rowGroupsSkippedByBloomFilter).orElse(0L);
        return new ReaderMetrics(tail.footer().stripes().size(), rowGroupsSkipped, 0, rowsRead, rowsSkippedBySelection, bytesRead, bloomFilterSkips);
    }

    /**
     * Empty: the reader decodes every column it returns.
     */
    @Override
    public Map<Predicate, LeafMatches> filterMatches()
    {
        return Map.of();
    }

    /**
     * Empty: the reader hands out decoded values only.
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
            if (codec != null) {
                codec.close();
            }
            root.close();
        }
        finally {
            allocator.close();
        }
    }
}
