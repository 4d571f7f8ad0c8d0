package io.tarn.storage.scan;

import io.tarn.index.fileindex.FileIndexEvaluator;
import io.tarn.index.fileindex.FileIndexFile;
import io.tarn.index.fileindex.FileIndexResult;
import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicates;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.commit.TableCommit;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.read.ReadRequest;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.snapshot.CommitKind;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.source.TableRead;
import io.tarn.storage.table.PaimonTable;
import io.tarn.storage.write.AppendTableWriter;
import io.tarn.testing.CanonicalRows;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.ReferenceScan;
import io.tarn.testing.ReferenceTables;
import io.tarn.testing.TemporaryDirectories;
import io.tarn.types.DataTypes;
import io.tarn.vector.rows.CanonicalRowFormatter;
import io.tarn.vector.rows.CanonicalRowSet;
import org.apache.arrow.memory.RootAllocator;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.fileindex.FileIndexPredicate;
import org.apache.paimon.predicate.Equal;
import org.apache.paimon.predicate.LeafPredicate;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.types.RowType;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.tarn.storage.scan.FilterSpec.Op.EQ;
import static io.tarn.storage.scan.FilterSpec.Op.NE;
import static io.tarn.storage.scan.FilterSpec.compare;
import static io.tarn.storage.scan.FilterSpec.in;
import static io.tarn.storage.scan.FilterSpec.isNull;
import static io.tarn.storage.scan.FilterSpec.notIn;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * File indexes written by Tarn's append writer, checked with Apache Paimon: the table
 * {@code ref.append_file_index} is copied file by file with Tarn under several index options
 * (embedded, {@code .index} files, bitmap version 1, small index blocks); Paimon reads every copy
 * with the source's rows under filters, and its planner and reader skip files and rows with
 * Tarn's indexes. Map-key indexes ({@code m[key]}) are written by Tarn and evaluated by Paimon,
 * and the other way round.
 */
public class TestFileIndexWriteAgainstPaimon
{
    private static final String SOURCE = "ref.append_file_index";

    private Path warehouse;
    private FileSystemCatalog catalog;
    private RootAllocator allocator;

    @BeforeClass
    public void createTables()
    {
        warehouse = TemporaryDirectories.create("tarn-file-index-write");
        ReferenceTables.create(warehouse, ReferenceTables.APPEND_FILE_INDEX);
        catalog = new FileSystemCatalog(new LocalFileIO(), warehouse.toString());
        allocator = new RootAllocator();
    }

    @AfterClass(alwaysRun = true)
    public void deleteTables()
    {
        if (allocator != null) {
            assertThat(allocator.getAllocatedMemory()).as("Arrow memory leaked").isZero();
            allocator.close();
        }
        TemporaryDirectories.deleteRecursively(warehouse);
    }

    @DataProvider
    public Object[][] variants()
    {
        return new Object[][] {
                {"embedded", Map.of()},
                {"files", Map.of("file-index.in-manifest-threshold", "1 b")},
                {"bitmap_v1", Map.of("file-index.bitmap.category.version", "1")},
                {"small_blocks", Map.of("file-index.bitmap.category.index-block-size", "24 b", "file-index.in-manifest-threshold", "1 b")},
        };
    }

    @Test(dataProvider = "variants")
    public void testPaimonReadsAndUsesTarnsIndexes(String variant, Map<String, String> options)
            throws Exception
    {
        String copyName = SOURCE + "_tarn_" + variant;
        PaimonTable copy = copyFileByFile(copyName, options);
        ScanPlan plan = new ScanPlanner(copy).plan(copy.snapshot(new ScanVersion.Latest()));
        assertThat(plan.files()).hasSize(3);
        boolean separate = options.containsKey("file-index.in-manifest-threshold");
        for (PlannedFile file : plan.files()) {
            if (separate) {
                assertThat(file.file().embeddedIndex()).isNull();
                assertThat(file.file().extraFiles()).containsExactly(file.file().fileName() + ".index");
            }
            else {
                assertThat(file.file().embeddedIndex()).isNotNull();
                assertThat(file.file().extraFiles()).isEmpty();
            }
        }

        ReferenceScan sourceScan = ReferenceScan.of(SOURCE);
        ReferenceScan copyScan = ReferenceScan.of(copyName);
        RowType rowType = ReferenceReader.rowType(warehouse, sourceScan);
        for (FilterSpec filter : List.of(
                compare("id", EQ, 1005),
                compare("name", EQ, "name-1010"),
                compare("category", EQ, "cat-1-2"),
                compare("category", NE, "cat-2-0"),
                in("category", "cat-0-1", "cat-2-2"),
                notIn("category", "cat-0-1"),
                isNull("category"))) {
            CanonicalRows expected = ReferenceReader.read(warehouse, sourceScan.withFilter(filter.paimon(rowType)));
            assertThat(ReferenceReader.read(warehouse, copyScan.withFilter(filter.paimon(rowType))).text()).as("Paimon reads %s WHERE %s", copyName, filter)
                    .isEqualTo(expected.text());
            assertThat(tarnRows(copy, filter)).as("Tarn reads %s WHERE %s", copyName, filter).isEqualTo(expected.text());
        }

        // Paimon skips with Tarn's indexes: a name in the statistics of two files but in none, and one category
        PaimonFileIndexTables.PaimonReads absentName = PaimonFileIndexTables.reads(warehouse, copyName, compare("name", EQ, "name-1005x").paimon(rowType));
        PaimonFileIndexTables.PaimonReads oneCategory = PaimonFileIndexTables.reads(warehouse, copyName, compare("category", EQ, "cat-1-2").paimon(rowType));
        PaimonFileIndexTables.PaimonReads unfiltered = PaimonFileIndexTables.reads(warehouse, copyName, compare("v", NE, -1L).paimon(rowType));
        System.out.printf("%s: Paimon reads %s unfiltered, %s for an absent name, %s for one category%n", copyName, unfiltered, absentName, oneCategory);
        assertThat(unfiltered.files()).isEqualTo(3);
        assertThat(absentName.files()).isZero();
        assertThat(oneCategory.files()).isEqualTo(1);
        assertThat(oneCategory.rows()).isEqualTo(11);
    }

