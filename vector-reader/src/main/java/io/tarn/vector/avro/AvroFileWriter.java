package io.tarn.vector.avro;

import io.tarn.types.DataField;
import io.tarn.types.RowType;
import io.tarn.vector.ArrowTypes;
import io.tarn.vector.writer.CountingOutputStream;
import io.tarn.vector.writer.DataFileWriteResult;
import io.tarn.vector.writer.DataFileWriter;
import io.tarn.vector.writer.FileStatistics;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Writes Arrow batches into an Avro object container file as Paimon's Avro writer lays it out:
 * the schema {@link AvroWriterSchema} gives the row type, blocks closed at Avro's default sync
 * interval of 64,000 bytes, compressed by the table's codec ({@link AvroWriteOptions}). Column
 * statistics are gathered while writing, since an Avro file carries none.
 */
public final class AvroFileWriter
        implements DataFileWriter
{
    private static final byte[] MAGIC = {'O', 'b', 'j', 1};
    private static final int SYNC_SIZE = 16;
    // Avro's DataFileWriter default, which Paimon's writer keeps
    static final int SYNC_INTERVAL = 64_000;

    private final CountingOutputStream out;
    private final BinaryEncoder fileEncoder;
    private final String fileName;
    private final RowType rowType;
    private final Schema arrowSchema;
    private final AvroBlockCompressor compressor;
    private final FileStatistics statistics;
    private final byte[] sync = new byte[SYNC_SIZE];
    private final ByteArrayOutputStream block = new ByteArrayOutputStream(SYNC_INTERVAL * 2);
    private final BinaryEncoder blockEncoder;
    private long blockRows;
    private long rowCount;
    private boolean finished;
    private boolean closed;

    private AvroFileWriter(OutputStream out, String fileName, RowType rowType, AvroWriteOptions options)
    {
        this.out = new CountingOutputStream(requireNonNull(out, "out is null"));
        this.fileName = requireNonNull(fileName, "fileName is null");
        this.rowType = requireNonNull(rowType, "rowType is null");
        this.arrowSchema = ArrowTypes.toArrowSchema(rowType.fields());
        this.compressor = AvroBlockCompressor.create(requireNonNull(options, "options is null"));
        this.statistics = new FileStatistics(rowType);
        this.fileEncoder = EncoderFactory.get().directBinaryEncoder(this.out, null);
        this.blockEncoder = EncoderFactory.get().directBinaryEncoder(block, null);
        new SecureRandom().nextBytes(sync);
    }

    /**
     * Starts a file on {@code out}: writes its header. Fails with
     * {@link IllegalArgumentException} before writing anything when a column's type or name
     * cannot be written to Avro.
     */
    public static AvroFileWriter create(OutputStream out, String fileName, RowType rowType, AvroWriteOptions options)
            throws IOException
    {
        org.apache.avro.Schema schema = AvroWriterSchema.of(rowType);
        AvroFileWriter writer = new AvroFileWriter(out, fileName, rowType, options);
        writer.writeHeader(schema, options.codec());
        return writer;
    }

    /**
     * Fails with {@link IllegalArgumentException} naming the column when a column's type or
     * name cannot be written to Avro (as Paimon refuses such a table in Avro).
     */
    public static void checkWritable(RowType rowType)
    {
        AvroWriterSchema.of(rowType);
    }

    private void writeHeader(org.apache.avro.Schema schema, String codec)
            throws IOException
    {
        out.write(MAGIC);
        fileEncoder.writeMapStart();
        fileEncoder.setItemCount(2);
        fileEncoder.startItem();
        fileEncoder.writeString("avro.schema");
        fileEncoder.writeBytes(schema.toString().getBytes(StandardCharsets.UTF_8));
        fileEncoder.startItem();
        fileEncoder.writeString("avro.codec");
        fileEncoder.writeBytes(codec.getBytes(StandardCharsets.UTF_8));
        fileEncoder.writeMapEnd();
        fileEncoder.writeFixed(sync);
        fileEncoder.flush();
    }

    /**
     * Appends the rows of {@code batch}, whose schema must be
     * {@code ArrowTypes.toArrowSchema(rowType.fields())}. The batch stays owned by the caller.
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
        List<DataField> fields = rowType.fields();
        int rows = batch.getRowCount();
        statistics.update(vectors, rows);
        for (int row = 0; row < rows; row++) {
            for (int i = 0; i < fields.size(); i++) {
                AvroValueEncoder.encode(blockEncoder, vectors.get(i), row, fields.get(i).type(), fields.get(i).name());
            }
            blockRows++;
            rowCount++;
            if (block.size() >= SYNC_INTERVAL) {
                writeBlock();
            }
        }
    }

    private void writeBlock()
            throws IOException
    {
        blockEncoder.flush();
        if (blockRows == 0) {
            return;
        }
        byte[] compressed = compressor.compress(block.toByteArray(), block.size());
        fileEncoder.writeLong(blockRows);
        fileEncoder.writeLong(compressed.length);
        fileEncoder.writeFixed(compressed);
        fileEncoder.writeFixed(sync);
        fileEncoder.flush();
        block.reset();
        blockRows = 0;
    }

    @Override
    public long bytesWritten()
    {
        return out.position() + block.size();
    }

    @Override
    public DataFileWriteResult finish()
            throws IOException
    {
        checkOpen();
        writeBlock();
        finished = true;
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
        out.close();
    }

    private void checkOpen()
    {
        if (finished) {
            throw new IllegalStateException("Avro file " + fileName + " is already finished");
        }
    }
}
