package io.tarn.storage.write;

import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.manifest.DataFileMeta;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.ReferenceLayout;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.ReferenceTable;
import io.tarn.testing.ReferenceTables;
import io.tarn.testing.TemporaryDirectories;
import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.TypeRoot;
import org.apache.arrow.memory.RootAllocator;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.serializer.InternalRowSerializer;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.source.ReadBuilder;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Append tables with {@code file.format=avro} written by Tarn, checked with Apache Paimon: the
 * rows of each Avro reference table, written by Tarn into a new table of the same options, are
 * read back by Paimon identically (with every codec Paimon writes), Paimon can append to them,
 * and each file carries the schema and the statistics Paimon's own writer gives the same rows.
 */
public class TestAvroTableWriter
{
    private static final List<ReferenceTable> SOURCES = List.of(ReferenceTables.APPEND_ALL_TYPES, ReferenceTables.APPEND_NESTED,
            ReferenceTables.APPEND_PARTITIONED, ReferenceTables.APPEND_DATE_PARTITIONED, ReferenceTables.APPEND_BUCKETED);

    private Path warehouse;
    // the same tables written as Parquet: Paimon's Avro reader returns map entries in hash order,
    // its Parquet reader (like Tarn's Avro reader) in written order
    private Path parquetWarehouse;
    private FileSystemCatalog catalog;
    private RootAllocator allocator;

    @BeforeClass
    public void createTables()
            throws IOException
    {
        warehouse = TemporaryDirectories.create("tarn-avro-writer");
        parquetWarehouse = TemporaryDirectories.create("tarn-avro-writer-parquet");
        allocator = new RootAllocator();
        for (ReferenceTable table : SOURCES) {
            ReferenceTables.create(warehouse, table, ReferenceLayout.AVRO);
        }
        ReferenceTables.create(parquetWarehouse, ReferenceTables.APPEND_NESTED, ReferenceLayout.PARQUET);
        catalog = new FileSystemCatalog(new LocalFileIO(), warehouse.toString());
    }

    @AfterClass(alwaysRun = true)
    public void deleteTables()
            throws IOException
    {
        if (allocator != null) {
            assertThat(allocator.getAllocatedMemory()).as("Arrow memory leaked").isZero();
            allocator.close();
        }
        TemporaryDirectories.deleteRecursively(warehouse);
        TemporaryDirectories.deleteRecursively(parquetWarehouse);
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
        assertThat(dataFiles(copyName)).isNotEmpty().allMatch(name -> name.endsWith(".avro"));
        String expected = ReferenceReader.read(warehouse, source.identifier()).text();
        assertThat(ReferenceReader.read(warehouse, copyName).text()).as("Paimon reads %s", copyName).isEqualTo(expected);
        assertThat(TableCopies.tarnRows(copy, allocator)).as("Tarn reads %s", copyName).isEqualTo(inWrittenOrder(source, expected));

        // Paimon appends to the table Tarn wrote; both readers agree afterwards
        TableCopies.appendNullsWithPaimon(warehouse, copyName);
        assertThat(ReferenceReader.read(warehouse, copyName).rowCount()).isEqualTo(ReferenceReader.read(warehouse, source.identifier()).rowCount() + 1);
        if (!source.equals(ReferenceTables.APPEND_NESTED)) {
            assertThat(TableCopies.tarnRows(table(copyName), allocator)).isEqualTo(ReferenceReader.read(warehouse, copyName).text());
        }
    }

    @DataProvider
    public Object[][] codecs()
    {
        return new Object[][] {
                {"avro_snappy", Map.of("avro.codec", "snappy"), "snappy"},
                {"avro_deflate", Map.of("avro.codec", "deflate"), "deflate"},
                {"avro_null", Map.of("avro.codec", "null"), "null"},
                {"zstd_9", Map.of("file.compression", "zstd", "file.compression.zstd-level", "9"), "zstandard"},
                {"file_snappy", Map.of("file.compression", "snappy"), "snappy"},
        };
    }

