package io.tarn.storage.sort;

import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.Predicates;
import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.read.ReadRequest;
import io.tarn.storage.scan.DataSplit;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.snapshot.CommitKind;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.source.TableRead;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.CanonicalRows;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.TemporaryDirectories;
import io.tarn.types.DataField;
import io.tarn.vector.rows.ArrowValues;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.options.Options;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.sort.hilbert.HilbertIndexer;
import org.apache.paimon.sort.zorder.ZIndexer;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataTypes;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Sort-compact checked with Apache Paimon: a partition of 200,000 random points (x, y) rewritten
 * by Tarn in z-order prunes range queries as well as the same partition sorted by Paimon's
 * {@code ZIndexer} and written by Paimon's batch writer (what Paimon's sort compaction does);
 * Paimon reads the rewritten table with the same rows; the files follow Paimon's z-values (and
 * Hilbert values, and plain order) from file to file; the other partition keeps its files; an
 * external sort with a tiny memory budget spills and merges runs with the same result.
 */
public class TestSortCompaction
{
    private static final long SEED = 5_2026_1129L;
    private static final int ROWS = 200_000;
    private static final int SMALL_ROWS = 20_000;
    private static final int OTHER_ROWS = 2_000;
    private static final int DOMAIN = 1_000_000;
    private static final String TARGET_FILE_SIZE = "64kb";

    private Path warehouse;
    private Catalog paimon;
    private FileSystemCatalog catalog;
    private RootAllocator allocator;

    @BeforeClass
    public void createBaseTables()
            throws Exception
    {
        System.out.println("TestSortCompaction seed=" + SEED);
        warehouse = TemporaryDirectories.create("tarn-sort-compact");
        allocator = new RootAllocator();
        Options options = new Options();
        options.set("warehouse", warehouse.toUri().toString());
        paimon = CatalogFactory.createCatalog(CatalogContext.create(options, new org.apache.hadoop.conf.Configuration()));
        paimon.createDatabase("db", false);
        Schema schema = Schema.newBuilder()
                .column("p", DataTypes.STRING())
                .column("x", DataTypes.INT())
                .column("y", DataTypes.INT())
                .column("id", DataTypes.BIGINT())
                .partitionKeys("p")
                .option("bucket", "-1")
                .option("target-file-size", TARGET_FILE_SIZE)
                .option("write-only", "true")
                .build();
        createBaseTable("base", schema, ROWS);
        createBaseTable("small", schema, SMALL_ROWS);
        catalog = new FileSystemCatalog(new LocalFileIO(), warehouse.toString());
    }

    private void createBaseTable(String name, Schema schema, int rowsOfA)
            throws Exception
    {
        paimon.createTable(org.apache.paimon.catalog.Identifier.create("db", name), schema, false);
        FileStoreTable table = paimonTable("db." + name);
        Random random = new Random(SEED);
        long id = 0;
        // three commits, so the partition starts as several unsorted files
        for (int commit = 0; commit < 3; commit++) {
            List<GenericRow> rows = new ArrayList<>();
            for (int i = 0; i < rowsOfA / 3 + (commit == 0 ? rowsOfA % 3 : 0); i++) {
                rows.add(GenericRow.of(BinaryString.fromString("a"), random.nextInt(DOMAIN), random.nextInt(DOMAIN), id++));
            }
            for (int i = 0; i < OTHER_ROWS / 3; i++) {
                // some nulls in the other partition, which sort first in every order
                Integer x = random.nextInt(20) == 0 ? null : random.nextInt(DOMAIN);
                rows.add(GenericRow.of(BinaryString.fromString("b"), x, random.nextInt(DOMAIN), id++));
            }
            writeWithPaimon(table, rows, Map.of());
        }
    }

    @AfterClass(alwaysRun = true)
    public void deleteTables()
            throws Exception
    {
        if (paimon != null) {
            paimon.close();
        }
        if (allocator != null) {
            assertThat(allocator.getAllocatedMemory()).as("Arrow memory leaked").isZero();
            allocator.close();
        }
        TemporaryDirectories.deleteRecursively(warehouse);
    }

