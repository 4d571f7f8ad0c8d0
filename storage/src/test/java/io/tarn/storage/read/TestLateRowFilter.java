package io.tarn.storage.read;

import io.tarn.index.predicate.Predicate;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.metrics.Counter;
import io.tarn.storage.metrics.Counters;
import io.tarn.storage.scan.FilterSpec;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
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
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static io.tarn.storage.scan.FilterSpec.Op.GT;
import static io.tarn.storage.scan.FilterSpec.Op.LT;
import static io.tarn.storage.scan.FilterSpec.Op.NE;
import static io.tarn.storage.scan.FilterSpec.and;
import static io.tarn.storage.scan.FilterSpec.compare;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A late row filter ({@link ReadRequest#withLateRowFilter}) that arrives after the first batch:
 * the rest of every split is read with it, from the row after that batch, so the rows returned
 * are that batch's and then exactly the rows Apache Paimon's reader returns for the filter, none
 * twice and none lost. Deletion vectors and row ranges hold across the restart, and the restart
 * decodes no row a second time.
 */
public class TestLateRowFilter
{
    private static final int BATCH_SIZE = 5;
    private static final long RANGE_SIZE = 512;

    private Path warehouse;
    private FileSystemCatalog catalog;
    private RootAllocator allocator;

    @BeforeClass
    public void createTables()
    {
        warehouse = TemporaryDirectories.create("tarn-late-row-filter");
        allocator = new RootAllocator();
        ReferenceTables.create(warehouse, ReferenceTables.PK_DV);
        ReferenceTables.create(warehouse, ReferenceTables.APPEND_ZORDER);
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
    public Object[][] reads()
    {
        FilterSpec ids = compare("id", LT, 20);
        FilterSpec corner = and(compare("x", LT, -2), compare("y", GT, 2));
        // filters of the request from the start, tested first on their own columns
        FilterSpec someIds = compare("id", GT, 3);
        FilterSpec lowerHalf = compare("y", LT, 6);
        return new Object[][] {
                {ReferenceTables.PK_DV, Optional.empty(), ids, false},
                {ReferenceTables.PK_DV, Optional.empty(), ids, true},
                {ReferenceTables.PK_DV, Optional.of(someIds), ids, false},
                {ReferenceTables.PK_DV, Optional.of(someIds), ids, true},
                {ReferenceTables.APPEND_ZORDER, Optional.empty(), corner, false},
                {ReferenceTables.APPEND_ZORDER, Optional.empty(), corner, true},
                {ReferenceTables.APPEND_ZORDER, Optional.of(lowerHalf), corner, false},
                {ReferenceTables.APPEND_ZORDER, Optional.of(lowerHalf), corner, true},
        };
    }

    @Test(dataProvider = "reads")
    public void testRestReadWithTheFilterOnceItArrives(ReferenceTable reference, Optional<FilterSpec> initial, FilterSpec filter, boolean rowRanges)
            throws IOException
    {
        ReferenceScan all = ReferenceScan.of(reference.identifier());
        PaimonTable table = PaimonTable.load(catalog, Identifier.parse(all.table()));
        Predicate predicate = filter.tarn(table.schema());
        ScanPlanner planner = new ScanPlanner(table);
        ScanPlan plan = (rowRanges ? planner.withRowRangeSplits(RANGE_SIZE) : planner).plan(table.snapshot(ScanVersion.latest()));
        ReadRequest request = ReadRequest.of(plan.readSchema().fields()).withBatchSize(BATCH_SIZE);
        if (initial.isPresent()) {
            request = request.withFilter(initial.get().tarn(table.schema()));
        }

        List<String> plainRows = new ArrayList<>();
        Counters plain = read(table, plan, request, plainRows, new ArrayList<>());

        // not there for the first batch; there from the next question on, and it stays
        AtomicInteger asked = new AtomicInteger();
        Supplier<Optional<Predicate>> late = () -> asked.incrementAndGet() == 1 ? Optional.empty() : Optional.of(predicate);
        List<String> returned = new ArrayList<>();
        List<String> firstBatch = new ArrayList<>();
        Counters counters = read(table, plan, request.withLateRowFilter(late), returned, firstBatch);

        FilterSpec both = initial.map(first -> and(first, filter)).orElse(filter);
        Set<String> expected = new HashSet<>(firstBatch);
        expected.addAll(rows(ReferenceReader.read(warehouse, all.withFilter(both.paimon(ReferenceReader.rowType(warehouse, all)))).text()));
        // at most a batch of the first file's rows (fewer where its deletion vector deletes some)
        assertThat(firstBatch).as("the filter arrives within the first file").isNotEmpty().hasSizeLessThanOrEqualTo(BATCH_SIZE);
        // the rows returned before the filter arrived are rows of the table, as Paimon reads it
        assertThat(rows(ReferenceReader.read(warehouse, all).text())).containsAll(firstBatch);
        assertThat(rows(CanonicalRowSet.of(returned).text())).isEqualTo(expected);
        assertThat(returned).as("no row returned twice").hasSameSizeAs(new HashSet<>(returned));
        assertThat(rows(CanonicalRowSet.of(plainRows).text())).as("the filter removed rows").hasSizeGreaterThan(expected.size());

        assertThat(counters.get(Counter.LATE_FILTER_RESTARTS)).as("every split restarts once").isEqualTo(plan.splits().size());
        assertThat(counters.get(Counter.FILTER_PROBES)).isPositive();
        assertThat(counters.get(Counter.ROWS_RETURNED)).isEqualTo(returned.size());
        assertThat(counters.get(Counter.ROWS_DELETED)).as("deleted rows counted once").isEqualTo(plain.get(Counter.ROWS_DELETED));
        // what the filter rules out by statistics is not decoded at all
        assertThat(counters.get(Counter.ROWS_READ)).isLessThanOrEqualTo(plain.get(Counter.ROWS_READ));
    }

    /**
     * The request's own filter found the matching rows of the whole first file before the late
     * filter arrived: the rest of that file is read from those rows, not filtered from scratch,
     * so every row is decoded once (the rest's filter pass counts as decoding again). The late
     * filter rules nothing out by statistics, so without the hand-over the rows of the rest
     * would count twice.
     */
    @Test
    public void testRestartDecodesNoRowTwice()
            throws IOException
    {
        ReferenceScan all = ReferenceScan.of(ReferenceTables.APPEND_ZORDER.identifier());
        PaimonTable table = PaimonTable.load(catalog, Identifier.parse(all.table()));
        ScanPlan plan = new ScanPlanner(table).plan(table.snapshot(ScanVersion.latest()));
        FilterSpec lowerHalf = compare("y", LT, 6);
        FilterSpec notZero = compare("x", NE, 0);
        ReadRequest request = ReadRequest.of(plan.readSchema().fields()).withBatchSize(BATCH_SIZE).withFilter(lowerHalf.tarn(table.schema()));
        Counters plain = read(table, plan, request, new ArrayList<>(), new ArrayList<>());

        Predicate late = notZero.tarn(table.schema());
        AtomicInteger asked = new AtomicInteger();
        List<String> returned = new ArrayList<>();
        List<String> firstBatch = new ArrayList<>();
        Counters counters = read(table, plan, request.withLateRowFilter(() -> asked.incrementAndGet() == 1 ? Optional.empty() : Optional.of(late)), returned, firstBatch);

        Set<String> expected = new HashSet<>(firstBatch);
        expected.addAll(rows(ReferenceReader.read(warehouse, all.withFilter(and(lowerHalf, notZero).paimon(ReferenceReader.rowType(warehouse, all)))).text()));
        assertThat(rows(CanonicalRowSet.of(returned).text())).isEqualTo(expected);
        assertThat(counters.get(Counter.LATE_FILTER_RESTARTS)).isEqualTo(plan.splits().size());
        assertThat(counters.get(Counter.ROWS_READ)).isEqualTo(plain.get(Counter.ROWS_READ)).isEqualTo(256);
        assertThat(counters.get(Counter.ROWS_READ_AGAIN)).as("the rest's matches, decoded again").isPositive();
    }

    @Test
    public void testFilterThatNeverArrivesChangesNothing()
            throws IOException
    {
        ReferenceScan all = ReferenceScan.of(ReferenceTables.PK_DV.identifier());
        PaimonTable table = PaimonTable.load(catalog, Identifier.parse(all.table()));
        ScanPlan plan = new ScanPlanner(table).plan(table.snapshot(ScanVersion.latest()));
        List<String> returned = new ArrayList<>();
        Counters counters = read(table, plan, ReadRequest.of(plan.readSchema().fields()).withBatchSize(BATCH_SIZE).withLateRowFilter(Optional::empty), returned, new ArrayList<>());
        assertThat(CanonicalRowSet.of(returned).text()).isEqualTo(ReferenceReader.read(warehouse, all).text());
        assertThat(counters.get(Counter.LATE_FILTER_RESTARTS)).isZero();
        assertThat(counters.get(Counter.FILTER_PROBES)).isZero();
    }

    // the rows of a canonical row set, without its closing count and digest
    private static Set<String> rows(String text)
    {
        Set<String> rows = new HashSet<>(List.of(text.split("\n")));
        rows.removeIf(line -> line.startsWith("rows="));
        return rows;
    }

    private Counters read(PaimonTable table, ScanPlan plan, ReadRequest request, List<String> lines, List<String> firstBatch)
            throws IOException
    {
        AtomicInteger batches = new AtomicInteger();
        return TableRead.forEachBatch(table, plan, request, allocator, batch -> {
            int before = lines.size();
            CanonicalRowFormatter.appendLines(batch, request.columns(), lines);
            if (batches.getAndIncrement() == 0) {
                firstBatch.addAll(lines.subList(before, lines.size()));
            }
        });
    }
}
