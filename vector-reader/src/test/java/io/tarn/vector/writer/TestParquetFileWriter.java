package io.tarn.vector.writer;

import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.DataTypes;
import io.tarn.types.MapType;
import io.tarn.types.MultisetType;
import io.tarn.types.RowType;
import io.tarn.types.Timestamp;
import io.tarn.types.ValueComparator;
import io.tarn.testing.CanonicalValueFormatter;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.format.FileFormat;
import org.apache.paimon.format.FormatReaderContext;
import org.apache.paimon.format.FormatWriter;
import org.apache.paimon.format.SimpleColStats;
import org.apache.paimon.format.SimpleStatsExtractor;
import org.apache.paimon.fs.PositionOutputStream;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.options.Options;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.statistics.SimpleColStatsCollector;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.CompressionCodec;
import org.apache.parquet.format.Encoding;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.OffsetIndex;
import org.apache.parquet.format.PageEncodingStats;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.Util;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

public class TestParquetFileWriter
{
    private static final RowType ALL_TYPES = RowType.of(List.of(
            new DataField(0, "id", DataTypes.integer().withNullable(false)),
            new DataField(1, "b", DataTypes.booleanType()),
            new DataField(2, "ti", DataTypes.tinyint()),
            new DataField(3, "si", DataTypes.smallint()),
            new DataField(4, "i", DataTypes.integer()),
            new DataField(5, "bi", DataTypes.bigint()),
            new DataField(6, "f", DataTypes.floatType()),
            new DataField(7, "d", DataTypes.doubleType()),
            new DataField(8, "dec10", DataTypes.decimal(10, 2)),
            new DataField(9, "dec38", DataTypes.decimal(38, 10)),
            new DataField(10, "c", DataTypes.charType(5)),
            new DataField(11, "vc", DataTypes.varchar(20)),
            new DataField(12, "s", DataTypes.string()),
            new DataField(13, "bin", DataTypes.binary(4)),
            new DataField(14, "vb", DataTypes.varbinary(10)),
            new DataField(15, "by", DataTypes.bytes()),
            new DataField(16, "dt", DataTypes.date()),
            new DataField(17, "tm", DataTypes.time(0)),
            new DataField(18, "ts0", DataTypes.timestamp(0)),
            new DataField(19, "ts3", DataTypes.timestamp(3)),
            new DataField(20, "ts6", DataTypes.timestamp(6)),
            new DataField(21, "ts9", DataTypes.timestamp(9)),
            new DataField(22, "ltz3", DataTypes.timestampLtz(3)),
            new DataField(23, "ltz6", DataTypes.timestampLtz(6)),
            new DataField(24, "arr", new io.tarn.types.ArrayType(DataTypes.integer(), true)),
            new DataField(25, "m", new MapType(DataTypes.string(), DataTypes.integer(), true)),
            new DataField(26, "r", RowType.of(List.of(new DataField(27, "x", DataTypes.integer()), new DataField(28, "y", DataTypes.string())))),
            new DataField(29, "nested", new io.tarn.types.ArrayType(new io.tarn.types.ArrayType(DataTypes.string(), true), true))));

    private static final List<List<Object>> ALL_TYPES_ROWS = List.of(
            Arrays.asList(1, true, (byte) -128, (short) 32767, Integer.MIN_VALUE, Long.MAX_VALUE, 1.5f, -2.25,
                    new BigDecimal("12345678.91"), new BigDecimal("-1234567890123456789012345678.0123456789"),
                    "ab", "héllo wörld", "日本語 🎉\tend",
                    bytes(0xde, 0xad, 0xbe, 0xef), bytes(0x00, 0x01), bytes(),
                    19000, 45_296_000,
                    local("2022-01-08T10:20:30"), local("2022-01-08T10:20:30.123"), local("2022-01-08T10:20:30.123456"), local("1969-07-20T20:17:40.123456789"),
                    instant("2022-01-08T10:20:30.123Z"), instant("1960-02-29T23:59:59.999999Z"),
                    Arrays.asList(1, null, 3), map("a", 1, "ü", null), Arrays.asList(7, "q\"uote"),
                    Arrays.asList(List.of("x", "y"), List.of(), null, Arrays.asList((Object) null))),
            allNullExceptId(2),
            Arrays.asList(3, false, (byte) 127, (short) -32768, 0, Long.MIN_VALUE, Float.MAX_VALUE, Double.MIN_VALUE,
                    new BigDecimal("-0.01"), new BigDecimal("0E-10"),
                    "xyzzy", "", "line\nbreak\\",
                    bytes(0, 0, 0, 0), bytes(0xff), bytes(1, 2, 3),
                    -1, 0,
                    local("1900-01-01T00:00:00"), local("2262-04-11T23:47:16.854"), local("1970-01-01T00:00:00.000001"), local("2100-12-31T23:59:59.999999999"),
                    instant("1970-01-01T00:00:00Z"), instant("2038-01-19T03:14:08.000001Z"),
                    List.of(), map(), Arrays.asList(null, null), List.of()),
            Arrays.asList(4, null, null, null, 42, null, null, null,
                    null, null,
                    null, null, "é",
                    null, null, null,
                    null, null,
                    null, null, null, null,
                    null, null,
                    null, map("k", -5), null, List.of(Arrays.asList(null, "z"))));