    /**
     * Map-key indexes: Tarn's, over {@code attrs[color]} (Bloom filter) and {@code attrs[size]}
     * (bitmap), answer Paimon's evaluator; Paimon's answer Tarn's.
     */
    @Test
    public void testMapKeyIndexes()
            throws Exception
    {
        Schema schema = Schema.newBuilder()
                .column("id", org.apache.paimon.types.DataTypes.INT())
                .column("attrs", org.apache.paimon.types.DataTypes.MAP(org.apache.paimon.types.DataTypes.STRING(), org.apache.paimon.types.DataTypes.STRING()))
                .option("file-index.bloom-filter.columns", "attrs[color]")
                .option("file-index.bloom-filter.attrs.items", "100")
                .option("file-index.bitmap.columns", "attrs[size]")
                .option("file-index.in-manifest-threshold", "1 mb")
                .build();
        String paimonName = "ref.map_index_paimon";
        try (Catalog paimon = PaimonFileIndexTables.open(warehouse)) {
            paimon.createTable(org.apache.paimon.catalog.Identifier.fromString(paimonName), schema, false);
            FileStoreTable table = (FileStoreTable) paimon.getTable(org.apache.paimon.catalog.Identifier.fromString(paimonName));
            BatchWriteBuilder builder = table.newBatchWriteBuilder();
            try (BatchTableWrite write = builder.newWrite(); BatchTableCommit commit = builder.newCommit()) {
                for (int id = 0; id < 30; id++) {
                    Map<Object, Object> attrs = new HashMap<>();
                    attrs.put(BinaryString.fromString("color"), BinaryString.fromString(id % 3 == 0 ? "red" : "blue"));
                    if (id % 5 != 0) {
                        attrs.put(BinaryString.fromString("size"), BinaryString.fromString("s" + id % 4));
                    }
                    write.write(GenericRow.of(id, id % 7 == 6 ? null : new GenericMap(attrs)));
                }
                commit.commit(write.prepareCommit());
            }
        }
        PaimonTable paimonTable = PaimonTable.load(catalog, Identifier.parse(paimonName));
        String tarnName = "ref.map_index_tarn";
        TableSchema schemaOfPaimon = paimonTable.schema();
        catalog.createTable(Identifier.parse(tarnName), new TableSchema(schemaOfPaimon.version(), 0, schemaOfPaimon.fields(), schemaOfPaimon.highestFieldId(),
                schemaOfPaimon.partitionKeys(), schemaOfPaimon.primaryKeys(), schemaOfPaimon.options(), schemaOfPaimon.comment(), schemaOfPaimon.timeMillis()));
        PaimonTable tarnTable = PaimonTable.load(catalog, Identifier.parse(tarnName));
        ScanPlan source = new ScanPlanner(paimonTable).plan(paimonTable.snapshot(new ScanVersion.Latest()));
        try (AppendTableWriter writer = new AppendTableWriter(tarnTable, allocator)) {
            TableRead.forEachBatch(paimonTable, source, ReadRequest.of(source.readSchema().fields()), allocator, writer::write);
            new TableCommit(tarnTable, "map-index-test").commit(writer.prepareCommit(), CommitKind.APPEND, 1);
        }
        ScanPlan written = new ScanPlanner(tarnTable).plan(tarnTable.snapshot(new ScanVersion.Latest()));
        byte[] tarnIndex = written.files().get(0).file().embeddedIndex();
        byte[] paimonIndex = source.files().get(0).file().embeddedIndex();
        assertThat(tarnIndex).isNotNull();
        assertThat(paimonIndex).isNotNull();

        RowType rowType = ReferenceReader.rowType(warehouse, ReferenceScan.of(paimonName));
        for (byte[] index : List.of(tarnIndex, paimonIndex)) {
            try (FileIndexPredicate predicate = new FileIndexPredicate(index, rowType)) {
                assertThat(predicate.evaluate(mapEqual("attrs[color]", "red")).remain()).isTrue();
                assertThat(predicate.evaluate(mapEqual("attrs[color]", "green")).remain()).isFalse();
                assertThat(predicate.evaluate(mapEqual("attrs[size]", "s9")).remain()).isFalse();
            }
            // Tarn's evaluator, given where the key's index lies
            FileIndexFile file = FileIndexFile.parse(index);
            FieldRef size = new FieldRef(1_000, "attrs['size']", DataTypes.string());
            FileIndexEvaluator.ColumnResolver resolver = field -> Optional.of(new FileIndexEvaluator.IndexColumn("attrs[size]", DataTypes.string()));
            FileIndexResult s1 = FileIndexEvaluator.evaluate(file, Predicates.equal(size, "s1"), resolver, 30).result();
            // ids 1..29 with id % 4 == 1, id % 5 != 0 and a map (id % 7 != 6)
            List<Integer> expected = new ArrayList<>();
            for (int id = 1; id < 30; id += 4) {
                if (id % 5 != 0 && id % 7 != 6) {
                    expected.add(id);
                }
            }
            assertThat(((FileIndexResult.Rows) s1).rows().toArray()).containsExactly(expected.stream().mapToInt(Integer::intValue).toArray());
            assertThat(FileIndexEvaluator.evaluate(file, Predicates.equal(size, "s9"), resolver, 30).result().skip()).isTrue();
        }
    }