    /**
     * The acceptance test of z-order: after Tarn's rewrite, range queries of about 1% selectivity
     * keep no more files than after Paimon's (within 10%), and at most twice the files that hold
     * a matching row.
     */
    @Test
    public void testZOrderPrunesAsWellAsPaimons()
            throws Exception
    {
        PaimonTable tarnSorted = copy("base", "zorder_tarn");
        copy("base", "zorder_paimon");
        CanonicalRows before = ReferenceReader.read(warehouse, "db.zorder_tarn");
        List<String> untouched = fileNames(tarnSorted, "b");

        SortCompactResult result = SortCompaction.run(tarnSorted, SortCompactRequest.of(SortStrategy.ZORDER, List.of("x", "y"))
                .withPartitions(List.of(Map.of("p", "a"))), allocator);
        sortWithPaimon("db.zorder_paimon", "a", this::zIndexer);

        tarnSorted = table("db.zorder_tarn");
        PaimonTable paimonSorted = table("db.zorder_paimon");
        assertThat(ReferenceReader.read(warehouse, "db.zorder_tarn")).as("Paimon reads the rows Tarn sorted").isEqualTo(before);
        assertThat(tarnSorted.snapshotManager().latest().orElseThrow().commitKind()).isEqualTo(CommitKind.OVERWRITE);
        assertThat(result.partitions()).isEqualTo(1);
        assertThat(result.rows()).isEqualTo(ROWS);
        assertThat(result.spilledRuns()).isZero();
        assertThat(fileNames(tarnSorted, "b")).as("files of the partition not sorted").isEqualTo(untouched);
        assertFilesFollow(tarnSorted, "a", zIndexer(paimonTable("db.zorder_tarn")));

        int tarnFiles = fileNames(tarnSorted, "a").size();
        int paimonFiles = fileNames(paimonSorted, "a").size();
        System.out.printf("z-order files: tarn=%d paimon=%d%n", tarnFiles, paimonFiles);
        assertThat(tarnFiles).isBetween(15, 60);

        List<int[][]> tarnPoints = filePoints(tarnSorted, "a");
        List<int[][]> paimonPoints = filePoints(paimonSorted, "a");
        Random random = new Random(SEED + 7);
        int tarnKept = 0;
        int paimonKept = 0;
        int minimal = 0;
        for (int query = 0; query < 10; query++) {
            int xLow = random.nextInt(DOMAIN - DOMAIN / 10);
            int yLow = random.nextInt(DOMAIN - DOMAIN / 10);
            int tarnQuery = keptFiles(tarnSorted, xLow, yLow);
            int paimonQuery = keptFiles(paimonSorted, xLow, yLow);
            int minimalQuery = filesWithMatch(tarnPoints, xLow, yLow);
            System.out.printf("z-order query x in [%d, %d] and y in [%d, %d]: files kept tarn=%d paimon=%d, files holding a match=%d (paimon %d)%n",
                    xLow, xLow + DOMAIN / 10 - 1, yLow, yLow + DOMAIN / 10 - 1, tarnQuery, paimonQuery, minimalQuery, filesWithMatch(paimonPoints, xLow, yLow));
            tarnKept += tarnQuery;
            paimonKept += paimonQuery;
            minimal += minimalQuery;
        }
        System.out.printf("z-order over 10 queries: files kept tarn=%d paimon=%d, files holding a match=%d%n", tarnKept, paimonKept, minimal);
        assertThat(tarnKept).isLessThanOrEqualTo((int) Math.ceil(paimonKept * 1.1));
        assertThat(tarnKept).isLessThanOrEqualTo(2 * minimal);
    }

    @Test
    public void testExternalSortSpillsAndMerges()
            throws Exception
    {
        PaimonTable table = copy("small", "zorder_spilled");
        CanonicalRows before = ReferenceReader.read(warehouse, "db.zorder_spilled");
        SortCompactResult result = SortCompaction.run(table, SortCompactRequest.of(SortStrategy.ZORDER, List.of("x", "y"))
                .withPartitions(List.of(Map.of("p", "a")))
                .withMemoryBudget(128 << 10)
                .withSpillDirectory(warehouse.resolve("spill")), allocator);
        System.out.println("spilled runs: " + result.spilledRuns());
        assertThat(result.spilledRuns()).isGreaterThanOrEqualTo(4);
        assertThat(ReferenceReader.read(warehouse, "db.zorder_spilled")).isEqualTo(before);
        assertFilesFollow(table("db.zorder_spilled"), "a", zIndexer(paimonTable("db.zorder_spilled")));
        try (Stream<Path> left = Files.list(warehouse.resolve("spill"))) {
            assertThat(left.toList()).as("spill files deleted").isEmpty();
        }
    }