    // the canonical text of ALL_TYPES_ROWS, written by hand from the values above
    private static final List<String> ALL_TYPES_EXPECTED = List.of(
            String.join("\t", "1", "true", "-128", "32767", "-2147483648", "9223372036854775807", "1.5", "-2.25",
                    "12345678.91", "-1234567890123456789012345678.0123456789",
                    "ab", "héllo wörld", "日本語 🎉\\tend",
                    "0xdeadbeef", "0x0001", "0x",
                    "2022-01-08", "12:34:56",
                    "2022-01-08T10:20:30", "2022-01-08T10:20:30.123", "2022-01-08T10:20:30.123456", "1969-07-20T20:17:40.123456789",
                    "2022-01-08T10:20:30.123Z", "1960-02-29T23:59:59.999999Z",
                    "[1,null,3]", "{\"a\"=1,\"ü\"=null}", "{7,\"q\\\"uote\"}",
                    "[[\"x\",\"y\"],[],null,[null]]"),
            "2" + "\t\\N".repeat(27),
            String.join("\t", "3", "false", "127", "-32768", "0", "-9223372036854775808", "3.4028235E38", "4.9E-324",
                    "-0.01", "0.0000000000",
                    "xyzzy", "", "line\\nbreak\\\\",
                    "0x00000000", "0xff", "0x010203",
                    "1969-12-31", "00:00",
                    "1900-01-01T00:00:00", "2262-04-11T23:47:16.854", "1970-01-01T00:00:00.000001", "2100-12-31T23:59:59.999999999",
                    "1970-01-01T00:00:00.000Z", "2038-01-19T03:14:08.000001Z",
                    "[]", "{}", "{null,null}", "[]"),
            String.join("\t", "4", "\\N", "\\N", "\\N", "42", "\\N", "\\N", "\\N",
                    "\\N", "\\N",
                    "\\N", "\\N", "é",
                    "\\N", "\\N", "\\N",
                    "\\N", "\\N",
                    "\\N", "\\N", "\\N", "\\N",
                    "\\N", "\\N",
                    "\\N", "{\"k\"=-5}", "\\N", "[[null,\"z\"]]"));

    private BufferAllocator allocator;
    private Path directory;

