package io.tarn.vector.orc;

import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.RowType;
import io.tarn.types.TypeRoot;
import io.tarn.vector.ArrowTypes;
import io.tarn.vector.writer.ColumnStatistics;
import io.tarn.vector.writer.CountingOutputStream;
import io.tarn.vector.writer.DataFileWriteResult;
import io.tarn.vector.writer.DataFileWriter;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TimeZone;

import static java.util.Objects.requireNonNull;

/**
 * Writes Arrow batches into an ORC file (format 0.12) as Paimon's ORC writer lays it out through
 * orc-core: the type tree of {@link OrcWriterSchema} with Paimon's field ids, values encoded
 * DIRECT / DIRECT_V2 (no dictionaries), a PRESENT stream only in the stripes where a column has
 * a null, a row index entry every {@code orc.row.index.stride} rows with the positions and
 * statistics of the row group (and, for the columns of {@code orc.bloom.filter.columns}, a Bloom
 * filter of its values in a {@code BLOOM_FILTER_UTF8} stream), stripes written when the buffered streams reach
 * {@code orc.stripe.size}, every stream and metadata section compressed in chunks of
 * {@code orc.compress.size} by the table's codec ({@link OrcWriteOptions}).
 * <p>
 * File layout: {@code "ORC"}, the stripes (the row index streams of all columns, the data
 * streams, the stripe footer with the writer's time zone when the file has timestamps), the
 * metadata (each stripe's column statistics), the footer (stripes, types, row count, file column
 * statistics, row index stride, writer 0 with writer version 9 as orc-core 1.9 writes, the
 * Julian-Gregorian calendar of java.sql.Timestamp), the postscript, and one byte of postscript
 * length. Statistics are those orc-core keeps ({@link StatisticsBuilder}); the statistics
 * returned by {@link #finish()} are those Paimon takes from the footer ({@link PaimonStatistics}).
 */