    @Test
    public void testHilbertAndPlainOrder()
            throws Exception
    {
        for (SortStrategy strategy : List.of(SortStrategy.HILBERT, SortStrategy.ORDER)) {
            String name = "sorted_" + strategy.name().toLowerCase(java.util.Locale.ROOT);
            PaimonTable table = copy("small", name);
            CanonicalRows before = ReferenceReader.read(warehouse, "db." + name);
            List<String> untouched = fileNames(table, "a");
            // a budget small enough to spill the small partition too
            SortCompactResult result = SortCompaction.run(table, SortCompactRequest.of(strategy, List.of("x", "y"))
                    .withPartitions(List.of(Map.of("p", "b")))
                    .withMemoryBudget(16 << 10), allocator);
            assertThat(result.spilledRuns()).isGreaterThan(1);
            assertThat(ReferenceReader.read(warehouse, "db." + name)).isEqualTo(before);
            assertThat(fileNames(table(name), "a")).isEqualTo(untouched);
            Function<List<Object>, byte[]> key;
            if (strategy == SortStrategy.HILBERT) {
                HilbertIndexer indexer = new HilbertIndexer(paimonTable("db." + name).rowType(), List.of("x", "y"));
                indexer.open();
                key = values -> indexer.index(paimonRow(values));
            }
            else {
                // nulls first, then ascending x, then y: as comparable bytes
                key = values -> orderBytes((Integer) values.get(1), (Integer) values.get(2));
            }
            assertFilesFollow(table(name), "b", key);
        }
    }

    @Test
    public void testRejectsUnknownColumnsPartitionsAndKeyedTables()
            throws Exception
    {
        PaimonTable table = copy("small", "rejected");
        assertThatThrownBy(() -> SortCompaction.run(table, SortCompactRequest.of(SortStrategy.ZORDER, List.of("x", "nope")), allocator))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no column 'nope'");
        assertThatThrownBy(() -> SortCompaction.run(table, SortCompactRequest.of(SortStrategy.ZORDER, List.of("x")).withPartitions(List.of(Map.of("x", "1"))), allocator))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no partition column 'x'");
        paimon.createTable(org.apache.paimon.catalog.Identifier.create("db", "keyed"), Schema.newBuilder()
                .column("id", DataTypes.BIGINT().notNull())
                .column("x", DataTypes.INT())
                .primaryKey("id")
                .option("bucket", "1")
                .build(), false);
        writeWithPaimon(paimonTable("db.keyed"), List.of(GenericRow.of(1L, 2)), Map.of());
        assertThatThrownBy(() -> SortCompaction.run(table("db.keyed"), SortCompactRequest.of(SortStrategy.ZORDER, List.of("x")), allocator))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("db.keyed")
                .hasMessageContaining("primary key");
        SortCompactResult nothing = SortCompaction.run(table, SortCompactRequest.of(SortStrategy.ZORDER, List.of("x")).withPartitions(List.of(Map.of("p", "zzz"))), allocator);
        assertThat(nothing.snapshot()).isEmpty();
        assertThat(table.snapshotManager().latest().orElseThrow().commitKind()).isEqualTo(CommitKind.APPEND);
    }

    private Function<List<Object>, byte[]> zIndexer(FileStoreTable table)
    {
        ZIndexer indexer = new ZIndexer(table.rowType(), List.of("x", "y"), 8);
        indexer.open();
        return values -> indexer.index(paimonRow(values)).clone();
    }

    private static GenericRow paimonRow(List<Object> values)
    {
        return GenericRow.of(BinaryString.fromString((String) values.get(0)), values.get(1), values.get(2), values.get(3));
    }

