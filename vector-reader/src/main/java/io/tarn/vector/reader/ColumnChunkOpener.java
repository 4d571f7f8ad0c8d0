package io.tarn.vector.reader;

import io.tarn.vector.ParquetCorruptionException;
import io.tarn.vector.ParquetUnsupportedException;
import io.tarn.vector.io.ByteRange;
import io.tarn.vector.io.DataFileInput;
import io.tarn.vector.metadata.ParquetFooter;
import io.tarn.vector.metadata.SchemaNode;
import io.tarn.vector.reader.decoders.PageDecompressor;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.OffsetIndex;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.SchemaElement;
import org.roaringbitmap.RoaringBitmap;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Opens the column chunks of a row group for reading: checks each chunk's metadata against the
 * schema and the file (type, codec, extent inside the data), and sets up its page reader, which
 * loads the chunk from the file lazily and counts the bytes read.
 */
final class ColumnChunkOpener
{
    private static final long MAX_CHUNK_SIZE = Integer.MAX_VALUE - 64;

    private final DataFileInput input;
    private final String file;
    private final ParquetFooter footer;
    private final PageIndexReader pageIndexes;
    private final ReaderMetrics.Accumulator metrics;

    ColumnChunkOpener(DataFileInput input, ParquetFooter footer, PageIndexReader pageIndexes, ReaderMetrics.Accumulator metrics)
    {
        this.input = requireNonNull(input, "input is null");
        this.file = input.name();
        this.footer = requireNonNull(footer, "footer is null");
        this.pageIndexes = requireNonNull(pageIndexes, "pageIndexes is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
    }

    /**
     * Tells the input which bytes the chunks of {@code leaves} in {@code rowGroup} will load
     * first, so that a remote input fetches them together and ahead: the first read of each
     * chunk that loads read-size windows. Chunks loaded page by page (a sparse selection with an
     * offset index) are left out, as their pages are not all read. Chunks whose extent is wrong
     * are left out too: {@link #open} reports them.
     */
    void announceLoads(List<Integer> leaves, RowGroup rowGroup, long rowGroupRows, RoaringBitmap rowGroupSelection)
    {
        boolean sparse = rowGroupSelection != null && rowGroupSelection.getLongCardinality() * 2 < rowGroupRows;
        List<ByteRange> ranges = new ArrayList<>(leaves.size());
        for (int leaf : leaves) {
            ColumnChunk chunk = rowGroup.getColumns().get(leaf);
            ColumnMetaData metadata = chunk.getMeta_data();
            if (metadata == null || (sparse && chunk.isSetOffset_index_offset() && chunk.isSetOffset_index_length())) {
                continue;
            }
            long start = ParquetFooter.chunkStart(metadata);
            long size = metadata.getTotal_compressed_size();
            if (start < ParquetFooter.MAGIC.length || size <= 0 || size > MAX_CHUNK_SIZE || start + size > footer.footerStart()) {
                continue;
            }
            ranges.add(new ByteRange(start, Math.min(size, input.preferredReadSize())));
        }
        ranges.sort(Comparator.comparingLong(ByteRange::start));
        input.willRead(ranges);
    }

    /**
     * The reader of file leaf {@code leaf} in {@code rowGroup} of {@code rowGroupRows} rows, after
     * checking its chunk's type, codec and extent. With a row selection ({@code rowGroupSelection}
     * not null) the chunk's offset index is read, and a selection of few rows loads only the
     * pages it needs.
     */
    ColumnReader open(int leaf, RowGroup rowGroup, long rowGroupRows, RoaringBitmap rowGroupSelection)
            throws IOException
    {
        SchemaNode node = footer.leaves().get(leaf);
        ColumnChunk chunk = rowGroup.getColumns().get(leaf);
        ColumnMetaData metadata = chunk.getMeta_data();
        String column = String.join(".", metadata.getPath_in_schema() == null ? List.of(node.name()) : metadata.getPath_in_schema());
        if (metadata.getType() != node.element().getType()) {
            throw new ParquetCorruptionException("File " + file + " column " + column + " has type " + metadata.getType() + " in its chunk but " + node.element().getType() + " in the schema");
        }
        if (metadata.getCodec() == null || !PageDecompressor.isSupported(metadata.getCodec())) {
            // writers compress a whole file with one codec: a chunk that differs was changed
            for (ColumnChunk other : rowGroup.getColumns()) {
                if (other.getMeta_data().getCodec() != metadata.getCodec()) {
                    throw new ParquetCorruptionException("File " + file + " column " + column + " has the compression codec " + metadata.getCodec()
                            + " where other columns have " + other.getMeta_data().getCodec());
                }
            }
            throw new ParquetUnsupportedException("File " + file + " column " + column + " uses the unsupported compression codec " + metadata.getCodec());
        }
        long start = ParquetFooter.chunkStart(metadata);
        long size = metadata.getTotal_compressed_size();
        if (start < ParquetFooter.MAGIC.length || size < 0 || size > MAX_CHUNK_SIZE || start + size > footer.footerStart()) {
            throw new ParquetCorruptionException("File " + file + " column " + column + " has a column chunk of " + size + " bytes at " + start + " outside the data of the file");
        }
        OffsetIndex offsetIndex = null;
        if (rowGroupSelection != null && chunk.isSetOffset_index_offset() && chunk.isSetOffset_index_length()) {
            offsetIndex = pageIndexes.offsetIndex(chunk, column, start, size, rowGroupRows);
        }
        // a selection of few rows loads only the pages the column reader opens (pages holding
        // none are never read from the file); any other read loads the chunk a window at a
        // time, never whole
        boolean exactLoads = offsetIndex != null && rowGroupSelection.getLongCardinality() * 2 < rowGroupRows;
        PageReader.ChunkLoader loader = new InputChunkLoader(start);
        SchemaElement element = node.element();
        PageReader pages = new PageReader(element.getType(), element.isSetType_length() ? element.getType_length() : 0, node.repetitionLevel(), metadata, (int) size, start,
                rowGroupRows, offsetIndex, metrics, loader, exactLoads);
        return new ColumnReader(node, pages);
    }

    /**
     * Loads a chunk's bytes from the input, in windows of the input's preferred read size.
     */
    private final class InputChunkLoader
            implements PageReader.ChunkLoader
    {
        private final long chunkStart;

        InputChunkLoader(long chunkStart)
        {
            this.chunkStart = chunkStart;
        }

        @Override
        public void load(int offset, byte[] target, int targetOffset, int length)
        {
            try {
                input.readFully(chunkStart + offset, target, targetOffset, length);
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            metrics.bytesRead += length;
        }

        @Override
        public int readSize()
        {
            return input.preferredReadSize();
        }
    }
}
