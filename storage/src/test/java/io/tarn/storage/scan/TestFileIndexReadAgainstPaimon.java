package io.tarn.storage.scan;

import io.tarn.index.fileindex.FileIndexFile;
import io.tarn.index.predicate.Predicate;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.manifest.DataFileMeta;
import io.tarn.storage.metrics.Counter;
import io.tarn.storage.metrics.Counters;
import io.tarn.storage.metrics.Counters;
import io.tarn.storage.read.ReadRequest;
import io.tarn.storage.read.SplitReader;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.source.SplitReaders;
import io.tarn.storage.source.TableRead;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.CanonicalRows;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.ReferenceScan;
import io.tarn.testing.ReferenceTables;
import io.tarn.testing.TemporaryDirectories;
import io.tarn.vector.rows.CanonicalRowFormatter;
import io.tarn.vector.rows.CanonicalRowSet;
import org.apache.arrow.memory.RootAllocator;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static io.tarn.storage.scan.FilterSpec.Op.EQ;
import static io.tarn.storage.scan.FilterSpec.Op.GT;
import static io.tarn.storage.scan.FilterSpec.Op.LT;
import static io.tarn.storage.scan.FilterSpec.Op.NE;
import static io.tarn.storage.scan.FilterSpec.and;
import static io.tarn.storage.scan.FilterSpec.compare;
import static io.tarn.storage.scan.FilterSpec.in;
import static io.tarn.storage.scan.FilterSpec.isNotNull;
import static io.tarn.storage.scan.FilterSpec.isNull;
import static io.tarn.storage.scan.FilterSpec.notIn;
import static io.tarn.storage.scan.FilterSpec.or;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reading with file indexes written by Apache Paimon, against Paimon's reader: Bloom filter and
 * bitmap indexes, embedded in the manifest and in {@code .index} files, with deletion vectors and
 * with schema evolution, give the oracle's rows; Tarn reads no more files and rows than Paimon's
 * reader with its file index does; corrupt indexes are ignored, counted, and the answer stays
 * right.
 */
public class TestFileIndexReadAgainstPaimon
{
    private static final String EMBEDDED = "ref.append_file_index";
    private static final String SEPARATE = "ref.append_file_index_files";

    private Path warehouse;
    private FileSystemCatalog catalog;
    private RootAllocator allocator;

