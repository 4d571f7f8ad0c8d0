package io.tarn.storage.write;

import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.Predicates;
import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.manifest.DataFileMeta;
import io.tarn.storage.read.ReadRequest;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.source.TableRead;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.CanonicalRows;
import io.tarn.testing.CanonicalValueFormatter;
import io.tarn.testing.ReferenceLayout;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.ReferenceScan;
import io.tarn.testing.ReferenceTable;
import io.tarn.testing.ReferenceTables;
import io.tarn.testing.TemporaryDirectories;
import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.TypeRoot;
import io.tarn.vector.rows.CanonicalRowFormatter;
import org.apache.arrow.memory.RootAllocator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.serializer.InternalRowSerializer;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.shade.org.apache.orc.CompressionKind;
import org.apache.paimon.shade.org.apache.orc.OrcFile;
import org.apache.paimon.shade.org.apache.orc.Reader;
import org.apache.paimon.shade.org.apache.orc.StripeInformation;
import org.apache.paimon.shade.org.apache.orc.TypeDescription;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataTypes;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Append tables with {@code file.format=orc} written by Tarn, checked with Apache Paimon and
 * ORC's own reader: the rows of each ORC reference table, written by Tarn into a new table of the
 * same options, are read back by Paimon identically (with every codec Paimon writes), Paimon can
 * append to them, and each file carries the ORC schema (types and {@code paimon.id} attributes)
 * and the manifest statistics Paimon's own writer gives the same rows.
 */
public class TestOrcTableWriter
{
    private static final List<ReferenceTable> SOURCES = List.of(ReferenceTables.APPEND_ALL_TYPES, ReferenceTables.APPEND_NESTED,
            ReferenceTables.APPEND_PARTITIONED, ReferenceTables.APPEND_DATE_PARTITIONED, ReferenceTables.APPEND_BUCKETED);

    private Path warehouse;
    private FileSystemCatalog catalog;
    private RootAllocator allocator;
    private RawLocalFileSystem fileSystem;

    @BeforeClass
    public void createTables()
            throws IOException
    {
        warehouse = TemporaryDirectories.create("tarn-orc-writer");
        allocator = new RootAllocator();
        for (ReferenceTable table : SOURCES) {
            ReferenceTables.create(warehouse, table, ReferenceLayout.ORC);
        }
        catalog = new FileSystemCatalog(new LocalFileIO(), warehouse.toString());
        // Hadoop's cached file systems ask for the current user, which JDK 24+ no longer gives
        fileSystem = new RawLocalFileSystem();
        fileSystem.initialize(URI.create("file:///"), new Configuration(false));
    }

    @AfterClass(alwaysRun = true)
    public void deleteTables()
            throws IOException
    {
        if (allocator != null) {
            assertThat(allocator.getAllocatedMemory()).as("Arrow memory leaked").isZero();
            allocator.close();
        }
        if (fileSystem != null) {
            fileSystem.close();
        }
        TemporaryDirectories.deleteRecursively(warehouse);
    }

    @DataProvider
    public Object[][] tables()
    {
        return SOURCES.stream().map(table -> new Object[] {table}).toArray(Object[][]::new);
    }

    @Test(dataProvider = "tables")
    public void testPaimonReadsWhatTarnWrites(ReferenceTable source)
            throws Exception
    {
        String copyName = source.identifier() + "_tarn";
        PaimonTable copy = TableCopies.copyWithTarn(catalog, allocator, source.identifier(), copyName, Map.of());
        assertThat(dataFiles(copyName)).isNotEmpty().allMatch(name -> name.endsWith(".orc"));
        String expected = ReferenceReader.read(warehouse, source.identifier()).text();
        assertThat(ReferenceReader.read(warehouse, copyName).text()).as("Paimon reads %s", copyName).isEqualTo(expected);
        assertThat(TableCopies.tarnRows(copy, allocator)).as("Tarn reads %s", copyName).isEqualTo(expected);

        // Paimon appends to the table Tarn wrote; both readers agree afterwards
        TableCopies.appendNullsWithPaimon(warehouse, copyName);
        assertThat(ReferenceReader.read(warehouse, copyName).rowCount()).isEqualTo(ReferenceReader.read(warehouse, source.identifier()).rowCount() + 1);
        assertThat(TableCopies.tarnRows(table(copyName), allocator)).isEqualTo(ReferenceReader.read(warehouse, copyName).text());
    }

