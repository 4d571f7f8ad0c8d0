package io.tarn.storage.read;

import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.metrics.Counter;
import io.tarn.storage.scan.DataSplit;
import io.tarn.storage.scan.FilterSpec;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.scan.RowRange;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.scan.SplitCodec;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.source.TableRead;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.ReferenceScan;
import io.tarn.testing.ReferenceTable;
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
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.tarn.storage.scan.FilterSpec.Op.GT;
import static io.tarn.storage.scan.FilterSpec.Op.LT;
import static io.tarn.storage.scan.FilterSpec.compare;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Splits that read row ranges of a file ({@link ScanPlanner#withRowRangeSplits}) cover every row
 * of the files read raw once, and read, with and without a filter and deletion vectors, exactly
 * the rows Apache Paimon's reader returns.
 */
public class TestRowRangeSplits
{
    // smaller than every data file of the reference tables: each is cut into several ranges
    private static final long RANGE_SIZE = 512;
    private static final List<ReferenceTable> TABLES = List.of(ReferenceTables.APPEND_PARTITIONED, ReferenceTables.APPEND_ALL_TYPES, ReferenceTables.PK_DV,
            ReferenceTables.PK_FIRST_ROW, ReferenceTables.PK_DEDUP);

    private Path warehouse;
    private FileSystemCatalog catalog;
    private RootAllocator allocator;

    @BeforeClass
    public void createTables()
    {
        warehouse = TemporaryDirectories.create("tarn-row-ranges");
        allocator = new RootAllocator();
        for (ReferenceTable table : TABLES) {
            ReferenceTables.create(warehouse, table);
        }
        catalog = new FileSystemCatalog(new LocalFileIO(), warehouse.toString());
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
    public Object[][] tables()
    {
        return TABLES.stream().map(table -> new Object[] {table}).toArray(Object[][]::new);
    }

    @Test(dataProvider = "tables")
    public void testRangesCoverEveryRowOfTheFilesReadRawOnce(ReferenceTable reference)
            throws IOException
    {
        PaimonTable table = PaimonTable.load(catalog, Identifier.parse(reference.identifier()));
        ScanPlan whole = new ScanPlanner(table).plan(table.snapshot(ScanVersion.latest()));
        ScanPlan ranged = new ScanPlanner(table).withRowRangeSplits(RANGE_SIZE).plan(table.snapshot(ScanVersion.latest()));
        Comparator<PlannedFile> byName = Comparator.comparing(file -> file.file().fileName());
        assertThat(ranged.files()).as("each file once").hasSameSizeAs(whole.files());
        assertThat(ranged.files().stream().sorted(byName).toList()).isEqualTo(whole.files().stream().sorted(byName).toList());

        Map<String, List<RowRange>> rangesByFile = new LinkedHashMap<>();
        for (DataSplit split : ranged.splits()) {
            assertThat(SplitCodec.decode(SplitCodec.encode(split))).isEqualTo(split);
            if (split.mergeRequired()) {
                assertThat(split.rowRange()).as("a merge reads its whole bucket").isEmpty();
                continue;
            }
            assertThat(split.rowRange()).as("every file of these tables is larger than the range size").isPresent();
            rangesByFile.computeIfAbsent(split.files().get(0).file().fileName(), ignored -> new ArrayList<>()).add(split.rowRange().get());
        }
        for (DataSplit split : whole.splits()) {
            if (split.mergeRequired()) {
                continue;
            }
            for (PlannedFile file : split.files()) {
                List<RowRange> ranges = rangesByFile.get(file.file().fileName());
                assertThat(ranges).as("ranges of %s", file.file().fileName()).hasSizeGreaterThan(1);
                long next = 0;
                for (RowRange range : ranges) {
                    assertThat(range.start()).isEqualTo(next);
                    next = range.end();
                }
                assertThat(next).isEqualTo(file.file().rowCount());
            }
        }
    }

    @Test(dataProvider = "tables")
    public void testRangesReadLikePaimon(ReferenceTable reference)
            throws IOException
    {
        ReferenceScan scan = ReferenceScan.of(reference.identifier());
        assertThat(rangedRows(scan, Optional.empty()).rows()).isEqualTo(ReferenceReader.read(warehouse, scan).text());
    }

    @Test
    public void testFilteredRangesReadLikePaimon()
            throws IOException
    {
        ReferenceScan unfiltered = ReferenceScan.of(ReferenceTables.PK_DV.identifier());
        FilterSpec filter = compare("v", GT, 50L);
        Read read = rangedRows(unfiltered, Optional.of(filter));
        assertThat(read.rows()).isEqualTo(ReferenceReader.read(warehouse, unfiltered.withFilter(filter.paimon(ReferenceReader.rowType(warehouse, unfiltered)))).text());

        ReferenceScan partitioned = ReferenceScan.of(ReferenceTables.APPEND_PARTITIONED.identifier());
        FilterSpec amount = compare("amount", LT, 30.0);
        assertThat(rangedRows(partitioned, Optional.of(amount)).rows())
                .isEqualTo(ReferenceReader.read(warehouse, partitioned.withFilter(amount.paimon(ReferenceReader.rowType(warehouse, partitioned)))).text());
    }

    @Test
    public void testDeletedRowsCountedInTheRangeTheyFallIn()
            throws IOException
    {
        PaimonTable table = PaimonTable.load(catalog, Identifier.parse(ReferenceTables.PK_DV.identifier()));
        ScanPlan whole = new ScanPlanner(table).plan(table.snapshot(ScanVersion.latest()));
        ScanPlan ranged = new ScanPlanner(table).withRowRangeSplits(RANGE_SIZE).plan(table.snapshot(ScanVersion.latest()));
        ReadRequest request = ReadRequest.of(whole.readSchema().fields());
        long deletedWhole = TableRead.forEachBatch(table, whole, request, allocator, batch -> {}).get(Counter.ROWS_DELETED);
        long deletedRanged = TableRead.forEachBatch(table, ranged, request, allocator, batch -> {}).get(Counter.ROWS_DELETED);
        assertThat(deletedWhole).as("the table has deleted rows").isPositive();
        assertThat(deletedRanged).isEqualTo(deletedWhole);
    }

    private record Read(String rows, long deleted) {}

    private Read rangedRows(ReferenceScan scan, Optional<FilterSpec> filter)
            throws IOException
    {
        PaimonTable table = PaimonTable.load(catalog, Identifier.parse(scan.table()));
        ScanPlanner planner = new ScanPlanner(table).withRowRangeSplits(RANGE_SIZE);
        if (filter.isPresent()) {
            planner = planner.withFilter(filter.get().tarn(table.schema()));
        }
        ScanPlan plan = planner.plan(table.snapshot(ScanVersion.latest()));
        ReadRequest request = ReadRequest.of(plan.readSchema().fields());
        if (filter.isPresent()) {
            request = request.withFilter(filter.get().tarn(table.schema()));
        }
        ReadRequest finalRequest = request.withBatchSize(7);
        List<String> lines = new ArrayList<>();
        long deleted = TableRead.forEachBatch(table, plan, finalRequest, allocator, batch -> CanonicalRowFormatter.appendLines(batch, finalRequest.columns(), lines))
                .get(Counter.ROWS_DELETED);
        return new Read(CanonicalRowSet.of(lines).text(), deleted);
    }
}
