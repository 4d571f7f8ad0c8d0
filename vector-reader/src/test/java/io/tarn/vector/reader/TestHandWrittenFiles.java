package io.tarn.vector.reader;

import io.tarn.types.ArrayType;
import io.tarn.types.DataField;
import io.tarn.types.DataTypes;
import io.tarn.vector.ParquetCorruptionException;
import io.tarn.vector.io.DataFileInput;
import io.tarn.vector.metadata.ParquetFooter;
import org.apache.arrow.memory.RootAllocator;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.CompressionCodec;
import org.apache.parquet.format.ConvertedType;
import org.apache.parquet.format.DataPageHeader;
import org.apache.parquet.format.Encoding;
import org.apache.parquet.format.FieldRepetitionType;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.Type;
import org.apache.parquet.format.Util;
import org.roaringbitmap.RoaringBitmap;
import org.testng.annotations.AfterClass;
import org.testng.annotations.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Files assembled by hand from the format spec, for layouts Paimon's writer does not produce:
 * here a v1 repeated column whose rows continue across data pages, without a page index.
 */
public class TestHandWrittenFiles
{
    private static final HeapByteBufferAllocator HEAP = new HeapByteBufferAllocator();

    private final RootAllocator allocator = new RootAllocator();

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        assertThat(allocator.getAllocatedMemory()).isEqualTo(0);
        allocator.close();
    }

    @Test
    public void testRowsSpanningPages()
            throws IOException
    {
        // rows [1,2,3], NULL, [], [4,NULL,5], [6]; levels of arr.list.element: max repetition 1, max definition 3
        ByteArrayOutputStream chunk = new ByteArrayOutputStream();
        chunk.write(page(new int[] {0, 1}, new int[] {3, 3}, new int[] {1, 2}));
        chunk.write(page(new int[] {1, 0, 0, 0}, new int[] {3, 0, 1, 3}, new int[] {3, 4}));
        chunk.write(page(new int[] {1, 1, 0}, new int[] {2, 3, 3}, new int[] {5, 6}));
        byte[] file = file(chunk.toByteArray(), 9, 5);
        List<String> rows = List.of("[1,2,3]", "\\N", "[]", "[4,null,5]", "[6]");
        List<DataField> fields = List.of(new DataField(7, "arr", new ArrayType(DataTypes.integer(), true)));

        for (int batchSize = 1; batchSize <= 6; batchSize++) {
            assertThat(read(file, ReadOptions.of(fields).withBatchSize(batchSize))).containsExactlyElementsOf(rows);
        }
        for (int[] selection : new int[][] {{0, 3, 4}, {1, 2}, {3}, {4}, {0}, {2, 4}}) {
            List<String> wanted = new ArrayList<>();
            for (int position : selection) {
                wanted.add(rows.get(position));
            }
            assertThat(read(file, ReadOptions.of(fields).withBatchSize(2).withRowSelection(RoaringBitmap.bitmapOf(selection))))
                    .containsExactlyElementsOf(wanted);
        }
    }

    @Test
    public void testRowCountBeyondTheData()
            throws IOException
    {
        ByteArrayOutputStream chunk = new ByteArrayOutputStream();
        chunk.write(page(new int[] {0, 1}, new int[] {3, 3}, new int[] {1, 2}));
        // the footer claims a second row that no page holds
        byte[] file = file(chunk.toByteArray(), 2, 2);
        List<DataField> fields = List.of(new DataField(7, "arr", new ArrayType(DataTypes.integer(), true)));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> read(file, ReadOptions.of(fields)))
                .isInstanceOf(ParquetCorruptionException.class)
                .hasMessageContaining("hand.parquet")
                .hasMessageContaining("element");
    }

    @Test
    public void testCodecsAndCorruptCompressedPages()
            throws IOException
    {
        List<DataField> fields = List.of(new DataField(7, "arr", new ArrayType(DataTypes.integer(), true)));
        int[] repetitions = new int[200];
        int[] definitions = new int[200];
        int[] values = new int[200];
        for (int i = 0; i < 200; i++) {
            repetitions[i] = i % 4 == 0 ? 0 : 1;
            definitions[i] = 3;
            values[i] = i * 7;
        }
        List<String> rows = new ArrayList<>();
        for (int row = 0; row < 50; row++) {
            rows.add("[" + (row * 4 * 7) + "," + ((row * 4 + 1) * 7) + "," + ((row * 4 + 2) * 7) + "," + ((row * 4 + 3) * 7) + "]");
        }
        for (CompressionCodec codec : List.of(CompressionCodec.ZSTD, CompressionCodec.SNAPPY, CompressionCodec.GZIP, CompressionCodec.LZ4_RAW)) {
            byte[] good = file(compressedPage(repetitions, definitions, values, codec, false), 200, 50, codec);
            assertThat(read(good, ReadOptions.of(fields).withBatchSize(16))).as(codec.name()).containsExactlyElementsOf(rows);
            // the header of the compressed stream overwritten; pages without a CRC rely on the codec to notice
            byte[] bad = file(compressedPage(repetitions, definitions, values, codec, true), 200, 50, codec);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> read(bad, ReadOptions.of(fields)))
                    .as(codec.name())
                    .isInstanceOf(ParquetCorruptionException.class)
                    .hasMessageContaining("hand.parquet")
                    .hasMessageContaining("element");
        }
    }

    private static byte[] compressedPage(int[] repetitions, int[] definitions, int[] values, CompressionCodec codec, boolean corrupt)
            throws IOException
    {
        byte[] body = body(repetitions, definitions, values);
        byte[] compressed;
        switch (codec) {
            case GZIP -> {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                try (java.util.zip.GZIPOutputStream gzip = new java.util.zip.GZIPOutputStream(out)) {
                    gzip.write(body);
                }
                compressed = out.toByteArray();
            }
            default -> {
                io.airlift.compress.Compressor compressor = switch (codec) {
                    case ZSTD -> new io.airlift.compress.zstd.ZstdCompressor();
                    case SNAPPY -> new io.airlift.compress.snappy.SnappyCompressor();
                    default -> new io.airlift.compress.lz4.Lz4Compressor();
                };
                byte[] buffer = new byte[compressor.maxCompressedLength(body.length)];
                int length = compressor.compress(body, 0, body.length, buffer, 0, buffer.length);
                compressed = java.util.Arrays.copyOf(buffer, length);
            }
        }
        if (corrupt) {
            java.util.Arrays.fill(compressed, 0, 4, (byte) 0xFF);
        }
        PageHeader header = new PageHeader(PageType.DATA_PAGE, body.length, compressed.length);
        header.setData_page_header(new DataPageHeader(repetitions.length, Encoding.PLAIN, Encoding.RLE, Encoding.RLE));
        ByteArrayOutputStream page = new ByteArrayOutputStream();
        Util.writePageHeader(header, page);
        page.write(compressed);
        return page.toByteArray();
    }

    private List<String> read(byte[] file, ReadOptions options)
            throws IOException
    {
        List<String> rows = new ArrayList<>();
        try (ParquetReader reader = ParquetReader.open(DataFileInput.of("hand.parquet", file), options, allocator)) {
            while (reader.nextBatch()) {
                rows.addAll(ArrowRowFormatter.rows(reader.root(), options.columns()));
            }
        }
        return rows;
    }

    private static byte[] page(int[] repetitions, int[] definitions, int[] values)
            throws IOException
    {
        byte[] body = body(repetitions, definitions, values);
        PageHeader header = new PageHeader(PageType.DATA_PAGE, body.length, body.length);
        header.setData_page_header(new DataPageHeader(repetitions.length, Encoding.PLAIN, Encoding.RLE, Encoding.RLE));
        ByteArrayOutputStream page = new ByteArrayOutputStream();
        Util.writePageHeader(header, page);
        page.write(body);
        return page.toByteArray();
    }

    private static byte[] body(int[] repetitions, int[] definitions, int[] values)
            throws IOException
    {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(lengthPrefixedLevels(repetitions, 1));
        body.write(lengthPrefixedLevels(definitions, 2));
        ByteBuffer plain = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (int value : values) {
            plain.putInt(value);
        }
        body.write(plain.array());
        return body.toByteArray();
    }

    private static byte[] lengthPrefixedLevels(int[] levels, int bitWidth)
            throws IOException
    {
        RunLengthBitPackingHybridEncoder encoder = new RunLengthBitPackingHybridEncoder(bitWidth, 64, 1024, HEAP);
        for (int level : levels) {
            encoder.writeInt(level);
        }
        byte[] encoded = encoder.toBytes().toByteArray();
        return ByteBuffer.allocate(4 + encoded.length).order(ByteOrder.LITTLE_ENDIAN).putInt(encoded.length).put(encoded).array();
    }

    private static byte[] file(byte[] chunk, long values, long rows)
            throws IOException
    {
        return file(chunk, values, rows, CompressionCodec.UNCOMPRESSED);
    }

    private static byte[] file(byte[] chunk, long values, long rows, CompressionCodec codec)
            throws IOException
    {
        SchemaElement root = new SchemaElement("schema");
        root.setNum_children(1);
        SchemaElement list = new SchemaElement("arr");
        list.setRepetition_type(FieldRepetitionType.OPTIONAL);
        list.setNum_children(1);
        list.setConverted_type(ConvertedType.LIST);
        list.setField_id(7);
        SchemaElement repeated = new SchemaElement("list");
        repeated.setRepetition_type(FieldRepetitionType.REPEATED);
        repeated.setNum_children(1);
        SchemaElement element = new SchemaElement("element");
        element.setRepetition_type(FieldRepetitionType.OPTIONAL);
        element.setType(Type.INT32);

        ColumnMetaData metadata = new ColumnMetaData(Type.INT32, List.of(Encoding.PLAIN, Encoding.RLE), List.of("arr", "list", "element"),
                codec, values, chunk.length, chunk.length, 4);
        ColumnChunk column = new ColumnChunk(4);
        column.setMeta_data(metadata);
        RowGroup rowGroup = new RowGroup(List.of(column), chunk.length, rows);
        FileMetaData footer = new FileMetaData(1, List.of(root, list, repeated, element), rows, List.of(rowGroup));

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(ParquetFooter.MAGIC);
        out.write(chunk);
        ByteArrayOutputStream serialized = new ByteArrayOutputStream();
        Util.writeFileMetaData(footer, serialized);
        out.write(serialized.toByteArray());
        out.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(serialized.size()).array());
        out.write(ParquetFooter.MAGIC);
        return out.toByteArray();
    }
}