    @DataProvider
    public Object[][] codecs()
    {
        return new Object[][] {
                {"default", Map.of(), CompressionKind.ZSTD},
                {"file_none", Map.of("file.compression", "none"), CompressionKind.NONE},
                {"orc_zlib", Map.of("orc.compress", "zlib"), CompressionKind.ZLIB},
                {"zstd_9", Map.of("file.compression", "zstd", "file.compression.zstd-level", "9"), CompressionKind.ZSTD},
                {"file_snappy", Map.of("file.compression", "snappy"), CompressionKind.SNAPPY},
                {"orc_lz4", Map.of("orc.compress", "LZ4", "file.compression", "snappy"), CompressionKind.LZ4},
                // chunks of 64 bytes: many chunks per stream, some not shrinking and stored as they are
                {"small_chunks", Map.of("orc.compress", "zlib", "orc.compress.size", "64"), CompressionKind.ZLIB},
        };
    }

    @Test(dataProvider = "codecs")
    public void testEveryCodecPaimonWritesIsReadByPaimon(String suffix, Map<String, String> options, CompressionKind codec)
            throws Exception
    {
        for (ReferenceTable source : List.of(ReferenceTables.APPEND_ALL_TYPES, ReferenceTables.APPEND_NESTED)) {
            String copyName = source.identifier() + "_" + suffix;
            PaimonTable copy = TableCopies.copyWithTarn(catalog, allocator, source.identifier(), copyName, options);
            for (Path file : dataFilePaths(copyName)) {
                try (Reader reader = orcReader(file)) {
                    assertThat(reader.getCompressionKind()).isEqualTo(codec);
                }
            }
            String expected = ReferenceReader.read(warehouse, source.identifier()).text();
            assertThat(ReferenceReader.read(warehouse, copyName).text()).isEqualTo(expected);
            assertThat(TableCopies.tarnRows(copy, allocator)).isEqualTo(expected);
        }
    }

    /**
     * The same rows in one file, written by Paimon and by Tarn: the files declare the same ORC
     * types with the same field ids, and their statistics in the manifest are byte for byte the
     * same (taken by Paimon from the ORC footer for its file, returned by Tarn's writer for its).
     */
    @Test
    public void testSchemaAndStatisticsAreThoseOfPaimon()
            throws Exception
    {
        for (ReferenceTable source : List.of(ReferenceTables.APPEND_ALL_TYPES, ReferenceTables.APPEND_NESTED)) {
            String byPaimon = source.identifier() + "_one_file_paimon";
            String byTarn = source.identifier() + "_one_file_tarn";
            copyWithPaimon(source.identifier(), byPaimon);
            TableCopies.copyWithTarn(catalog, allocator, source.identifier(), byTarn, Map.of());
            DataFileMeta paimonFile = onlyFile(byPaimon);
            DataFileMeta tarnFile = onlyFile(byTarn);
            assertThat(tarnFile.rowCount()).isEqualTo(paimonFile.rowCount());
            assertThat(tarnFile.valueStatsCols()).isEqualTo(paimonFile.valueStatsCols());
            assertThat(tarnFile.valueStats()).as("statistics of %s", source.identifier()).isEqualTo(paimonFile.valueStats());
            try (Reader tarnReader = orcReader(dataFilePaths(byTarn).get(0)); Reader paimonReader = orcReader(dataFilePaths(byPaimon).get(0))) {
                assertThat(describe(tarnReader.getSchema())).isEqualTo(describe(paimonReader.getSchema()));
                assertThat(tarnReader.getNumberOfRows()).isEqualTo(paimonReader.getNumberOfRows());
                // the file statistics ORC's reader finds, as it prints them, but three: the bytes each
                // column takes on disk, which Tarn does not record (and which differ: Paimon's writer
                // may use dictionaries); the children counts of lists and maps, where orc-core 1.9
                // counts the capacity of each batch's vector, once a batch, and Tarn the entries
                // (checked below); the sums of decimals wider than 18 digits, which ORC rounds to 38
                // digits as it adds, so that they depend on the order of the rows, which differs
                assertThat(printed(tarnReader)).isEqualTo(printed(paimonReader));
            }
        }
        try (Reader reader = orcReader(dataFilePaths(ReferenceTables.APPEND_NESTED.identifier() + "_one_file_tarn").get(0))) {
            // the first ARRAY column: its entries, counted by Paimon's reader
            TypeDescription array = reader.getSchema().getChildren().get(1);
            assertThat(array.getCategory()).isEqualTo(TypeDescription.Category.LIST);
            long[] sizes = paimonRows(ReferenceTables.APPEND_NESTED.identifier()).stream()
                    .filter(row -> !row.isNullAt(1))
                    .mapToLong(row -> row.getArray(1).size())
                    .toArray();
            assertThat(reader.getStatistics()[array.getId()].toString())
                    .endsWith(" minChildren: " + LongStream.of(sizes).min().orElseThrow() + " maxChildren: " + LongStream.of(sizes).max().orElseThrow()
                            + " totalChildren: " + LongStream.of(sizes).sum());
        }
    }

