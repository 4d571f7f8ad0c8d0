package io.tarn.vector.writer;

import io.tarn.types.RowType;
import io.tarn.vector.ArrowTypes;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.impl.ColumnWriteStoreV1;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnOrder;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.TypeDefinedOrder;
import org.apache.parquet.format.Util;
import org.apache.parquet.schema.MessageType;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Writes Arrow batches as one Parquet file in Paimon's conventions (see {@link ParquetSchemas}).
 *
 * <p>Layout: {@code PAR1}, the row groups (each the column chunks in schema order, each chunk its
 * dictionary page and then its data pages), the column index of every chunk that has one, the
 * offset index of every chunk, the thrift
 * {@code FileMetaData} footer, its length as a little-endian int32, and {@code PAR1}.
 *
 * <p>Values go through parquet-mr's V1 column writers, which choose encodings (dictionary with
 * plain fallback, RLE levels) and close pages at the configured page size. Each top-level field
 * has its own column store and is written for runs of 1024 rows at a time, value by value with
 * the row ended after each (parquet-mr decides page boundaries when a row ends, so handing a store
 * more rows than it has ended would defeat its page size estimates). A row group is closed once
 * its buffered, compressed size reaches the row group size (checked after each run).
 *
 * <p>The writer owns the output stream: {@link #finish()} writes the footer and flushes,
 * {@link #close()} closes the stream (without a footer if {@code finish} was not called, which
 * leaves an invalid file for the caller to delete). Not thread safe.
 */
public final class ParquetFileWriter
        implements DataFileWriter
{
    static final String CREATED_BY = "tarn version 0.1.0";
    private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);
    // rows written field by field before the row group size is checked
    private static final int RUN_ROWS = 1024;

    private final CountingOutputStream out;
    private final String fileName;
    private final Schema arrowSchema;
    private final MessageType message;
    private final ParquetProperties properties;
    private final PageCompressor compressor;
    private final ParquetWriteOptions options;
    private final List<FieldWriter> fieldWriters;
    private final FileStatistics statistics;
    private final List<RowGroup> rowGroups = new ArrayList<>();
    private final List<List<ColumnChunkBuffer.WrittenChunk>> writtenChunks = new ArrayList<>();

    private final List<MessageType> fieldMessages = new ArrayList<>();

    private Map<ColumnDescriptor, ColumnChunkBuffer> chunks;
    private List<ColumnWriteStoreV1> columnStores;
    private long rowGroupRows;
    private long rowCount;
    private boolean finished;
    private boolean closed;

    private ParquetFileWriter(OutputStream out, String fileName, RowType schema, ParquetWriteOptions options)
    {
        this.out = new CountingOutputStream(requireNonNull(out, "out is null"));
        this.fileName = requireNonNull(fileName, "fileName is null");
        this.options = requireNonNull(options, "options is null");
        this.arrowSchema = ArrowTypes.toArrowSchema(schema.fields());
        this.message = ParquetSchemas.toMessageType(schema);
        this.fieldWriters = FieldWriter.create(schema, message);
        for (int i = 0; i < message.getFieldCount(); i++) {
            // a column store per top-level field: the field is written for a run of rows at a time
            fieldMessages.add(new MessageType(message.getName(), message.getType(i)));
        }
        this.statistics = new FileStatistics(schema);
        this.compressor = PageCompressor.create(options);
        this.properties = ParquetProperties.builder()
                .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_1_0)
                .withPageSize(options.pageSize())
                .withDictionaryEncoding(options.dictionary())
                .build();
    }

    /**
     * Starts a file on {@code out}. The allocator is not used for output buffers (pages are
     * buffered on the heap until their row group is written); it is taken so that the writer's
     * contract matches the reader's and may be used later.
     */
    public static ParquetFileWriter create(OutputStream out, String fileName, RowType schema, ParquetWriteOptions options, BufferAllocator allocator)
            throws IOException
    {
        requireNonNull(schema, "schema is null");
        requireNonNull(allocator, "allocator is null");
        ParquetFileWriter writer = new ParquetFileWriter(out, fileName, schema, options);
        writer.out.write(MAGIC);
        writer.startRowGroup();
        return writer;
    }

    /**
     * Appends the rows of {@code batch}, whose schema must be
     * {@code ArrowTypes.toArrowSchema(schema.fields())}. The batch stays owned by the caller.
     */
    @Override
    public void write(VectorSchemaRoot batch)
            throws IOException
    {
        requireNonNull(batch, "batch is null");
        checkOpen();
        if (!batch.getSchema().getFields().equals(arrowSchema.getFields())) {
            throw new IllegalArgumentException("Batch schema " + batch.getSchema() + " does not match the schema of " + fileName + ": " + arrowSchema);
        }
        List<FieldVector> vectors = batch.getFieldVectors();
        int rows = batch.getRowCount();
        statistics.update(vectors, rows);
        try {
            for (int from = 0; from < rows; from += RUN_ROWS) {
                int to = Math.min(rows, from + RUN_ROWS);
                for (int i = 0; i < vectors.size(); i++) {
                    FieldVector vector = vectors.get(i);
                    FieldWriter writer = fieldWriters.get(i);
                    ColumnWriteStoreV1 store = columnStores.get(i);
                    for (int row = from; row < to; row++) {
                        writer.write(vector, row, 0, 0);
                        // the store closes pages here, on row boundaries, when they reach the page size
                        store.endRecord();
                    }
                }
                rowGroupRows += to - from;
                rowCount += to - from;
                if (bufferedSize() >= options.rowGroupSize()) {
                    flushRowGroup();
                    startRowGroup();
                }
            }
        }
        catch (RuntimeException e) {
            // parquet-mr's column writers cannot continue after a failure, so neither can the file
            finished = true;
            throw new IOException("Cannot write Parquet file " + fileName + ": " + e.getMessage(), e);
        }
    }

    /**
     * Bytes written so far plus the bytes buffered for the open row group, an estimate of the
     * final file size without the footer.
     */
    @Override
    public long bytesWritten()
    {
        return out.position() + (finished ? 0 : bufferedSize());
    }

    private long bufferedSize()
    {
        long size = 0;
        for (ColumnWriteStoreV1 store : columnStores) {
            size += store.getBufferedSize();
        }
        return size;
    }

    /**
     * Writes the last row group and the footer and flushes the stream.
     */
    @Override
    public DataFileWriteResult finish()
            throws IOException
    {
        checkOpen();
        finished = true;
        flushRowGroup();
        writePageIndexes();

        FileMetaData metadata = new FileMetaData(1, ParquetSchemas.toSchemaElements(message), rowCount, rowGroups);
        metadata.setCreated_by(CREATED_BY);
        List<ColumnOrder> columnOrders = new ArrayList<>();
        for (int i = 0; i < message.getColumns().size(); i++) {
            columnOrders.add(ColumnOrder.TYPE_ORDER(new TypeDefinedOrder()));
        }
        metadata.setColumn_orders(columnOrders);
        ByteArrayOutputStream footer = new ByteArrayOutputStream();
        Util.writeFileMetaData(metadata, footer);
        footer.writeTo(out);
        int length = footer.size();
        out.write(new byte[] {(byte) length, (byte) (length >>> 8), (byte) (length >>> 16), (byte) (length >>> 24)});
        out.write(MAGIC);
        out.flush();

        return new DataFileWriteResult(out.position(), rowCount, statistics.result());
    }

    @Override
    public void close()
            throws IOException
    {
        if (closed) {
            return;
        }
        closed = true;
        finished = true;
        columnStores = null;
        chunks = null;
        out.close();
    }

    private void checkOpen()
    {
        if (finished || closed) {
            throw new IllegalStateException("Parquet file " + fileName + " is already finished or closed");
        }
    }

    private void startRowGroup()
    {
        Map<ColumnDescriptor, ColumnChunkBuffer> buffers = new LinkedHashMap<>();
        for (ColumnDescriptor column : message.getColumns()) {
            buffers.put(column, new ColumnChunkBuffer(column, compressor));
        }
        chunks = buffers;
        List<ColumnWriteStoreV1> stores = new ArrayList<>();
        for (int i = 0; i < fieldWriters.size(); i++) {
            ColumnWriteStoreV1 store = new ColumnWriteStoreV1(fieldMessages.get(i), column -> buffers.get(column), properties);
            fieldWriters.get(i).bind(store);
            stores.add(store);
        }
        columnStores = stores;
        rowGroupRows = 0;
    }

    private void flushRowGroup()
            throws IOException
    {
        if (rowGroupRows == 0) {
            return;
        }
        // close() writes the last pages and the dictionaries, then releases the encoders
        for (ColumnWriteStoreV1 store : columnStores) {
            store.close();
        }
        long start = out.position();
        long uncompressed = 0;
        List<ColumnChunk> columns = new ArrayList<>();
        List<ColumnChunkBuffer.WrittenChunk> written = new ArrayList<>();
        for (ColumnDescriptor column : message.getColumns()) {
            ColumnChunkBuffer buffer = chunks.get(column);
            uncompressed += buffer.uncompressedSize();
            ColumnChunkBuffer.WrittenChunk chunk = buffer.writeTo(out, out.position());
            columns.add(chunk.chunk());
            written.add(chunk);
        }
        RowGroup rowGroup = new RowGroup(columns, uncompressed, rowGroupRows);
        rowGroup.setFile_offset(start);
        rowGroup.setTotal_compressed_size(out.position() - start);
        rowGroup.setOrdinal((short) rowGroups.size());
        rowGroups.add(rowGroup);
        writtenChunks.add(written);
        columnStores = null;
        chunks = null;
        rowGroupRows = 0;
    }

    // as parquet-mr lays them out: every column index, then every offset index
    private void writePageIndexes()
            throws IOException
    {
        for (List<ColumnChunkBuffer.WrittenChunk> group : writtenChunks) {
            for (ColumnChunkBuffer.WrittenChunk chunk : group) {
                if (chunk.columnIndex() != null) {
                    long start = out.position();
                    Util.writeColumnIndex(chunk.columnIndex(), out);
                    chunk.chunk().setColumn_index_offset(start);
                    chunk.chunk().setColumn_index_length((int) (out.position() - start));
                }
            }
        }
        for (List<ColumnChunkBuffer.WrittenChunk> group : writtenChunks) {
            for (ColumnChunkBuffer.WrittenChunk chunk : group) {
                long start = out.position();
                Util.writeOffsetIndex(chunk.offsetIndex(), out);
                chunk.chunk().setOffset_index_offset(start);
                chunk.chunk().setOffset_index_length((int) (out.position() - start));
            }
        }
    }
}