    private static LeafPredicate mapEqual(String column, String value)
    {
        return new LeafPredicate(Equal.INSTANCE, org.apache.paimon.types.DataTypes.STRING(), 1, column, List.of(BinaryString.fromString(value)));
    }

    /**
     * Copies the source table with Tarn, one commit (and so one data file) per source file, into
     * a table with the source's options plus {@code extraOptions}.
     */
    private PaimonTable copyFileByFile(String copyName, Map<String, String> extraOptions)
            throws IOException
    {
        PaimonTable source = PaimonTable.load(catalog, Identifier.parse(SOURCE));
        TableSchema schema = source.schema();
        Map<String, String> options = new LinkedHashMap<>(schema.options());
        options.putAll(extraOptions);
        catalog.createTable(Identifier.parse(copyName), new TableSchema(schema.version(), 0, schema.fields(), schema.highestFieldId(),
                schema.partitionKeys(), schema.primaryKeys(), options, schema.comment(), schema.timeMillis()));
        PaimonTable copy = PaimonTable.load(catalog, Identifier.parse(copyName));
        ScanPlan plan = new ScanPlanner(source).plan(source.snapshot(new ScanVersion.Latest()));
        List<PlannedFile> files = new ArrayList<>(plan.files());
        files.sort((left, right) -> Long.compare(left.file().minSequenceNumber(), right.file().minSequenceNumber()));
        long commit = 1;
        for (PlannedFile file : files) {
            ScanPlan one = new ScanPlan(plan.snapshot(), plan.readSchema(),
                    List.of(new DataSplit(file.partition(), file.bucket(), file.totalBuckets(), List.of(file), false)), plan.metrics());
            try (AppendTableWriter writer = new AppendTableWriter(copy, allocator)) {
                TableRead.forEachBatch(source, one, ReadRequest.of(plan.readSchema().fields()).withBatchSize(17), allocator, writer::write);
                new TableCommit(copy, "file-index-writer-test").commit(writer.prepareCommit(), CommitKind.APPEND, commit++);
            }
        }
        return PaimonTable.load(catalog, Identifier.parse(copyName));
    }

    private String tarnRows(PaimonTable table, FilterSpec filter)
            throws IOException
    {
        io.tarn.index.predicate.Predicate predicate = filter.tarn(table.schema());
        ScanPlan plan = new ScanPlanner(table).withFilter(predicate).plan(table.snapshot(new ScanVersion.Latest()));
        List<String> lines = new ArrayList<>();
        TableRead.forEachBatch(table, plan, ReadRequest.of(plan.readSchema().fields()).withFilter(predicate), allocator,
                batch -> CanonicalRowFormatter.appendLines(batch, plan.readSchema().fields(), lines));
        return CanonicalRowSet.of(lines).text();
    }
}