    /**
     * 25,000 rows Paimon wrote, copied by Tarn into small stripes (several row groups of 10,000
     * rows, stripes closed at 1 MB, compression chunks of 4 KiB): Paimon and Tarn read them all
     * back, and a filter on the row id lets Paimon (through orc-core's row index) and Tarn skip
     * row groups; the rows each returns are those of the source, so the row index's statistics
     * and stream positions are right.
     */
    @Test
    public void testRowGroupsAndStripes()
            throws Exception
    {
        String sourceName = "ref.many_rows";
        int rows = 25_000;
        long seed = new Random().nextLong();
        System.out.println("testRowGroupsAndStripes seed: " + seed);
        writeManyRowsWithPaimon(sourceName, rows, seed);
        String copyName = sourceName + "_tarn";
        PaimonTable copy = TableCopies.copyWithTarn(catalog, allocator, sourceName, copyName,
                Map.of("orc.stripe.size", "1000000", "orc.compress.size", "4096"));
        List<Path> files = dataFilePaths(copyName);
        assertThat(files).hasSize(1);
        // the first rows of a stripe with a second row group
        long groupStart = -1;
        try (Reader reader = orcReader(files.get(0))) {
            assertThat(reader.getNumberOfRows()).isEqualTo(rows);
            assertThat(reader.getStripes().size()).as("stripes").isGreaterThan(1);
            assertThat(reader.getRowIndexStride()).isEqualTo(10_000);
            assertThat(reader.getCompressionSize()).isEqualTo(4096);
            long stripeStart = 0;
            for (StripeInformation stripe : reader.getStripes()) {
                if (groupStart < 0 && stripe.getNumberOfRows() > 10_100) {
                    groupStart = stripeStart + 10_000;
                }
                stripeStart += stripe.getNumberOfRows();
            }
        }
        assertThat(groupStart).as("a stripe of several row groups").isPositive();
        CanonicalRows expected = ReferenceReader.read(warehouse, sourceName);
        assertThat(expected.rowCount()).isEqualTo(rows);
        assertThat(ReferenceReader.read(warehouse, copyName)).isEqualTo(expected);
        assertThat(TableCopies.tarnRows(copy, allocator)).isEqualTo(expected.text());

        Map<String, String> sourceRows = new HashMap<>();
        for (String line : expected.lines()) {
            sourceRows.put(line.substring(0, line.indexOf('\t')), line);
        }
        // 100 ids in the second row group of a stripe
        long low = groupStart;
        long high = groupStart + 99;
        PredicateBuilder predicates = ReferenceReader.predicateBuilder(warehouse, ReferenceScan.of(copyName));
        List<String> paimonLines = paimonFilteredRows(copyName, predicates.between(0, low, high));
        List<String> tarnLines = new ArrayList<>();
        FieldRef id = new FieldRef(0, "id", copy.schema().fields().get(0).type());
        Predicate filter = Predicates.and(Predicates.greaterOrEqual(id, low), Predicates.lessOrEqual(id, high));
        ScanPlan plan = new ScanPlanner(copy).plan(copy.snapshot(new ScanVersion.Latest()));
        TableRead.forEachBatch(copy, plan, ReadRequest.of(plan.readSchema().fields()).withPruningFilter(filter), allocator,
                batch -> CanonicalRowFormatter.appendLines(batch, plan.readSchema().fields(), tarnLines));
        for (List<String> lines : List.of(paimonLines, tarnLines)) {
            assertThat(lines.size()).as("rows left after skipping row groups").isBetween(100, rows - 10_000);
            for (String line : lines) {
                assertThat(line).isEqualTo(sourceRows.get(line.substring(0, line.indexOf('\t'))));
            }
            assertThat(lines.stream().map(line -> Long.parseLong(line.substring(0, line.indexOf('\t')))).filter(value -> value >= low && value <= high).count())
                    .isEqualTo(100);
        }
    }