    @BeforeClass
    public void setUp()
            throws IOException
    {
        allocator = new RootAllocator();
        directory = Files.createTempDirectory("tarn-parquet-writer");
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
            throws IOException
    {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    @Test
    public void testAllTypesReadByPaimon()
            throws IOException
    {
        Path file = directory.resolve("all-types.parquet");
        DataFileWriteResult result = writeWithTarn(file, ALL_TYPES, ALL_TYPES_ROWS, ParquetWriteOptions.defaults(), 3);

        assertThat(readWithPaimon(file, ALL_TYPES)).containsExactlyElementsOf(ALL_TYPES_EXPECTED);
        assertThat(result.rowCount()).isEqualTo(ALL_TYPES_ROWS.size());
        assertThat(result.fileSize()).isEqualTo(Files.size(file));

        FileMetaData footer = footer(file);
        assertThat(footer.getNum_rows()).isEqualTo(ALL_TYPES_ROWS.size());
        assertThat(footer.getSchema().get(0).getName()).isEqualTo("paimon_schema");
        assertThat(footer.getRow_groups()).hasSize(1);
        assertThat(footer.getRow_groups().get(0).getColumns())
                .allSatisfy(chunk -> assertThat(chunk.getMeta_data().getCodec()).isEqualTo(CompressionCodec.ZSTD));
    }

    @Test
    public void testFooterMatchesPaimon()
            throws IOException
    {
        Path tarnFile = directory.resolve("footer-tarn.parquet");
        Path paimonFile = directory.resolve("footer-paimon.parquet");
        writeWithTarn(tarnFile, ALL_TYPES, ALL_TYPES_ROWS, ParquetWriteOptions.defaults(), 100);
        writeWithPaimon(paimonFile, ALL_TYPES, ALL_TYPES_ROWS);

        // the hand-written expectation is what Paimon itself reads back from its own file
        assertThat(readWithPaimon(paimonFile, ALL_TYPES)).containsExactlyElementsOf(ALL_TYPES_EXPECTED);

        FileMetaData tarn = footer(tarnFile);
        FileMetaData paimon = footer(paimonFile);
        assertThat(tarn.getSchema()).containsExactlyElementsOf(paimon.getSchema());
        assertThat(tarn.getColumn_orders()).isEqualTo(paimon.getColumn_orders());
        assertThat(tarn.getNum_rows()).isEqualTo(paimon.getNum_rows());
        List<ColumnChunk> tarnChunks = tarn.getRow_groups().get(0).getColumns();
        List<ColumnChunk> paimonChunks = paimon.getRow_groups().get(0).getColumns();
        assertThat(tarnChunks).hasSameSizeAs(paimonChunks);
        assertThat(chunkSummaries(tarnChunks)).containsExactlyElementsOf(chunkSummaries(paimonChunks));

        // what Paimon derives from the footers for its manifests
        assertThat(paimonStats(tarnFile, ALL_TYPES)).containsExactlyElementsOf(paimonStats(paimonFile, ALL_TYPES));
    }

    @Test
    public void testStatistics()
            throws IOException
    {
        Path file = directory.resolve("statistics.parquet");
        DataFileWriteResult result = writeWithTarn(file, ALL_TYPES, ALL_TYPES_ROWS, ParquetWriteOptions.defaults(), 2);

        assertThat(result.statistics()).hasSize(ALL_TYPES.size());
        for (int column = 0; column < ALL_TYPES.size(); column++) {
            DataField field = ALL_TYPES.fields().get(column);
            Object min = null;
            Object max = null;
            long nulls = 0;
            for (List<Object> row : ALL_TYPES_ROWS) {
                Object value = row.get(column);
                if (value == null) {
                    nulls++;
                }
                else if (ValueComparator.isOrderable(field.type())) {
                    min = min == null || ValueComparator.compare(field.type(), value, min) < 0 ? value : min;
                    max = max == null || ValueComparator.compare(field.type(), value, max) > 0 ? value : max;
                }
            }
            ColumnStatistics statistics = result.statistics().get(column);
            assertThat(statistics.fieldId()).isEqualTo(field.id());
            assertThat(statistics.nullCount()).as("null count of %s", field.name()).isEqualTo(nulls);
            assertThat(comparable(statistics.min())).as("min of %s", field.name()).isEqualTo(comparable(min));
            assertThat(comparable(statistics.max())).as("max of %s", field.name()).isEqualTo(comparable(max));
        }
    }

    @Test
    public void testRequiredAndNestedCollections()
            throws IOException
    {
        RowType rowType = RowType.of(List.of(
                new DataField(0, "id", DataTypes.integer().withNullable(false)),
                new DataField(1, "arr", new io.tarn.types.ArrayType(DataTypes.integer().withNullable(false), false)),
                new DataField(2, "r", new RowType(List.of(
                        new DataField(10, "a", DataTypes.integer().withNullable(false)),
                        new DataField(11, "b", new io.tarn.types.ArrayType(DataTypes.string(), true))), false)),
                new DataField(3, "m", new MapType(DataTypes.integer(), new io.tarn.types.ArrayType(DataTypes.string().withNullable(false), true), true)),
                new DataField(4, "ms", new MultisetType(DataTypes.string(), true)),
                new DataField(5, "rows", new io.tarn.types.ArrayType(RowType.of(List.of(
                        new DataField(12, "p", DataTypes.string()),
                        new DataField(13, "q", DataTypes.integer().withNullable(false)))), true))));
        List<List<Object>> rows = List.of(
                Arrays.asList(1, List.of(1, 2), Arrays.asList(5, Arrays.asList("a", null)), map(1, List.of("x"), 2, null, 3, List.of()), map("a", 2, "b", 1),
                        Arrays.asList(Arrays.asList("p", 1), null, Arrays.asList(null, 2))),
                Arrays.asList(2, List.of(), Arrays.asList(6, null), null, null, List.of()),
                Arrays.asList(3, List.of(7), Arrays.asList(7, List.of()), map(), map(), null));
        Path file = directory.resolve("nested.parquet");
        writeWithTarn(file, rowType, rows, ParquetWriteOptions.defaults(), 2);

        assertThat(readWithPaimon(file, rowType)).containsExactly(
                "1\t[1,2]\t{5,[\"a\",null]}\t{1=[\"x\"],2=null,3=[]}\t{\"a\"=2,\"b\"=1}\t[{\"p\",1},null,{null,2}]",
                "2\t[]\t{6,null}\t\\N\t\\N\t[]",
                "3\t[7]\t{7,[]}\t{}\t{}\t\\N");

        Path paimonFile = directory.resolve("nested-paimon.parquet");
        writeWithPaimon(paimonFile, rowType, rows);
        assertThat(footer(file).getSchema()).containsExactlyElementsOf(footer(paimonFile).getSchema());
        assertThat(chunkSummaries(footer(file).getRow_groups().get(0).getColumns()))
                .containsExactlyElementsOf(chunkSummaries(footer(paimonFile).getRow_groups().get(0).getColumns()));
        assertThatThrownBy(() -> writeWithTarn(directory.resolve("null-in-required.parquet"), rowType,
                List.of(Arrays.asList(4, Arrays.asList(1, null), Arrays.asList(1, null), null, null, null)), ParquetWriteOptions.defaults(), 1))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("null-in-required.parquet")
                .hasMessageContaining("element");
    }

    @Test
    public void testFloatingPointStatisticsOrderNaNLast()
            throws IOException
    {
        RowType rowType = RowType.of(List.of(new DataField(1, "f", DataTypes.floatType()), new DataField(2, "d", DataTypes.doubleType())));
        List<List<Object>> rows = List.of(
                Arrays.asList(Float.NaN, -0.0),
                Arrays.asList(-1.0f, Double.NaN),
                Arrays.asList(0.0f, 0.0),
                Arrays.asList(null, -7.5));
        Path file = directory.resolve("nan.parquet");
        DataFileWriteResult result = writeWithTarn(file, rowType, rows, ParquetWriteOptions.defaults(), 10);

        assertThat(result.statistics()).containsExactly(
                new ColumnStatistics(1, -1.0f, Float.NaN, 1),
                new ColumnStatistics(2, -7.5, Double.NaN, 0));
        assertThat(readWithPaimon(file, rowType)).containsExactly("NaN\t-0.0", "-1.0\tNaN", "0.0\t0.0", "\\N\t-7.5");
        // bounds that leave out NaN would let older readers skip rows holding NaN
        for (ColumnChunk chunk : footer(file).getRow_groups().get(0).getColumns()) {
            assertThat(chunk.getMeta_data().getStatistics().isSetMin_value()).isFalse();
            assertThat(chunk.getMeta_data().getStatistics().isSetMax_value()).isFalse();
        }
    }

    @DataProvider
    public Object[][] compressions()
    {
        return new Object[][] {
                {"zstd", CompressionCodec.ZSTD},
                {"snappy", CompressionCodec.SNAPPY},
                {"lz4", CompressionCodec.LZ4},
                {"lz4_raw", CompressionCodec.LZ4_RAW},
                {"gzip", CompressionCodec.GZIP},
                {"none", CompressionCodec.UNCOMPRESSED},
        };
    }

    @Test(dataProvider = "compressions")
    public void testCompression(String compression, CompressionCodec codec)
            throws IOException
    {
        Path file = directory.resolve("compression-" + compression + ".parquet");
        writeWithTarn(file, ALL_TYPES, ALL_TYPES_ROWS, ParquetWriteOptions.defaults().withCompression(compression), 4);

        assertThat(readWithPaimon(file, ALL_TYPES)).containsExactlyElementsOf(ALL_TYPES_EXPECTED);
        assertThat(footer(file).getRow_groups().get(0).getColumns())
                .allSatisfy(chunk -> assertThat(chunk.getMeta_data().getCodec()).isEqualTo(codec));
    }

    @Test(dataProvider = "compressions")
    public void testPagesLargerThanCodecBlocks(String compression, CompressionCodec codec)
            throws IOException
    {
        // Hadoop's LZ4 framing splits a page into blocks; 200 KB values give pages of several blocks
        RowType rowType = RowType.of(List.of(new DataField(0, "id", DataTypes.integer()), new DataField(1, "s", DataTypes.string())));
        Random random = new Random(42);
        List<List<Object>> rows = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            StringBuilder text = new StringBuilder();
            for (int j = 0; j < 200_000; j++) {
                text.append((char) ('a' + random.nextInt(random.nextInt(26) + 1)));
            }
            rows.add(List.of(i, text.toString()));
            expected.add(i + "\t" + text);
        }
        Path file = directory.resolve("large-" + compression + ".parquet");
        writeWithTarn(file, rowType, rows, ParquetWriteOptions.defaults().withCompression(compression).withDictionary(false), 3);

        assertThat(readWithPaimon(file, rowType)).containsExactlyElementsOf(expected);
        assertThat(footer(file).getRow_groups().get(0).getColumns().get(1).getMeta_data().getTotal_uncompressed_size()).isGreaterThan(600_000);
    }

    @Test
    public void testZstdLevelIsApplied()
            throws IOException
    {
        // text with repeats far apart: higher levels search further back and find them
        RowType rowType = RowType.of(List.of(new DataField(0, "id", DataTypes.integer()), new DataField(1, "s", DataTypes.string())));
        Random random = new Random(7);
        List<String> words = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            words.add(Long.toString(random.nextLong() & Long.MAX_VALUE, 36));
        }
        List<List<Object>> rows = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 4000; i++) {
            String text = words.get(random.nextInt(words.size())) + " " + words.get(random.nextInt(words.size()));
            rows.add(List.of(i, text));
            expected.add(i + "\t" + text);
        }
        Map<Integer, Long> sizes = new TreeMap<>();
        for (int level : List.of(1, 19)) {
            Path file = directory.resolve("zstd-level-" + level + ".parquet");
            writeWithTarn(file, rowType, rows, ParquetWriteOptions.defaults().withZstdLevel(level).withDictionary(false), 1000);
            assertThat(readWithPaimon(file, rowType)).containsExactlyElementsOf(expected);
            sizes.put(level, footer(file).getRow_groups().get(0).getColumns().get(1).getMeta_data().getTotal_compressed_size());
        }
        assertThat(sizes.get(19)).as("compressed sizes by level: %s", sizes).isLessThan(sizes.get(1));
    }

    @DataProvider
    public Object[][] dictionary()
    {
        return new Object[][] {{true}, {false}};
    }

    @Test(dataProvider = "dictionary")
    public void testManyRowGroupsAndPages(boolean dictionary)
            throws IOException
    {
        RowType rowType = RowType.of(List.of(
                new DataField(0, "id", DataTypes.integer().withNullable(false)),
                new DataField(1, "name", DataTypes.string()),
                new DataField(2, "tags", new io.tarn.types.ArrayType(DataTypes.string(), true)),
                new DataField(3, "price", DataTypes.decimal(20, 4))));
        List<List<Object>> rows = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            String name = i % 7 == 0 ? null : "name-" + (i % 50);
            List<Object> tags = i % 5 == 0 ? null : i % 5 == 1 ? List.of() : List.of("t" + i, "u" + (i % 3));
            BigDecimal price = new BigDecimal(BigInteger.valueOf(i * 1_000_003L - 1_500_000_000L), 4);
            rows.add(Arrays.asList(i, name, tags, price));
            String tagsText = i % 5 == 0 ? "\\N" : i % 5 == 1 ? "[]" : "[\"t" + i + "\",\"u" + (i % 3) + "\"]";
            expected.add(i + "\t" + (name == null ? "\\N" : name) + "\t" + tagsText + "\t" + price.toPlainString());
        }
        Path file = directory.resolve("row-groups-" + dictionary + ".parquet");
        ParquetWriteOptions options = ParquetWriteOptions.defaults().withPageSize(1024).withRowGroupSize(16 * 1024).withDictionary(dictionary);
        DataFileWriteResult result = writeWithTarn(file, rowType, rows, options, 700);

        assertThat(readWithPaimon(file, rowType)).containsExactlyElementsOf(expected);
        assertThat(result.rowCount()).isEqualTo(3000);
        FileMetaData footer = footer(file);
        assertThat(footer.getRow_groups()).hasSizeGreaterThan(1);
        assertThat(footer.getRow_groups().stream().mapToLong(RowGroup::getNum_rows).sum()).isEqualTo(3000);
        ColumnChunk firstName = footer.getRow_groups().get(0).getColumns().get(1);
        assertThat(offsetIndex(file, firstName).getPage_locations()).hasSizeGreaterThan(1);
        assertThat(firstName.getMeta_data().isSetDictionary_page_offset()).isEqualTo(dictionary);
        assertThat(firstName.getMeta_data().getEncodings().contains(Encoding.PLAIN_DICTIONARY)).isEqualTo(dictionary);
        assertThat(result.statistics().get(3)).isEqualTo(new ColumnStatistics(3, new BigDecimal("-150000.0000"), new BigDecimal("149900.8997"), 0));
    }

    @Test
    public void testDictionaryFallsBackToPlain()
            throws IOException
    {
        // repeated values make the first pages worth a dictionary; then 1.2 MB of distinct values
        // outgrow parquet-mr's 1 MB dictionary, so the later pages are plain
        RowType rowType = RowType.of(List.of(new DataField(0, "s", DataTypes.string())));
        List<List<Object>> rows = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 6000; i++) {
            String value = String.format("%06d", i < 2000 ? i % 10 : i) + "x".repeat(294);
            rows.add(List.of(value));
            expected.add(value);
        }
        Path file = directory.resolve("dictionary-fallback.parquet");
        // pages smaller than the dictionary, so that dictionary-encoded pages are written before the fallback
        writeWithTarn(file, rowType, rows, ParquetWriteOptions.defaults().withPageSize(64 * 1024), 1000);

        assertThat(readWithPaimon(file, rowType)).containsExactlyElementsOf(expected);
        ColumnChunk chunk = footer(file).getRow_groups().get(0).getColumns().get(0);
        assertThat(chunk.getMeta_data().isSetDictionary_page_offset()).isTrue();
        assertThat(chunk.getMeta_data().getEncoding_stats())
                .extracting(PageEncodingStats::getPage_type, PageEncodingStats::getEncoding)
                .contains(tuple(PageType.DICTIONARY_PAGE, Encoding.PLAIN_DICTIONARY), tuple(PageType.DATA_PAGE, Encoding.PLAIN_DICTIONARY), tuple(PageType.DATA_PAGE, Encoding.PLAIN));
    }

    @Test
    public void testPageIndexesLetPaimonSkipPages()
            throws IOException
    {
        RowType rowType = RowType.of(List.of(
                new DataField(0, "id", DataTypes.integer().withNullable(false)),
                new DataField(1, "name", DataTypes.string())));
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            rows.add(Arrays.asList(i, i % 10 == 3 ? null : String.format("n%05d", i) + "-".repeat(i % 100)));
        }
        Path file = directory.resolve("page-index.parquet");
        writeWithTarn(file, rowType, rows, ParquetWriteOptions.defaults().withPageSize(2048).withDictionary(false), 1000);

        FileMetaData footer = footer(file);
        assertThat(footer.getRow_groups()).hasSize(1);
        for (ColumnChunk chunk : footer.getRow_groups().get(0).getColumns()) {
            assertThat(chunk.isSetColumn_index_offset()).isTrue();
            assertThat(offsetIndex(file, chunk).getPage_locations()).hasSizeGreaterThan(5);
        }

        org.apache.paimon.types.RowType paimonType = ArrowRows.paimonRowType(rowType);
        PredicateBuilder predicates = new PredicateBuilder(paimonType);
        List<String> byId = readWithPaimon(file, rowType, predicates.equal(0, 1500));
        assertThat(byId).contains("1500\tn01500").hasSizeLessThan(1000);
        List<String> byName = readWithPaimon(file, rowType, predicates.equal(1, BinaryString.fromString("n02024" + "-".repeat(24))));
        assertThat(byName).contains("2024\tn02024" + "-".repeat(24)).hasSizeLessThan(1000);
        List<String> byNull = readWithPaimon(file, rowType, predicates.isNull(1));
        assertThat(byNull).contains("13\t\\N", "2993\t\\N");
    }

    @Test
    public void testRandomRowsMatchPaimon()
            throws IOException
    {
        long seed = System.nanoTime();
        System.out.println("TestParquetFileWriter.testRandomRowsMatchPaimon seed " + seed);
        Random random = new Random(seed);
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            List<Object> row = new ArrayList<>();
            row.add(i);
            for (int column = 1; column < ALL_TYPES.size(); column++) {
                row.add(randomValue(random, ALL_TYPES.fields().get(column).type()));
            }
            rows.add(row);
        }
        Path tarnFile = directory.resolve("random-tarn.parquet");
        Path paimonFile = directory.resolve("random-paimon.parquet");
        ParquetWriteOptions options = ParquetWriteOptions.defaults().withPageSize(512).withRowGroupSize(32 * 1024).withDictionary(random.nextBoolean());
        writeWithTarn(tarnFile, ALL_TYPES, rows, options, 1 + random.nextInt(300));
        writeWithPaimon(paimonFile, ALL_TYPES, rows);

        assertThat(readWithPaimon(tarnFile, ALL_TYPES)).as("seed %s", seed).containsExactlyElementsOf(readWithPaimon(paimonFile, ALL_TYPES));
        assertThat(paimonStats(tarnFile, ALL_TYPES)).as("seed %s", seed).containsExactlyElementsOf(paimonStats(paimonFile, ALL_TYPES));
    }

    private static Object randomValue(Random random, DataType type)
    {
        if (type.nullable() && random.nextInt(5) == 0) {
            return null;
        }
        if (type instanceof io.tarn.types.ArrayType array) {
            List<Object> elements = new ArrayList<>();
            int size = random.nextInt(4);
            for (int i = 0; i < size; i++) {
                elements.add(randomValue(random, array.element()));
            }
            return elements;
        }
        if (type instanceof MapType map) {
            Map<Object, Object> entries = new LinkedHashMap<>();
            int size = random.nextInt(4);
            for (int i = 0; i < size; i++) {
                entries.put(randomValue(random, map.key().withNullable(false)), randomValue(random, map.value()));
            }
            return entries;
        }
        if (type instanceof RowType row) {
            List<Object> fields = new ArrayList<>();
            for (DataField field : row.fields()) {
                fields.add(randomValue(random, field.type()));
            }
            return fields;
        }
        io.tarn.types.AtomicType atomic = (io.tarn.types.AtomicType) type;
        return switch (atomic.root()) {
            case BOOLEAN -> random.nextBoolean();
            case TINYINT -> (byte) random.nextInt();
            case SMALLINT -> (short) random.nextInt();
            case INT -> random.nextInt();
            case BIGINT -> random.nextLong();
            case FLOAT -> random.nextFloat() * 2000 - 1000;
            case DOUBLE -> random.nextDouble() * 2e6 - 1e6;
            case DECIMAL -> new BigDecimal(new BigInteger(126, random).mod(BigInteger.TEN.pow(atomic.precision())).subtract(random.nextBoolean() ? BigInteger.ZERO : BigInteger.TEN.pow(atomic.precision() - 1)), atomic.scale());
            case CHAR, VARCHAR -> randomString(random, Math.min(atomic.precision(), 30));
            case BINARY -> randomBytes(random, atomic.precision());
            case VARBINARY -> randomBytes(random, random.nextInt(Math.min(atomic.precision(), 30) + 1));
            case DATE -> random.nextInt(200_000) - 100_000;
            case TIME -> random.nextInt(86_400) * 1000;
            case TIMESTAMP, TIMESTAMP_LTZ -> randomTimestamp(random, atomic.precision());
            default -> throw new IllegalArgumentException("Unsupported test type " + type);
        };
    }

    private static String randomString(Random random, int maxCodePoints)
    {
        int[] alphabet = {'a', 'b', 'Z', '0', ' ', '\t', '"', '\\', 0xe9, 0x65e5, 0x1f389, 0xff5e};
        StringBuilder text = new StringBuilder();
        int length = random.nextInt(maxCodePoints + 1);
        for (int i = 0; i < length; i++) {
            text.appendCodePoint(alphabet[random.nextInt(alphabet.length)]);
        }
        return text.toString();
    }

    private static byte[] randomBytes(Random random, int length)
    {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    private static Timestamp randomTimestamp(Random random, int precision)
    {
        // 1700..2250, inside the range of nanosecond longs
        long epochSecond = -8_520_336_000L + (long) (random.nextDouble() * 17_356_000_000L);
        int nanos = random.nextInt(1_000_000_000);
        int unit = precision <= 3 ? 1_000_000 : precision <= 6 ? 1000 : 1;
        return Timestamp.of(Instant.ofEpochSecond(epochSecond, nanos / unit * unit));
    }

    @Test
    public void testEmptyFile()
            throws IOException
    {
        Path file = directory.resolve("empty.parquet");
        DataFileWriteResult result = writeWithTarn(file, ALL_TYPES, List.of(), ParquetWriteOptions.defaults(), 1);

        assertThat(result.rowCount()).isZero();
        assertThat(result.statistics()).allSatisfy(statistics -> {
            assertThat(statistics.min()).isNull();
            assertThat(statistics.nullCount()).isZero();
        });
        assertThat(readWithPaimon(file, ALL_TYPES)).isEmpty();
    }

    @Test
    public void testBytesWrittenGrowsAndSchemaIsChecked()
            throws IOException
    {
        RowType other = RowType.of(List.of(new DataField(0, "id", DataTypes.bigint())));
        try (OutputStream out = Files.newOutputStream(directory.resolve("size.parquet"));
                ParquetFileWriter writer = ParquetFileWriter.create(out, "size.parquet", ALL_TYPES, ParquetWriteOptions.defaults(), allocator)) {
            assertThat(writer.bytesWritten()).isEqualTo(4);
            try (VectorSchemaRoot batch = ArrowRows.toBatch(ALL_TYPES, ALL_TYPES_ROWS, allocator)) {
                writer.write(batch);
            }
            assertThat(writer.bytesWritten()).isGreaterThan(4);
            try (VectorSchemaRoot batch = ArrowRows.toBatch(other, List.of(List.of(1L)), allocator)) {
                assertThatThrownBy(() -> writer.write(batch))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("size.parquet");
            }
        }
    }

    private DataFileWriteResult writeWithTarn(Path file, RowType rowType, List<List<Object>> rows, ParquetWriteOptions options, int batchSize)
            throws IOException
    {
        try (OutputStream out = Files.newOutputStream(file);
                ParquetFileWriter writer = ParquetFileWriter.create(out, file.getFileName().toString(), rowType, options, allocator)) {
            for (int from = 0; from < rows.size(); from += batchSize) {
                try (VectorSchemaRoot batch = ArrowRows.toBatch(rowType, rows.subList(from, Math.min(rows.size(), from + batchSize)), allocator)) {
                    writer.write(batch);
                }
            }
            return writer.finish();
        }
    }

    private static void writeWithPaimon(Path file, RowType rowType, List<List<Object>> rows)
            throws IOException
    {
        org.apache.paimon.types.RowType paimonType = ArrowRows.paimonRowType(rowType);
        FileFormat format = FileFormat.fromIdentifier("parquet", new Options());
        try (PositionOutputStream out = LocalFileIO.create().newOutputStream(paimonPath(file), false)) {
            FormatWriter writer = format.createWriterFactory(paimonType).create(out, "zstd");
            for (List<Object> row : rows) {
                writer.addElement(ArrowRows.paimonRow(rowType, row));
            }
            writer.close();
        }
    }

    private static List<String> readWithPaimon(Path file, RowType rowType, Predicate... filters)
            throws IOException
    {
        org.apache.paimon.types.RowType paimonType = ArrowRows.paimonRowType(rowType);
        // Paimon then also checks every page's CRC
        FileFormat format = FileFormat.fromIdentifier("parquet", Options.fromMap(Map.of("parquet.page.verify-checksum.enabled", "true")));
        List<String> lines = new ArrayList<>();
        FormatReaderContext context = new FormatReaderContext(LocalFileIO.create(), paimonPath(file), Files.size(file));
        try (RecordReader<InternalRow> reader = format.createReaderFactory(paimonType, paimonType, List.of(filters)).createReader(context)) {
            reader.forEachRemaining(row -> lines.add(CanonicalValueFormatter.formatRow(row, paimonType)));
        }
        return lines;
    }

    private static List<SimpleColStats> paimonStats(Path file, RowType rowType)
            throws IOException
    {
        org.apache.paimon.types.RowType paimonType = ArrowRows.paimonRowType(rowType);
        SimpleStatsExtractor extractor = FileFormat.fromIdentifier("parquet", new Options())
                .createStatsExtractor(paimonType, SimpleColStatsCollector.createFullStatsFactories(paimonType.getFieldCount()))
                .orElseThrow();
        return List.of(extractor.extract(LocalFileIO.create(), paimonPath(file), Files.size(file)));
    }

    private static org.apache.paimon.fs.Path paimonPath(Path file)
    {
        return new org.apache.paimon.fs.Path(file.toUri().toString());
    }

    static FileMetaData footer(Path file)
            throws IOException
    {
        byte[] bytes = Files.readAllBytes(file);
        assertThat(new String(bytes, 0, 4, StandardCharsets.US_ASCII)).isEqualTo("PAR1");
        assertThat(new String(bytes, bytes.length - 4, 4, StandardCharsets.US_ASCII)).isEqualTo("PAR1");
        int length = (bytes[bytes.length - 8] & 0xFF)
                | (bytes[bytes.length - 7] & 0xFF) << 8
                | (bytes[bytes.length - 6] & 0xFF) << 16
                | (bytes[bytes.length - 5] & 0xFF) << 24;
        return Util.readFileMetaData(new ByteArrayInputStream(bytes, bytes.length - 8 - length, length));
    }

    private static OffsetIndex offsetIndex(Path file, ColumnChunk chunk)
            throws IOException
    {
        byte[] bytes = Files.readAllBytes(file);
        return Util.readOffsetIndex(new ByteArrayInputStream(bytes, (int) chunk.getOffset_index_offset(), chunk.getOffset_index_length()));
    }

    // what a reader needs from each chunk's metadata: path, type, value count and statistics
    private static List<String> chunkSummaries(List<ColumnChunk> chunks)
    {
        return chunks.stream()
                .map(chunk -> chunk.getMeta_data().getPath_in_schema() + " " + chunk.getMeta_data().getType()
                        + " " + chunk.getMeta_data().getNum_values() + " " + chunk.getMeta_data().getStatistics())
                .toList();
    }

    private static Object comparable(Object value)
    {
        return value instanceof byte[] bytes ? HexFormat.of().formatHex(bytes) : value;
    }

    private static byte[] bytes(int... values)
    {
        byte[] bytes = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            bytes[i] = (byte) values[i];
        }
        return bytes;
    }

    private static Timestamp local(String text)
    {
        return Timestamp.of(LocalDateTime.parse(text));
    }

    private static Timestamp instant(String text)
    {
        return Timestamp.of(Instant.parse(text));
    }

    private static Map<Object, Object> map(Object... keysAndValues)
    {
        Map<Object, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    private static List<Object> allNullExceptId(int id)
    {
        List<Object> row = new ArrayList<>();
        row.add(id);
        for (int i = 1; i < ALL_TYPES.size(); i++) {
            row.add(null);
        }
        return row;
    }
}