public final class OrcFileWriter
        implements DataFileWriter
{
    private static final byte[] MAGIC = "ORC".getBytes(StandardCharsets.US_ASCII);
    // orc-core's WriterImplementation.ORC_JAVA and WriterVersion.ORC_14, whose conventions this writer follows
    private static final int JAVA_WRITER = 0;
    private static final int WRITER_VERSION = 9;
    private static final int JULIAN_GREGORIAN = 1;
    private static final String SOFTWARE_VERSION = "Tarn";
    // the types whose ORC Bloom filters Tarn's reader probes (BloomFilterPruner): no other is written
    private static final Set<TypeRoot> BLOOM_FILTER_TYPES = EnumSet.of(
            TypeRoot.TINYINT, TypeRoot.SMALLINT, TypeRoot.INT, TypeRoot.BIGINT, TypeRoot.DATE, TypeRoot.FLOAT, TypeRoot.DOUBLE, TypeRoot.VARCHAR);

    private final CountingOutputStream out;
    private final String fileName;
    private final RowType rowType;
    private final Schema arrowSchema;
    private final OrcWriteOptions options;
    private final OrcWriterSchema schema;
    private final ChunkCompressor compressor;
    private final WriterContext context;
    private final StructColumnWriter root;
    private final String writerTimeZone;
    private final List<ProtobufWriter> stripes = new ArrayList<>();
    private final List<ProtobufWriter> stripeStatistics = new ArrayList<>();
    private long rowCount;
    private long rowsInStripe;
    private int rowsInGroup;
    private boolean finished;
    private boolean closed;

    private OrcFileWriter(OutputStream out, String fileName, RowType rowType, OrcWriterSchema schema, OrcWriteOptions options)
    {
        this.out = new CountingOutputStream(requireNonNull(out, "out is null"));
        this.fileName = requireNonNull(fileName, "fileName is null");
        this.rowType = requireNonNull(rowType, "rowType is null");
        this.arrowSchema = ArrowTypes.toArrowSchema(rowType.fields());
        this.options = requireNonNull(options, "options is null");
        this.schema = schema;
        OrcCodec.Kind kind = OrcCodec.Kind.valueOf(options.compression());
        this.compressor = kind == OrcCodec.Kind.NONE ? null : new ChunkCompressor(kind, options.zstdLevel());
        TimeZone zone = TimeZone.getDefault();
        this.context = new WriterContext(compressor, options.compressionBlockSize(), zone);
        this.writerTimeZone = schema.hasTimestamps() ? zone.getID() : null;
        this.root = schema.createWriters(context, options.legacyTimestampLtz());
        for (int field : bloomFilterFields(rowType, options)) {
            root.children().get(field).enableBloomFilter(new BloomFilterWriter(options.rowIndexStride(), options.bloomFilterFpp()));
        }
        root.start();
    }

    /**
     * The positions among the top-level fields of the Bloom filter columns. Fails with
     * {@link IllegalArgumentException} on a name that is not a column, or a column whose type has
     * no Bloom filter in Tarn's writer.
     */
    private static List<Integer> bloomFilterFields(RowType rowType, OrcWriteOptions options)
    {
        List<String> names = rowType.fields().stream().map(DataField::name).toList();
        List<Integer> fields = new ArrayList<>();
        for (String column : options.bloomFilterColumns()) {
            int field = names.indexOf(column);
            if (field < 0) {
                throw new IllegalArgumentException("ORC Bloom filter column %s (orc.bloom.filter.columns) is not a column: %s".formatted(column, names));
            }
            DataType type = rowType.fields().get(field).type();
            if (!BLOOM_FILTER_TYPES.contains(type.root())) {
                throw new IllegalArgumentException("Tarn does not write ORC Bloom filters on %s columns yet (orc.bloom.filter.columns names %s); it writes them on TINYINT, SMALLINT, INT, BIGINT, DATE, FLOAT, DOUBLE, VARCHAR and STRING columns"
                        .formatted(type, column));
            }
            fields.add(field);
        }
        return fields;
    }

    /**
     * Starts a file on {@code out}: writes its header. Fails with
     * {@link IllegalArgumentException} before writing anything when a column's type cannot be
     * written to ORC.
     */
    public static OrcFileWriter create(OutputStream out, String fileName, RowType rowType, OrcWriteOptions options)
            throws IOException
    {
        OrcWriterSchema schema = OrcWriterSchema.of(rowType);
        OrcFileWriter writer = new OrcFileWriter(out, fileName, rowType, schema, options);
        writer.out.write(MAGIC);
        return writer;
    }

    /**
     * Fails with {@link IllegalArgumentException} naming the column when a column's type cannot
     * be written to ORC (as Paimon refuses such a table in ORC), or cannot have the Bloom filter
     * the options ask for.
     */
    public static void checkWritable(RowType rowType, OrcWriteOptions options)
    {
        OrcWriterSchema.of(rowType);
        bloomFilterFields(rowType, options);
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
        int rows = batch.getRowCount();
        int row = 0;
        while (row < rows) {
            int count = Math.min(rows - row, options.rowIndexStride() - rowsInGroup);
            root.writeRoot(vectors, row, row + count);
            row += count;
            rowsInGroup += count;
            rowsInStripe += count;
            rowCount += count;
            if (rowsInGroup == options.rowIndexStride()) {
                root.finishRowGroup();
                rowsInGroup = 0;
            }
            if (root.bufferedSize() >= options.stripeSize()) {
                writeStripe();
            }
        }
    }

    private void writeStripe()
            throws IOException
    {
        if (rowsInStripe == 0) {
            return;
        }
        if (rowsInGroup > 0) {
            root.finishRowGroup();
            rowsInGroup = 0;
        }
        StripeParts parts = new StripeParts(schema.size());
        root.finishStripe(parts);
        byte[] footer = compress(parts.footer(writerTimeZone).toByteArray());
        long offset = out.position();
        parts.writeStreams(out);
        out.write(footer);
        stripes.add(new ProtobufWriter()
                .writeUnsigned(1, offset)
                .writeUnsigned(2, parts.indexLength())
                .writeUnsigned(3, parts.dataLength())
                .writeUnsigned(4, footer.length)
                .writeUnsigned(5, rowsInStripe));
        ProtobufWriter statistics = new ProtobufWriter();
        for (StatisticsBuilder column : parts.statistics()) {
            statistics.writeMessage(1, column.serialize());
        }
        stripeStatistics.add(statistics);
        root.startStripe();
        rowsInStripe = 0;
    }

    private byte[] compress(byte[] section)
    {
        if (compressor == null) {
            return section;
        }
        OrcOutputBuffer buffer = context.newBuffer();
        buffer.write(section, 0, section.length);
        return buffer.toByteArray();
    }

    @Override
    public long bytesWritten()
    {
        return out.position() + root.bufferedSize();
    }

    @Override
    public DataFileWriteResult finish()
            throws IOException
    {
        checkOpen();
        writeStripe();
        finished = true;
        long contentLength = out.position();

        ProtobufWriter metadata = new ProtobufWriter();
        for (ProtobufWriter stripe : stripeStatistics) {
            metadata.writeMessage(1, stripe);
        }
        byte[] metadataBytes = compress(metadata.toByteArray());

        List<StatisticsBuilder> fileStatistics = new ArrayList<>();
        root.addFileStatistics(fileStatistics);
        ProtobufWriter footer = new ProtobufWriter()
                .writeUnsigned(1, MAGIC.length)
                .writeUnsigned(2, contentLength);
        for (ProtobufWriter stripe : stripes) {
            footer.writeMessage(3, stripe);
        }
        schema.writeTypes(footer);
        footer.writeUnsigned(6, rowCount);
        for (StatisticsBuilder column : fileStatistics) {
            footer.writeMessage(7, column.serialize());
        }
        footer.writeUnsigned(8, options.rowIndexStride())
                .writeUnsigned(9, JAVA_WRITER)
                .writeUnsigned(11, JULIAN_GREGORIAN)
                .writeString(12, SOFTWARE_VERSION);
        byte[] footerBytes = compress(footer.toByteArray());

        ProtobufWriter postScript = new ProtobufWriter()
                .writeUnsigned(1, footerBytes.length)
                .writeUnsigned(2, compressor == null ? OrcCodec.Kind.NONE.ordinal() : compressor.kind().ordinal());
        if (compressor != null) {
            postScript.writeUnsigned(3, options.compressionBlockSize());
        }
        postScript.writePackedUnsigned(4, new long[] {0, 12}, 2)
                .writeUnsigned(5, metadataBytes.length)
                .writeUnsigned(6, WRITER_VERSION)
                .writeString(8000, "ORC");
        byte[] postScriptBytes = postScript.toByteArray();
        if (postScriptBytes.length > 255) {
            throw new IllegalStateException("ORC postscript of " + postScriptBytes.length + " bytes");
        }
        out.write(metadataBytes);
        out.write(footerBytes);
        out.write(postScriptBytes);
        out.write(postScriptBytes.length);
        out.flush();

        List<ColumnStatistics> statistics = new ArrayList<>();
        List<DataField> fields = rowType.fields();
        for (int i = 0; i < fields.size(); i++) {
            StatisticsBuilder column = fileStatistics.get(root.children().get(i).column);
            statistics.add(PaimonStatistics.of(fields.get(i), column, rowCount, context.timeZone(), options.legacyTimestampLtz()));
        }
        return new DataFileWriteResult(out.position(), rowCount, statistics);
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
        if (compressor != null) {
            compressor.close();
        }
        out.close();
    }

    private void checkOpen()
    {
        if (finished) {
            throw new IllegalStateException("ORC file " + fileName + " is already finished");
        }
    }
}