    @BeforeClass
    public void createTables()
            throws Exception
    {
        warehouse = TemporaryDirectories.create("tarn-file-index-read");
        ReferenceTables.create(warehouse, ReferenceTables.APPEND_FILE_INDEX);
        ReferenceTables.create(warehouse, ReferenceTables.APPEND_FILE_INDEX_FILES);
        PaimonFileIndexTables.createDeletionVectorTable(warehouse);
        PaimonFileIndexTables.createEvolvedTable(warehouse);
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
    public Object[][] filters()
    {
        List<Object[]> cases = new ArrayList<>();
        for (String table : List.of(EMBEDDED, SEPARATE)) {
            for (FilterSpec filter : List.of(
                    compare("id", EQ, 1005),
                    compare("name", EQ, "name-2010"),
                    compare("name", EQ, "absent"),
                    in("id", 5, 2049),
                    compare("category", EQ, "cat-1-2"),
                    compare("category", NE, "cat-0-1"),
                    in("category", "cat-0-0", "cat-2-3"),
                    notIn("category", "cat-0-0", "cat-1-1"),
                    isNull("category"),
                    isNotNull("category"),
                    and(compare("category", EQ, "cat-2-1"), compare("id", LT, 2030)),
                    or(compare("category", EQ, "cat-0-3"), compare("name", EQ, "name-1001")),
                    and(compare("id", EQ, 1005), compare("category", EQ, "cat-1-1")),
                    or(compare("category", EQ, "cat-0-3"), compare("v", GT, 14000L)),
                    compare("id", LT, 5000),
                    and(compare("id", LT, 5000), compare("category", EQ, "cat-1-2")))) {
                cases.add(new Object[] {table, filter});
            }
        }
        String deletionVectors = PaimonFileIndexTables.DELETION_VECTORS;
        cases.add(new Object[] {deletionVectors, compare("category", EQ, "c2")});
        cases.add(new Object[] {deletionVectors, compare("category", EQ, "c-new")});
        cases.add(new Object[] {deletionVectors, compare("category", NE, "c1")});
        cases.add(new Object[] {deletionVectors, isNull("category")});
        cases.add(new Object[] {deletionVectors, in("category", "c0", "c4")});
        cases.add(new Object[] {deletionVectors, compare("name", EQ, "n10")});
        cases.add(new Object[] {deletionVectors, compare("name", EQ, "n14")});
        String evolved = PaimonFileIndexTables.EVOLVED;
        cases.add(new Object[] {evolved, compare("cat", EQ, "k1")});
        cases.add(new Object[] {evolved, compare("cat", EQ, "k3")});
        cases.add(new Object[] {evolved, compare("code", EQ, 3L)});
        cases.add(new Object[] {evolved, compare("code", EQ, 5L)});
        cases.add(new Object[] {evolved, compare("id", EQ, 205)});
        cases.add(new Object[] {evolved, and(compare("cat", EQ, "k2"), compare("code", EQ, 4L))});
        return cases.toArray(Object[][]::new);
    }

    @Test(dataProvider = "filters")
    public void testRowsEqualPaimonsAndPruningIsAtLeastPaimons(String tableName, FilterSpec filter)
            throws Exception
    {
        ReferenceScan unfiltered = ReferenceScan.of(tableName);
        org.apache.paimon.predicate.Predicate paimonFilter = filter.paimon(ReferenceReader.rowType(warehouse, unfiltered));
        CanonicalRows expected = ReferenceReader.read(warehouse, unfiltered.withFilter(paimonFilter));
        PaimonTable table = table(tableName);
        TarnRead tarn = read(table, filter.tarn(table.schema()));
        assertThat(tarn.rows()).as("%s WHERE %s", tableName, filter).isEqualTo(expected.text());

        // a planner that opens the index files drops the files the readers' check would skip
        TarnRead planned = read(table, filter.tarn(table.schema()), planner -> planner.withIndexFiles(Integer.MAX_VALUE));
        assertThat(planned.rows()).as("%s WHERE %s, index files checked in planning", tableName, filter).isEqualTo(expected.text());
        assertThat(planned.files()).isEqualTo(tarn.files());
        assertThat(planned.plan().metrics().get(Counter.FILES_SKIPPED_BY_INDEX_FILE) + planned.metrics().get(Counter.FILES_SKIPPED_BY_INDEX)).isEqualTo(tarn.metrics().get(Counter.FILES_SKIPPED_BY_INDEX));
        assertThat(planned.plan().metrics().get(Counter.INDEX_FILES_READ)).isEqualTo(tarn.plan().files().stream().filter(file -> file.file().embeddedIndex() == null && !file.file().extraFiles().isEmpty()).count());

        if (tableName.equals(PaimonFileIndexTables.EVOLVED)) {
            // Paimon's evaluator needs the filter in each file's schema; rows are what counts here
            System.out.printf("%s WHERE %s: Tarn reads %d files, %d rows; %s%n", tableName, filter, tarn.files(), tarn.rowsSelected(), tarn.metrics().asMap());
            return;
        }
        PaimonFileIndexTables.PaimonReads paimon = PaimonFileIndexTables.reads(warehouse, tableName, paimonFilter);
        System.out.printf("%s WHERE %s: Paimon reads %d files, %d rows; Tarn reads %d files, %d rows; %s%n",
                tableName, filter, paimon.files(), paimon.rows(), tarn.files(), tarn.rowsSelected(), tarn.metrics().asMap());
        assertThat(tarn.files()).as("files read").isLessThanOrEqualTo(paimon.files());
        assertThat(tarn.rowsSelected()).as("rows read").isLessThanOrEqualTo(paimon.rows());
    }

    @Test
    public void testIndexesSkipFilesAndRows()
            throws Exception
    {
        // the files hold ids 0-49, 1000-1049 and 2000-2049: "name-1010" lies within the name
        // statistics of the first two, "name-1005x" too but is in none
        PaimonTable embedded = table(EMBEDDED);
        TarnRead byEmbeddedBloom = read(embedded, compare("name", EQ, "name-1010").tarn(embedded.schema()));
        assertThat(byEmbeddedBloom.plan().metrics().get(Counter.FILES_SKIPPED_BY_EMBEDDED_INDEX)).isEqualTo(1);
        assertThat(byEmbeddedBloom.files()).isEqualTo(1);
        TarnRead absent = read(embedded, compare("name", EQ, "name-1005x").tarn(embedded.schema()));
        assertThat(absent.plan().metrics().get(Counter.FILES_SKIPPED_BY_EMBEDDED_INDEX)).isEqualTo(2);
        assertThat(absent.plan().files()).isEmpty();

        PaimonTable separate = table(SEPARATE);
        TarnRead byBloomFile = read(separate, compare("name", EQ, "name-1010").tarn(separate.schema()));
        assertThat(byBloomFile.plan().files()).hasSize(2);
        assertThat(byBloomFile.metrics().get(Counter.FILES_SKIPPED_BY_INDEX)).isEqualTo(1);
        assertThat(byBloomFile.files()).isEqualTo(1);
        assertThat(byBloomFile.metrics().get(Counter.ROWS_RETURNED)).isEqualTo(1);
        // the planner may open the index files instead, as many as it is allowed
        TarnRead plannedByBloomFile = read(separate, compare("name", EQ, "name-1010").tarn(separate.schema()), planner -> planner.withIndexFiles(2));
        assertThat(plannedByBloomFile.plan().files()).hasSize(1);
        assertThat(plannedByBloomFile.plan().metrics().get(Counter.INDEX_FILES_READ)).isEqualTo(2);
        assertThat(plannedByBloomFile.plan().metrics().get(Counter.FILES_SKIPPED_BY_INDEX_FILE)).isEqualTo(1);
        assertThat(plannedByBloomFile.plan().metrics().get(Counter.FILES_PLANNED)).isEqualTo(byBloomFile.plan().metrics().get(Counter.FILES_PLANNED) - 1);
        assertThat(plannedByBloomFile.metrics().get(Counter.FILES_SKIPPED_BY_INDEX)).isZero();
        assertThat(plannedByBloomFile.rows()).isEqualTo(byBloomFile.rows());
        for (int allowed : new int[] {0, 1}) {
            TarnRead bounded = read(separate, compare("name", EQ, "name-1010").tarn(separate.schema()), planner -> planner.withIndexFiles(allowed));
            assertThat(bounded.plan().metrics().get(Counter.INDEX_FILES_READ)).isEqualTo(allowed);
            assertThat(bounded.plan().metrics().get(Counter.FILES_SKIPPED_BY_INDEX_FILE) + bounded.metrics().get(Counter.FILES_SKIPPED_BY_INDEX)).isEqualTo(1);
            assertThat(bounded.rows()).isEqualTo(byBloomFile.rows());
        }
        TarnRead plannedAbsent = read(separate, compare("name", EQ, "name-1005x").tarn(separate.schema()), planner -> planner.withIndexFiles(10));
        assertThat(plannedAbsent.plan().files()).isEmpty();
        assertThat(plannedAbsent.plan().metrics().get(Counter.FILES_SKIPPED_BY_INDEX_FILE)).isEqualTo(2);
        // an engine's switch for file indexes turns the planner's check off too
        TarnRead switchedOff = read(separate, compare("name", EQ, "name-1005x").tarn(separate.schema()), planner -> planner.withIndexFiles(10).withoutFileIndexes());
        assertThat(switchedOff.plan().files()).hasSize(2);
        assertThat(switchedOff.plan().metrics().get(Counter.INDEX_FILES_READ)).isZero();

        // the bitmap keeps the 11 rows of one category among the 50 rows of its file
        TarnRead byBitmap = read(separate, compare("category", EQ, "cat-1-2").tarn(separate.schema()));
        assertThat(byBitmap.metrics().get(Counter.ROWS_SELECTED_BY_INDEX)).isEqualTo(11);
        assertThat(byBitmap.metrics().get(Counter.ROWS_SKIPPED_BY_INDEX)).isEqualTo(39);
        assertThat(byBitmap.metrics().get(Counter.ROWS_RETURNED)).isEqualTo(11);
        // the bitmap answers the equality exactly, so the rows are decoded once, not first for
        // the filter column and then for the others
        assertThat(byBitmap.metrics().get(Counter.ROWS_READ)).isEqualTo(11);
        assertThat(byBitmap.metrics().get(Counter.ROWS_FILTERED)).isZero();
        // an unindexed conjunct is still tested on the bitmap's rows
        TarnRead byBitmapAndId = read(separate, and(compare("category", EQ, "cat-1-2"), compare("id", LT, 1020)).tarn(separate.schema()));
        assertThat(byBitmapAndId.metrics().get(Counter.ROWS_SELECTED_BY_INDEX)).isEqualTo(11);
        assertThat(byBitmapAndId.metrics().get(Counter.ROWS_RETURNED)).isLessThan(11);
        TarnRead absentCategory = read(separate, compare("category", EQ, "cat-1-2x").tarn(separate.schema()));
        assertThat(absentCategory.metrics().get(Counter.FILES_SKIPPED_BY_INDEX)).isEqualTo(1);
        assertThat(absentCategory.files()).isZero();

        // statistics prove that every row of every file matches: nothing is tested or read twice
        TarnRead everyRow = read(separate, compare("id", LT, 5000).tarn(separate.schema()));
        assertThat(everyRow.metrics().get(Counter.ROWS_RETURNED)).isEqualTo(150);
        assertThat(everyRow.metrics().get(Counter.ROWS_READ)).isEqualTo(150);
        assertThat(everyRow.metrics().get(Counter.ROWS_FILTERED)).isZero();
        // nor does the reader read column indexes to prune: the same bytes as without a filter
        TarnRead unfiltered = read(separate, io.tarn.index.predicate.Predicates.alwaysTrue());
        assertThat(everyRow.metrics().get(Counter.BYTES_READ)).isEqualTo(unfiltered.metrics().get(Counter.BYTES_READ));
        TarnRead nearlyEveryRow = read(separate, compare("id", LT, 2049).tarn(separate.schema()));
        assertThat(nearlyEveryRow.metrics().get(Counter.ROWS_RETURNED)).isEqualTo(149);
        assertThat(nearlyEveryRow.metrics().get(Counter.ROWS_FILTERED)).isEqualTo(1);

        // the deletion vector is subtracted before the bitmap's rows are counted
        PaimonTable deletionVectors = table(PaimonFileIndexTables.DELETION_VECTORS);
        TarnRead withDeletions = read(deletionVectors, compare("category", EQ, "c2").tarn(deletionVectors.schema()));
        assertThat(withDeletions.metrics().get(Counter.ROWS_DELETED)).isPositive();
        assertThat(withDeletions.metrics().get(Counter.ROWS_SELECTED_BY_INDEX)).isEqualTo(withDeletions.metrics().get(Counter.ROWS_RETURNED));
    }

    @Test
    public void testReadEnabledOptionTurnsIndexesOff()
            throws Exception
    {
        PaimonTable separate = table(SEPARATE);
        Path copy = warehouse.resolve("ref.db").resolve("append_file_index_files_off");
        TemporaryDirectories.copyRecursively(warehouse.resolve("ref.db").resolve("append_file_index_files"), copy);
        Path schemaFile = copy.resolve("schema").resolve("schema-0");
        Files.writeString(schemaFile, Files.readString(schemaFile).replace("\"options\" : {", "\"options\" : {\n    \"file-index.read.enabled\" : \"false\","));
        PaimonTable off = table("ref.append_file_index_files_off");
        assertThat(off.schema().options()).containsEntry("file-index.read.enabled", "false");
        TarnRead read = read(off, compare("name", EQ, "name-1010").tarn(separate.schema()));
        assertThat(read.files()).isEqualTo(2);
        assertThat(read.metrics().get(Counter.FILES_SKIPPED_BY_INDEX)).isZero();
        read = read(off, compare("category", EQ, "cat-1-2").tarn(separate.schema()));
        assertThat(read.metrics().get(Counter.ROWS_SELECTED_BY_INDEX)).isZero();
        assertThat(read.rows()).isEqualTo(read(separate, compare("category", EQ, "cat-1-2").tarn(separate.schema())).rows());
    }

    @Test
    public void testEnginesCanTurnIndexesOff()
            throws Exception
    {
        PaimonTable embedded = table(EMBEDDED);
        Predicate filter = compare("name", EQ, "name-1010").tarn(embedded.schema());
        ScanPlan plan = new ScanPlanner(embedded).withFilter(filter).withoutFileIndexes().plan(embedded.snapshot(new ScanVersion.Latest()));
        assertThat(plan.metrics().get(Counter.FILES_SKIPPED_BY_EMBEDDED_INDEX)).isZero();
        assertThat(plan.files()).hasSize(2);

        PaimonTable separate = table(SEPARATE);
        FilterSpec categoryFilter = compare("category", EQ, "cat-1-2");
        Predicate category = categoryFilter.tarn(separate.schema());
        ScanPlan separatePlan = new ScanPlanner(separate).withFilter(category).plan(separate.snapshot(new ScanVersion.Latest()));
        List<String> lines = new ArrayList<>();
        ReadRequest request = ReadRequest.of(separatePlan.readSchema().fields()).withFilter(category).withoutFileIndexes();
        Counters metrics = TableRead.forEachBatch(separate, separatePlan, request, allocator,
                batch -> CanonicalRowFormatter.appendLines(batch, separatePlan.readSchema().fields(), lines));
        assertThat(metrics.get(Counter.ROWS_SELECTED_BY_INDEX)).isZero();
        assertThat(metrics.get(Counter.FILES_SKIPPED_BY_INDEX)).isZero();
        ReferenceScan paimonScan = ReferenceScan.of(SEPARATE);
        CanonicalRows expected = ReferenceReader.read(warehouse, paimonScan.withFilter(categoryFilter.paimon(ReferenceReader.rowType(warehouse, paimonScan))));
        assertThat(CanonicalRowSet.of(lines).text()).isEqualTo(expected.text());
    }

    @DataProvider
    public Object[][] corruptions()
    {
        return new Object[][] {{"bad magic"}, {"offset past the end"}, {"truncated bitmap"}};
    }

    /**
     * Each corruption in every {@code .index} file: the files are read, the rows are right and
     * each ignored index is counted.
     */
    @Test(dataProvider = "corruptions")
    public void testCorruptIndexFilesAreIgnored(String corruption)
            throws Exception
    {
        String name = "corrupt_" + corruption.replace(' ', '_');
        Path copy = warehouse.resolve("ref.db").resolve(name);
        TemporaryDirectories.copyRecursively(warehouse.resolve("ref.db").resolve("append_file_index_files"), copy);
        int corrupted = 0;
        try (var files = Files.walk(copy)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".index")).toList()) {
                Files.write(file, corrupt(Files.readAllBytes(file), corruption));
                corrupted++;
            }
        }
        assertThat(corrupted).isEqualTo(3);
        PaimonTable table = table("ref." + name);
        // filters the indexes would answer for every file the statistics keep
        for (FilterSpec filter : List.of(compare("category", EQ, "cat-1-2"), compare("name", EQ, "name-1010"), isNull("category"))) {
            CanonicalRows expected = ReferenceReader.read(warehouse, ReferenceScan.of(SEPARATE).withFilter(filter.paimon(ReferenceReader.rowType(warehouse, ReferenceScan.of(SEPARATE)))));
            TarnRead read = read(table, filter.tarn(table.schema()));
            assertThat(read.rows()).as("%s, %s", corruption, filter).isEqualTo(expected.text());
            if (corruption.equals("truncated bitmap") && filter.toString().startsWith("category")) {
                // the header and the bitmaps before the cut are intact and may still answer
                continue;
            }
            assertThat(read.metrics().get(Counter.FILES_SKIPPED_BY_INDEX)).isZero();
            assertThat(read.metrics().get(Counter.ROWS_SELECTED_BY_INDEX)).isZero();
            assertThat(read.files()).isEqualTo(read.plan().files().size());
            assertThat(read.metrics().get(Counter.INDEXES_IGNORED)).as("%s, %s", corruption, filter).isEqualTo(read.files());
            // the planner, opening the same index files, ignores them alike
            TarnRead planned = read(table, filter.tarn(table.schema()), planner -> planner.withIndexFiles(10));
            assertThat(planned.rows()).as("%s, %s, index files checked in planning", corruption, filter).isEqualTo(expected.text());
            assertThat(planned.plan().files()).hasSameSizeAs(read.plan().files());
            assertThat(planned.plan().metrics().get(Counter.FILES_SKIPPED_BY_INDEX_FILE)).isZero();
            assertThat(planned.plan().metrics().get(Counter.INDEXES_IGNORED_IN_PLANNING)).isEqualTo(read.plan().files().size());
        }
    }

    /**
     * Index files deleted after their data files were committed: planning and reading ignore and
     * count each, and read every file.
     */
    @Test
    public void testMissingIndexFilesAreIgnored()
            throws Exception
    {
        Path copy = warehouse.resolve("ref.db").resolve("missing_index_files");
        TemporaryDirectories.copyRecursively(warehouse.resolve("ref.db").resolve("append_file_index_files"), copy);
        try (var files = Files.walk(copy)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".index")).toList()) {
                Files.delete(file);
            }
        }
        PaimonTable table = table("ref.missing_index_files");
        FilterSpec filter = compare("name", EQ, "name-1005x");
        CanonicalRows expected = ReferenceReader.read(warehouse, ReferenceScan.of(SEPARATE).withFilter(filter.paimon(ReferenceReader.rowType(warehouse, ReferenceScan.of(SEPARATE)))));
        TarnRead read = read(table, filter.tarn(table.schema()), planner -> planner.withIndexFiles(10));
        assertThat(read.rows()).isEqualTo(expected.text());
        // the name statistics of two files admit the absent name; their Bloom filters are gone
        assertThat(read.plan().files()).hasSize(2);
        assertThat(read.plan().metrics().get(Counter.INDEX_FILES_READ)).isEqualTo(2);
        assertThat(read.plan().metrics().get(Counter.INDEXES_IGNORED_IN_PLANNING)).isEqualTo(2);
        assertThat(read.metrics().get(Counter.INDEXES_IGNORED)).isEqualTo(2);
        assertThat(read.files()).isEqualTo(2);
    }

    /**
     * The same corruptions in the embedded indexes: the planner and the split reader ignore them.
     */
    @Test(dataProvider = "corruptions")
    public void testCorruptEmbeddedIndexesAreIgnored(String corruption)
            throws Exception
    {
        PaimonTable table = table(EMBEDDED);
        ScanPlan plan = new ScanPlanner(table).plan(table.snapshot(new ScanVersion.Latest()));
        List<PlannedFile> corrupted = new ArrayList<>();
        for (PlannedFile file : plan.files()) {
            DataFileMeta meta = file.file();
            assertThat(meta.embeddedIndex()).isNotNull();
            corrupted.add(new PlannedFile(file.partition(), file.bucket(), file.totalBuckets(), withEmbeddedIndex(meta, corrupt(meta.embeddedIndex(), corruption)), file.deletionFile()));
        }
        for (FilterSpec filter : List.of(compare("category", EQ, "cat-1-2"), compare("id", EQ, 1005))) {
            Predicate predicate = filter.tarn(table.schema());
            FileIndexFilter indexFilter = new FileIndexFilter(table, predicate);
            long ignored = 0;
            for (PlannedFile file : corrupted) {
                FileIndexFilter.Outcome outcome = indexFilter.evaluateEmbedded(file);
                ignored += outcome.indexesIgnored();
                if (outcome.indexesIgnored() == 0) {
                    // a cut bitmap body leaves the header intact, which may still show a value absent
                    assertThat(corruption).isEqualTo("truncated bitmap");
                    assertThat(outcome.result().skip()).isTrue();
                }
                else {
                    assertThat(outcome.result().skip()).isFalse();
                }
            }
            assertThat(ignored).isEqualTo(corruption.equals("truncated bitmap") && filter.toString().startsWith("category") ? 1 : 3);
            DataSplit split = new DataSplit(corrupted.get(0).partition(), corrupted.get(0).bucket(), corrupted.get(0).totalBuckets(), corrupted, false);
            ReadRequest request = ReadRequest.of(plan.readSchema().fields()).withFilter(predicate);
            List<String> lines = new ArrayList<>();
            Counters metrics;
            try (SplitReader reader = SplitReaders.open(table, plan.readSchema(), split, request, allocator)) {
                while (reader.nextBatch()) {
                    CanonicalRowFormatter.appendLines(reader.root(), plan.readSchema().fields(), lines);
                }
                metrics = reader.metrics();
            }
            CanonicalRows expected = ReferenceReader.read(warehouse, ReferenceScan.of(EMBEDDED).withFilter(filter.paimon(ReferenceReader.rowType(warehouse, ReferenceScan.of(EMBEDDED)))));
            assertThat(CanonicalRowSet.of(lines).text()).as("%s, %s", corruption, filter).isEqualTo(expected.text());
            assertThat(metrics.get(Counter.INDEXES_IGNORED)).isEqualTo(ignored);
            assertThat(metrics.get(Counter.FILES_READ)).isEqualTo(3 - metrics.get(Counter.FILES_SKIPPED_BY_INDEX));
        }
    }

    /**
     * Corrupts a container: its magic, the start of its first index (past the end), or its
     * bitmap payload (cut short inside a valid container).
     */
    private static byte[] corrupt(byte[] container, String corruption)
            throws IOException
    {
        switch (corruption) {
            case "bad magic" -> {
                byte[] bytes = container.clone();
                bytes[3] ^= 0x55;
                return bytes;
            }
            case "offset past the end" -> {
                byte[] bytes = container.clone();
                // the first index's start sits after magic, version, head length, column count, the first name and index count, and its type
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                int position = 20;
                position += 2 + Short.toUnsignedInt(buffer.getShort(position)) + 4;
                position += 2 + Short.toUnsignedInt(buffer.getShort(position));
                buffer.putInt(position, bytes.length + 100);
                return bytes;
            }
            case "truncated bitmap" -> {
                FileIndexFile file = FileIndexFile.parse(container);
                Map<String, Map<String, byte[]>> indexes = new LinkedHashMap<>();
                for (String column : file.columns()) {
                    for (FileIndexFile.Index index : file.indexes(column)) {
                        ByteBuffer payload = file.payload(index);
                        byte[] bytes = new byte[payload.remaining()];
                        payload.get(bytes);
                        if (index.type().equals("bitmap") || index.type().equals("bloom-filter")) {
                            // a bitmap cut inside its body; a Bloom filter cut to its hash count
                            bytes = Arrays.copyOf(bytes, index.type().equals("bitmap") ? bytes.length - 7 : 4);
                        }
                        indexes.computeIfAbsent(column, ignored -> new LinkedHashMap<>()).put(index.type(), bytes);
                    }
                }
                return FileIndexFile.serialize(indexes);
            }
            default -> throw new IllegalArgumentException(corruption);
        }
    }

    private static DataFileMeta withEmbeddedIndex(DataFileMeta meta, byte[] index)
    {
        return new DataFileMeta(meta.fileName(), meta.fileSize(), meta.rowCount(), meta.minKey(), meta.maxKey(), meta.keyStats(), meta.valueStats(),
                meta.minSequenceNumber(), meta.maxSequenceNumber(), meta.schemaId(), meta.level(), meta.extraFiles(), meta.creationTime(),
                meta.deleteRowCount(), index, meta.fileSource(), meta.valueStatsCols(), meta.externalPath(), meta.firstRowId(), meta.writeCols());
    }

    /**
     * What Tarn read under a filter: rows, the plan, the read counters, files opened, and rows
     * considered after the file indexes (live rows of the planned files minus those the indexes
     * removed).
     */
    record TarnRead(String rows, ScanPlan plan, Counters metrics)
    {
        long files()
        {
            return metrics.get(Counter.FILES_READ);
        }

        long rowsSelected()
        {
            long live = plan.files().stream().mapToLong(file -> file.liveRowCount().orElseThrow()).sum();
            return live - metrics.get(Counter.ROWS_SKIPPED_BY_INDEX);
        }
    }

    private TarnRead read(PaimonTable table, Predicate filter)
            throws IOException
    {
        return read(table, filter, UnaryOperator.identity());
    }

    private TarnRead read(PaimonTable table, Predicate filter, UnaryOperator<ScanPlanner> planning)
            throws IOException
    {
        ScanPlan plan = planning.apply(new ScanPlanner(table).withFilter(filter)).plan(table.snapshot(new ScanVersion.Latest()));
        List<String> lines = new ArrayList<>();
        Counters metrics = TableRead.forEachBatch(table, plan, ReadRequest.of(plan.readSchema().fields()).withFilter(filter), allocator,
                batch -> CanonicalRowFormatter.appendLines(batch, plan.readSchema().fields(), lines));
        return new TarnRead(CanonicalRowSet.of(lines).text(), plan, metrics);
    }

    private PaimonTable table(String name)
            throws IOException
    {
        return PaimonTable.load(catalog, Identifier.parse(name));
    }
}
