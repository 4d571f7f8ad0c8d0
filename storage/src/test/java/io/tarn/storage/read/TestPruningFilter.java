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
import io.tarn.testing.ReferenceTables;
import io.tarn.testing.TemporaryDirectories;
import io.tarn.vector.rows.CanonicalRowFormatter;
import io.tarn.vector.rows.CanonicalRowSet;
import org.apache.arrow.memory.RootAllocator;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
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
import static io.tarn.storage.scan.FilterSpec.and;
import static io.tarn.storage.scan.FilterSpec.compare;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pruning filter ({@link ReadRequest#withPruningFilter}) skips what statistics rule out and
 * is never tested row by row: no filter probes, no rows filtered, every row it keeps a row of
 * the table, and every row the filter selects kept. The same holds for a late one
 * ({@link ReadRequest#withLatePruningFilter}), from the moment it arrives.
 */
public class TestPruningFilter
{
    // a corner of the z-ordered square: few files and row groups hold it
    private static final FilterSpec CORNER = and(compare("x", LT, -4), compare("y", GT, 4));

    private Path warehouse;
    private FileSystemCatalog catalog;
    private RootAllocator allocator;

    @BeforeClass
    public void createTables()
    {
        warehouse = TemporaryDirectories.create("tarn-pruning-filter");
        allocator = new RootAllocator();
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

    @Test
    public void testPruningFilterSkipsButTestsNoRow()
            throws IOException
    {
        ReferenceScan all = ReferenceScan.of(ReferenceTables.APPEND_ZORDER.identifier());
        PaimonTable table = PaimonTable.load(catalog, Identifier.parse(all.table()));
        Predicate predicate = CORNER.tarn(table.schema());
        ScanPlan plan = new ScanPlanner(table).plan(table.snapshot(ScanVersion.latest()));

        List<String> pruned = new ArrayList<>();
        Counters pruning = read(table, plan, ReadRequest.of(plan.readSchema().fields()).withPruningFilter(predicate), pruned);
        List<String> filtered = new ArrayList<>();
        Counters filtering = read(table, plan, ReadRequest.of(plan.readSchema().fields()).withFilter(predicate), filtered);

        assertThat(pruning.get(Counter.FILTER_PROBES)).as("no row tested").isZero();
        assertThat(pruning.get(Counter.ROWS_FILTERED)).isZero();
        assertThat(filtering.get(Counter.FILTER_PROBES)).as("the same predicate as a filter tests rows").isPositive();
        assertThat(pruning.get(Counter.ROW_GROUPS_SKIPPED) + pruning.get(Counter.PAGES_SKIPPED)).as("something skipped").isPositive();

        String expected = ReferenceReader.read(warehouse, all.withFilter(CORNER.paimon(ReferenceReader.rowType(warehouse, all)))).text();
        assertThat(CanonicalRowSet.of(filtered).text()).isEqualTo(expected);
        Set<String> everyRow = rows(ReferenceReader.read(warehouse, all).text());
        Set<String> kept = rows(CanonicalRowSet.of(pruned).text());
        assertThat(everyRow).containsAll(kept);
        assertThat(kept).containsAll(rows(expected));
        assertThat(pruned.size()).as("rows the filter rules out are still returned").isGreaterThan(filtered.size());
        assertThat(pruned.size()).as("but not all of them").isLessThan(everyRow.size());
    }

    @Test
    public void testLatePruningFilterSkipsWhatIsLeftOnceItArrives()
            throws IOException
    {
        ReferenceScan all = ReferenceScan.of(ReferenceTables.APPEND_ZORDER.identifier());
        PaimonTable table = PaimonTable.load(catalog, Identifier.parse(all.table()));
        Predicate predicate = CORNER.tarn(table.schema());
        ScanPlan plan = new ScanPlanner(table).plan(table.snapshot(ScanVersion.latest()));

        // not there when the first file opens; there from the next question on, and it stays
        AtomicInteger asked = new AtomicInteger();
        Supplier<Optional<Predicate>> late = () -> asked.incrementAndGet() == 1 ? Optional.empty() : Optional.of(predicate);
        List<String> kept = new ArrayList<>();
        Counters counters = read(table, plan, ReadRequest.of(plan.readSchema().fields()).withLatePruningFilter(late), kept);

        assertThat(plan.files().size()).isGreaterThan(2);
        assertThat(counters.get(Counter.FILES_SKIPPED_BY_LATE_FILTER)).as("files skipped once it arrived").isPositive();
        assertThat(counters.get(Counter.FILTER_PROBES)).as("no row tested").isZero();
        assertThat(counters.get(Counter.ROWS_FILTERED)).isZero();
        String expected = ReferenceReader.read(warehouse, all.withFilter(CORNER.paimon(ReferenceReader.rowType(warehouse, all)))).text();
        Set<String> everyRow = rows(ReferenceReader.read(warehouse, all).text());
        Set<String> keptRows = rows(CanonicalRowSet.of(kept).text());
        assertThat(everyRow).containsAll(keptRows);
        assertThat(keptRows).containsAll(rows(expected));
        assertThat(keptRows.size()).as("what it rules out is skipped").isLessThan(everyRow.size());

        // one that never arrives changes nothing
        List<String> unfiltered = new ArrayList<>();
        Counters never = read(table, plan, ReadRequest.of(plan.readSchema().fields()).withLatePruningFilter(Optional::empty), unfiltered);
        assertThat(never.get(Counter.FILES_SKIPPED_BY_LATE_FILTER)).isZero();
        assertThat(rows(CanonicalRowSet.of(unfiltered).text())).isEqualTo(everyRow);
    }

    // the rows of a canonical row set, without its closing count and digest
    private static Set<String> rows(String text)
    {
        Set<String> rows = new HashSet<>(List.of(text.split("\n")));
        rows.removeIf(line -> line.startsWith("rows="));
        return rows;
    }

    private Counters read(PaimonTable table, ScanPlan plan, ReadRequest request, List<String> lines)
            throws IOException
    {
        return TableRead.forEachBatch(table, plan, request, allocator, batch -> CanonicalRowFormatter.appendLines(batch, request.columns(), lines));
    }
}