    @Test(dataProvider = "codecs")
    public void testEveryCodecPaimonWritesIsReadByPaimon(String suffix, Map<String, String> options, String codec)
            throws Exception
    {
        String copyName = "ref.append_all_types_" + suffix;
        TableCopies.copyWithTarn(catalog, allocator, "ref.append_all_types", copyName, options);
        for (Path file : dataFilePaths(copyName)) {
            try (DataFileReader<Object> reader = new DataFileReader<>(file.toFile(), new GenericDatumReader<>())) {
                assertThat(reader.getMetaString("avro.codec")).isEqualTo(codec);
            }
        }
        assertThat(ReferenceReader.read(warehouse, copyName).text()).isEqualTo(ReferenceReader.read(warehouse, "ref.append_all_types").text());
    }

    /**
     * The same rows in one file, written by Paimon and by Tarn: the files declare the same Avro
     * schema, and their statistics in the manifest are byte for byte the same (min and max
     * truncated as the stats mode says, no bounds for binary and nested columns, null counts).
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
            assertThat(tarnFile.valueStats()).as("statistics of %s", source.identifier()).isEqualTo(paimonFile.valueStats());
            assertThat(tarnFile.valueStatsCols()).isEqualTo(paimonFile.valueStatsCols());
            assertThat(avroSchema(dataFilePaths(byTarn).get(0))).isEqualTo(avroSchema(dataFilePaths(byPaimon).get(0)));
        }
    }

    @Test
    public void testCodecsTarnDoesNotWriteAreRefusedBeforeWriting()
            throws Exception
    {
        PaimonTable table = createTarnTable("ref.avro_bzip2", Map.of("file.format", "avro", "avro.codec", "bzip2"), List.of(
                new DataField(0, "id", new AtomicType(TypeRoot.INT, 0, 0, true))));
        assertThatThrownBy(() -> new AppendTableWriter(table, allocator).close())
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("ref.avro_bzip2")
                .hasMessageContaining("bzip2 is not written by Tarn yet");
        assertThat(dataFiles("ref.avro_bzip2")).isEmpty();
    }

    @Test
    public void testTypesAvroCannotHoldAreRefusedBeforeWriting()
            throws Exception
    {
        PaimonTable table = createTarnTable("ref.avro_nanos", Map.of("file.format", "avro"), List.of(
                new DataField(0, "id", new AtomicType(TypeRoot.INT, 0, 0, true)),
                new DataField(1, "ts", new AtomicType(TypeRoot.TIMESTAMP, 9, 0, true))));
        assertThatThrownBy(() -> new AppendTableWriter(table, allocator).close())
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("ref.avro_nanos")
                .hasMessageContaining("Column ts is TIMESTAMP(9)");
    }

    @Test
    public void testFormatsTarnDoesNotWriteAreRefusedBeforeWriting()
            throws Exception
    {
        PaimonTable table = createTarnTable("ref.csv_table", Map.of("file.format", "csv"), List.of(
                new DataField(0, "id", new AtomicType(TypeRoot.INT, 0, 0, true))));
        assertThatThrownBy(() -> new AppendTableWriter(table, allocator).close())
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("Table ref.csv_table writes file.format=csv; Tarn writes Parquet, ORC and Avro data files, not csv yet");
    }

    private String inWrittenOrder(ReferenceTable source, String paimonRows)
    {
        return source.equals(ReferenceTables.APPEND_NESTED) ? ReferenceReader.read(parquetWarehouse, source.identifier()).text() : paimonRows;
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

    private static String avroSchema(Path file)
            throws IOException
    {
        File input = file.toFile();
        try (DataFileReader<Object> reader = new DataFileReader<>(input, new GenericDatumReader<>())) {
            return reader.getSchema().toString();
        }
    }

    private PaimonTable table(String name)
            throws IOException
    {
        return PaimonTable.load(catalog, Identifier.parse(name));
    }
}