    /**
     * Paimon writes {@code rows} random rows (ids 0 .. rows - 1, a tenth of every other column
     * null) into a new ORC table in one commit.
     */
    private void writeManyRowsWithPaimon(String tableName, int rows, long seed)
            throws Exception
    {
        try (Catalog paimon = TableCopies.paimonCatalog(warehouse)) {
            Schema schema = Schema.newBuilder()
                    .column("id", DataTypes.BIGINT().notNull())
                    .column("v", DataTypes.DOUBLE())
                    .column("s", DataTypes.STRING())
                    .column("ts", DataTypes.TIMESTAMP(9))
                    .column("ltz", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6))
                    .column("wide", DataTypes.DECIMAL(38, 10))
                    .column("narrow", DataTypes.DECIMAL(9, 2))
                    .column("flag", DataTypes.BOOLEAN())
                    .column("tiny", DataTypes.TINYINT())
                    .column("d", DataTypes.DATE())
                    .column("tags", DataTypes.ARRAY(DataTypes.INT()))
                    .column("r", DataTypes.ROW(DataTypes.FIELD(20, "a", DataTypes.INT()), DataTypes.FIELD(21, "b", DataTypes.STRING())))
                    .option("file.format", "orc")
                    .build();
            paimon.createTable(org.apache.paimon.catalog.Identifier.fromString(tableName), schema, false);
            FileStoreTable table = (FileStoreTable) paimon.getTable(org.apache.paimon.catalog.Identifier.fromString(tableName));
            Random random = new Random(seed);
            BatchWriteBuilder builder = table.newBatchWriteBuilder();
            try (BatchTableWrite write = builder.newWrite(); BatchTableCommit commit = builder.newCommit()) {
                for (int row = 0; row < rows; row++) {
                    GenericRow values = new GenericRow(12);
                    values.setField(0, (long) row);
                    values.setField(1, random.nextInt(50) == 0 ? Double.NaN : random.nextGaussian() * 1e6);
                    values.setField(2, BinaryString.fromString(random.nextInt(3) == 0 ? "" : Long.toString(random.nextLong(), 36).repeat(1 + random.nextInt(4))));
                    values.setField(3, org.apache.paimon.data.Timestamp.fromEpochMillis(random.nextLong() % 4_000_000_000_000L, random.nextInt(1_000_000)));
                    values.setField(4, org.apache.paimon.data.Timestamp.fromEpochMillis(random.nextLong() % 4_000_000_000_000L, random.nextInt(1000) * 1000));
                    values.setField(5, Decimal.fromBigDecimal(new BigDecimal(new BigInteger(120, random), 10).subtract(BigDecimal.valueOf(random.nextLong())), 38, 10));
                    values.setField(6, Decimal.fromUnscaledLong(random.nextLong() % 999_999_999L, 9, 2));
                    values.setField(7, random.nextBoolean());
                    values.setField(8, (byte) random.nextInt());
                    values.setField(9, random.nextInt(100_000) - 50_000);
                    values.setField(10, new GenericArray(random.ints(random.nextInt(5)).boxed().toArray(Integer[]::new)));
                    values.setField(11, GenericRow.of(random.nextInt(), BinaryString.fromString("b" + random.nextInt(10))));
                    for (int field = 1; field < 12; field++) {
                        if (random.nextInt(10) == 0) {
                            values.setField(field, null);
                        }
                    }
                    write.write(values);
                }
                commit.commit(write.prepareCommit());
            }
        }
    }

    /**
     * The rows Paimon returns for {@code filter}, which it uses to skip files and row groups
     * only: whole row groups come back.
     */
    private List<String> paimonFilteredRows(String tableName, org.apache.paimon.predicate.Predicate filter)
            throws Exception
    {
        try (Catalog paimon = TableCopies.paimonCatalog(warehouse)) {
            FileStoreTable table = (FileStoreTable) paimon.getTable(org.apache.paimon.catalog.Identifier.fromString(tableName));
            ReadBuilder read = table.newReadBuilder().withFilter(filter);
            List<String> lines = new ArrayList<>();
            try (RecordReader<InternalRow> reader = read.newRead().createReader(read.newScan().plan())) {
                reader.forEachRemaining(row -> lines.add(CanonicalValueFormatter.formatRow(row, table.rowType())));
            }
            return lines;
        }
    }

    /**
     * A timestamp in the second before 1970 is stored by ORC as second 0 and read back one second
     * late, by Paimon too: Tarn refuses it, and commits nothing.
     */
    @Test
    public void testTimestampsOrcReadsWrongAreRefused()
            throws Exception
    {
        for (String format : List.of("orc", "parquet")) {
            try (Catalog paimon = TableCopies.paimonCatalog(warehouse)) {
                Schema schema = Schema.newBuilder()
                        .column("id", DataTypes.INT())
                        .column("ts", DataTypes.TIMESTAMP(6))
                        .option("file.format", format)
                        .build();
                org.apache.paimon.catalog.Identifier identifier = org.apache.paimon.catalog.Identifier.fromString("ref.epoch_second_" + format);
                paimon.createTable(identifier, schema, false);
                BatchWriteBuilder builder = paimon.getTable(identifier).newBatchWriteBuilder();
                try (BatchTableWrite write = builder.newWrite(); BatchTableCommit commit = builder.newCommit()) {
                    write.write(GenericRow.of(1, org.apache.paimon.data.Timestamp.fromEpochMillis(-1_500, 0)));
                    write.write(GenericRow.of(2, org.apache.paimon.data.Timestamp.fromEpochMillis(-1, 999_000)));
                    commit.commit(write.prepareCommit());
                }
            }
        }
        // Paimon's own ORC file: 1969-12-31 23:59:58.5 reads back right, 23:59:59.999999 a second late
        assertThat(ReferenceReader.read(warehouse, "ref.epoch_second_orc").lines()).containsExactly(
                "1\t1969-12-31T23:59:58.500000",
                "2\t1970-01-01T00:00:00.999999");
        assertThat(ReferenceReader.read(warehouse, "ref.epoch_second_parquet").lines()).containsExactly(
                "1\t1969-12-31T23:59:58.500000",
                "2\t1969-12-31T23:59:59.999999");

        String copyName = "ref.epoch_second_tarn";
        assertThatThrownBy(() -> TableCopies.copyWithTarn(catalog, allocator, "ref.epoch_second_parquet", copyName, Map.of("file.format", "orc")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Table " + copyName + ": Column ts has the value 1969-12-31T23:59:59.999999, which an ORC file cannot hold");
        assertThat(table(copyName).snapshot(new ScanVersion.Latest())).isEmpty();
        assertThat(dataFiles(copyName)).isEmpty();
    }

    @Test
    public void testCodecsTarnDoesNotWriteAreRefusedBeforeWriting()
            throws Exception
    {
        PaimonTable table = createTarnTable("ref.orc_lzo", Map.of("file.format", "orc", "orc.compress", "lzo"), List.of(
                new DataField(0, "id", new AtomicType(TypeRoot.INT, 0, 0, true))));
        assertThatThrownBy(() -> new AppendTableWriter(table, allocator).close())
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("ref.orc_lzo")
                .hasMessageContaining("ORC compression LZO is not written by Tarn yet");
        assertThat(dataFiles("ref.orc_lzo")).isEmpty();
    }

    @Test
    public void testTypesOrcCannotHoldAreRefusedBeforeWriting()
            throws Exception
    {
        PaimonTable table = createTarnTable("ref.orc_variant", Map.of("file.format", "orc"), List.of(
                new DataField(0, "id", new AtomicType(TypeRoot.INT, 0, 0, true)),
                new DataField(1, "v", new AtomicType(TypeRoot.VARIANT, 0, 0, true))));
        assertThatThrownBy(() -> new AppendTableWriter(table, allocator).close())
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("ref.orc_variant")
                .hasMessageContaining("Column v is VARIANT");
    }

    private static List<String> printed(Reader reader)
    {
        List<String> columns = new ArrayList<>();
        for (int column = 0; column < reader.getStatistics().length; column++) {
            String printed = reader.getStatistics()[column].toString()
                    .replaceAll(" bytesOnDisk: \\d+", "")
                    .replaceAll(" minChildren: \\d+ maxChildren: \\d+( totalChildren: \\d+)?", "");
            TypeDescription type = reader.getSchema().findSubtype(column);
            if (type.getCategory() == TypeDescription.Category.DECIMAL && type.getPrecision() > 18) {
                printed = printed.replaceAll(" sum: \\S+", "");
            }
            columns.add(column + ": " + printed);
        }
        return columns;
    }

    /**
     * Each ORC type node, with its attributes, in pre-order.
     */
    private static List<String> describe(TypeDescription type)
    {
        List<String> nodes = new ArrayList<>();
        describe(type, nodes);
        return nodes;
    }

    private static void describe(TypeDescription type, List<String> nodes)
    {
        StringBuilder node = new StringBuilder(type.getId() + " " + type.getCategory() + " " + type);
        for (String attribute : type.getAttributeNames()) {
            node.append(" ").append(attribute).append("=").append(type.getAttributeValue(attribute));
        }
        nodes.add(node.toString());
        if (type.getChildren() != null) {
            for (TypeDescription child : type.getChildren()) {
                describe(child, nodes);
            }
        }
    }

    private Reader orcReader(Path file)
            throws IOException
    {
        return OrcFile.createReader(new org.apache.hadoop.fs.Path(file.toUri()), OrcFile.readerOptions(new Configuration(false)).filesystem(fileSystem));
    }

    private PaimonTable createTarnTable(String name, Map<String, String> options, List<DataField> fields)
            throws IOException
    {
        catalog.createTable(Identifier.parse(name), new TableSchema(TableSchema.CURRENT_VERSION, 0, fields, fields.size() - 1, List.of(), List.of(), options, Optional.empty(), System.currentTimeMillis()));
        return table(name);
    }

    /**
     * Paimon reads every row of {@code sourceName} and writes them into a new table of the same
     * schema in one commit: one data file.
     */
    private void copyWithPaimon(String sourceName, String copyName)
            throws Exception
    {
        try (Catalog paimon = TableCopies.paimonCatalog(warehouse)) {
            FileStoreTable source = (FileStoreTable) paimon.getTable(org.apache.paimon.catalog.Identifier.fromString(sourceName));
            Map<String, String> options = new LinkedHashMap<>(source.schema().options());
            // the location is the catalog's to choose
            options.remove("path");
            Schema.Builder schema = Schema.newBuilder().options(options);
            source.rowType().getFields().forEach(field -> schema.column(field.name(), field.type()));
            paimon.createTable(org.apache.paimon.catalog.Identifier.fromString(copyName), schema.build(), false);
            FileStoreTable copy = (FileStoreTable) paimon.getTable(org.apache.paimon.catalog.Identifier.fromString(copyName));
            InternalRowSerializer serializer = new InternalRowSerializer(source.rowType());
            List<InternalRow> rows = new ArrayList<>();
            ReadBuilder read = source.newReadBuilder();
            try (RecordReader<InternalRow> reader = read.newRead().createReader(read.newScan().plan())) {
                reader.forEachRemaining(row -> rows.add(serializer.copy(row)));
            }
            BatchWriteBuilder builder = copy.newBatchWriteBuilder();
            try (BatchTableWrite write = builder.newWrite(); BatchTableCommit commit = builder.newCommit()) {
                for (InternalRow row : rows) {
                    write.write(row);
                }
                commit.commit(write.prepareCommit());
            }
        }
    }

    /**
     * Every row of {@code tableName}, read by Paimon.
     */
    private List<InternalRow> paimonRows(String tableName)
            throws Exception
    {
        try (Catalog paimon = TableCopies.paimonCatalog(warehouse)) {
            FileStoreTable table = (FileStoreTable) paimon.getTable(org.apache.paimon.catalog.Identifier.fromString(tableName));
            InternalRowSerializer serializer = new InternalRowSerializer(table.rowType());
            List<InternalRow> rows = new ArrayList<>();
            ReadBuilder read = table.newReadBuilder();
            try (RecordReader<InternalRow> reader = read.newRead().createReader(read.newScan().plan())) {
                reader.forEachRemaining(row -> rows.add(serializer.copy(row)));
            }
            return rows;
        }
    }

    private DataFileMeta onlyFile(String tableName)
            throws IOException
    {
        PaimonTable table = table(tableName);
        List<PlannedFile> files = new ScanPlanner(table).plan(table.snapshot(new ScanVersion.Latest())).files();
        assertThat(files).as("data files of %s", tableName).hasSize(1);
        return files.get(0).file();
    }

    private List<String> dataFiles(String tableName)
            throws IOException
    {
        return dataFilePaths(tableName).stream().map(path -> path.getFileName().toString()).toList();
    }

    private List<Path> dataFilePaths(String tableName)
            throws IOException
    {
        Identifier identifier = Identifier.parse(tableName);
        Path root = warehouse.resolve(identifier.database() + ".db").resolve(identifier.table());
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(path -> path.getFileName().toString().startsWith("data-") && !path.toString().endsWith(".index")).sorted().toList();
        }
    }

    private PaimonTable table(String name)
            throws IOException
    {
        return PaimonTable.load(catalog, Identifier.parse(name));
    }
}