    private static byte[] orderBytes(Integer x, Integer y)
    {
        long first = x == null ? 0 : (x.longValue() - Integer.MIN_VALUE + 1);
        long second = y == null ? 0 : (y.longValue() - Integer.MIN_VALUE + 1);
        return java.nio.ByteBuffer.allocate(16).putLong(first).putLong(second).array();
    }

    /**
     * Reads the files of {@code partition} in the order they were written (by sequence number)
     * and checks that the keys Paimon computes for their rows never decrease.
     */
    private void assertFilesFollow(PaimonTable table, String partition, Function<List<Object>, byte[]> key)
            throws IOException
    {
        ScanPlan plan = new ScanPlanner(table).plan(table.snapshot(new ScanVersion.Latest()));
        List<PlannedFile> files = plan.files().stream()
                .filter(file -> partition.equals(file.partition().value(0, plan.readSchema().partitionType().fields().get(0).type())))
                .sorted(Comparator.comparingLong(file -> file.file().minSequenceNumber()))
                .toList();
        List<DataField> fields = plan.readSchema().fields();
        byte[][] previous = {null};
        long[] rows = {0};
        for (PlannedFile file : files) {
            DataSplit split = new DataSplit(file.partition(), file.bucket(), file.totalBuckets(), List.of(file), false);
            ScanPlan single = new ScanPlan(plan.snapshot(), plan.readSchema(), List.of(split), plan.metrics());
            TableRead.forEachBatch(table, single, ReadRequest.of(fields), allocator, batch -> {
                for (int row = 0; row < batch.getRowCount(); row++) {
                    byte[] current = key.apply(values(batch, row, fields));
                    if (previous[0] != null) {
                        assertThat(Arrays.compareUnsigned(previous[0], current)).as("row %s of file %s is out of order", row, file.file().fileName()).isLessThanOrEqualTo(0);
                    }
                    previous[0] = current;
                    rows[0]++;
                }
            });
        }
        assertThat(rows[0]).isPositive();
    }

    private static List<Object> values(VectorSchemaRoot batch, int row, List<DataField> fields)
    {
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            values.add(ArrowValues.value(batch.getVector(i), row, fields.get(i).type()));
        }
        return values;
    }

    private int keptFiles(PaimonTable table, int xLow, int yLow)
            throws IOException
    {
        ScanPlan plan = new ScanPlanner(table).withFilter(query(table, xLow, yLow)).plan(table.snapshot(new ScanVersion.Latest()));
        return plan.files().size();
    }

    /**
     * The x and y values of each file of {@code partition}.
     */
    private List<int[][]> filePoints(PaimonTable table, String partition)
            throws IOException
    {
        ScanPlan plan = new ScanPlanner(table).plan(table.snapshot(new ScanVersion.Latest()));
        List<DataField> fields = plan.readSchema().fields();
        List<int[][]> points = new ArrayList<>();
        for (PlannedFile file : plan.files()) {
            if (!partition.equals(file.partition().value(0, plan.readSchema().partitionType().fields().get(0).type()))) {
                continue;
            }
            int[][] values = new int[2][(int) file.file().rowCount()];
            int[] next = {0};
            DataSplit split = new DataSplit(file.partition(), file.bucket(), file.totalBuckets(), List.of(file), false);
            ScanPlan single = new ScanPlan(plan.snapshot(), plan.readSchema(), List.of(split), plan.metrics());
            TableRead.forEachBatch(table, single, ReadRequest.of(fields.subList(1, 3)), allocator, batch -> {
                IntVector x = (IntVector) batch.getVector(0);
                IntVector y = (IntVector) batch.getVector(1);
                for (int row = 0; row < batch.getRowCount(); row++) {
                    values[0][next[0]] = x.get(row);
                    values[1][next[0]] = y.get(row);
                    next[0]++;
                }
            });
            assertThat(next[0]).isEqualTo(values[0].length);
            points.add(values);
        }
        return points;
    }

    private static int filesWithMatch(List<int[][]> files, int xLow, int yLow)
    {
        int count = 0;
        for (int[][] file : files) {
            for (int row = 0; row < file[0].length; row++) {
                if (inRange(file[0][row], xLow) && inRange(file[1][row], yLow)) {
                    count++;
                    break;
                }
            }
        }
        return count;
    }

    private static boolean inRange(int value, int low)
    {
        return value >= low && value <= low + DOMAIN / 10 - 1;
    }

    private static Predicate query(PaimonTable table, int xLow, int yLow)
    {
        FieldRef p = FieldRef.of(table.schema().rowType().field("p").orElseThrow());
        FieldRef x = FieldRef.of(table.schema().rowType().field("x").orElseThrow());
        FieldRef y = FieldRef.of(table.schema().rowType().field("y").orElseThrow());
        return Predicates.and(
                Predicates.equal(p, "a"),
                Predicates.greaterOrEqual(x, xLow),
                Predicates.lessOrEqual(x, xLow + DOMAIN / 10 - 1),
                Predicates.greaterOrEqual(y, yLow),
                Predicates.lessOrEqual(y, yLow + DOMAIN / 10 - 1));
    }

    private List<String> fileNames(PaimonTable table, String partition)
            throws IOException
    {
        ScanPlan plan = new ScanPlanner(table).plan(table.snapshot(new ScanVersion.Latest()));
        return plan.files().stream()
                .filter(file -> partition.equals(file.partition().value(0, plan.readSchema().partitionType().fields().get(0).type())))
                .map(file -> file.file().fileName())
                .sorted()
                .toList();
    }

    /**
     * What Paimon's sort compaction does for one partition: read its rows, sort them by Paimon's
     * own sort key, and write them with Paimon's batch writer as an overwrite of the partition.
     */
    private void sortWithPaimon(String name, String partition, Function<FileStoreTable, Function<List<Object>, byte[]>> keyFactory)
            throws Exception
    {
        FileStoreTable table = paimonTable(name);
        ReadBuilder readBuilder = table.newReadBuilder().withFilter(new PredicateBuilder(table.rowType()).equal(0, BinaryString.fromString(partition)));
        List<List<Object>> rows = new ArrayList<>();
        try (RecordReader<InternalRow> reader = readBuilder.newRead().createReader(readBuilder.newScan().plan().splits())) {
            reader.forEachRemaining(row -> {
                if (row.getString(0).toString().equals(partition)) {
                    rows.add(Arrays.asList(row.getString(0).toString(), row.isNullAt(1) ? null : row.getInt(1), row.isNullAt(2) ? null : row.getInt(2), row.getLong(3)));
                }
            });
        }
        Function<List<Object>, byte[]> key = keyFactory.apply(table);
        List<Map.Entry<byte[], List<Object>>> keyed = rows.stream().map(row -> Map.entry(key.apply(row), row)).collect(Collectors.toCollection(ArrayList::new));
        keyed.sort((left, right) -> Arrays.compareUnsigned(left.getKey(), right.getKey()));
        List<GenericRow> sorted = keyed.stream().map(entry -> paimonRow(entry.getValue())).toList();
        writeWithPaimon(table, sorted, Map.of("p", partition));
    }

    private static void writeWithPaimon(FileStoreTable table, List<GenericRow> rows, Map<String, String> overwrite)
            throws Exception
    {
        BatchWriteBuilder builder = table.newBatchWriteBuilder();
        if (!overwrite.isEmpty()) {
            builder = builder.withOverwrite(overwrite);
        }
        try (BatchTableWrite write = builder.newWrite(); BatchTableCommit commit = builder.newCommit()) {
            for (GenericRow row : rows) {
                write.write(row);
            }
            commit.commit(write.prepareCommit());
        }
    }

    private PaimonTable copy(String base, String name)
            throws IOException
    {
        Path source = warehouse.resolve("db.db").resolve(base);
        Path target = warehouse.resolve("db.db").resolve(name);
        try (Stream<Path> paths = Files.walk(source)) {
            for (Path path : paths.toList()) {
                Path copy = target.resolve(source.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(copy);
                }
                else {
                    Files.copy(path, copy);
                }
            }
        }
        return table("db." + name);
    }

    private PaimonTable table(String name)
            throws IOException
    {
        return PaimonTable.load(catalog, Identifier.parse(name.startsWith("db.") ? name : "db." + name));
    }

    private FileStoreTable paimonTable(String name)
            throws Catalog.TableNotExistException
    {
        return (FileStoreTable) paimon.getTable(org.apache.paimon.catalog.Identifier.fromString(name));
    }
}
