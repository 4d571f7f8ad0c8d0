package io.tarn.trino;

import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.RowEvaluator;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.scan.DataSplit;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.ReferenceTables;
import io.tarn.testing.TemporaryDirectories;
import io.tarn.types.DataField;
import io.trino.spi.block.Block;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.DynamicFilter;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.metrics.Count;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.type.TypeOperators;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.LongStream;

import static io.trino.spi.type.IntegerType.INTEGER;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A join's dynamic filter that completes while a page source reads: before it completes it
 * prunes nothing; once complete it prunes the files still to be read by their statistics, and
 * the rows still to be read are tested against it; a filter too large to test exactly is reduced
 * to its envelope and only prunes. The table is {@code ref.time_travel}, whose five files hold ids 0-9, 10-19, ..., 40-49.
 */
public class TestLateDynamicFilter
{
    private Path warehouse;
    private PaimonTable table;
    private ScanPlan plan;
    private DataField id;
    private TarnColumnHandle idColumn;
    private final TarnTypes types = new TarnTypes(new TypeOperators());

    @BeforeClass
    public void createTable()
            throws Exception
    {
        warehouse = TemporaryDirectories.create("tarn-late-dynamic-filter");
        ReferenceTables.create(warehouse, ReferenceTables.TIME_TRAVEL);
        table = PaimonTable.load(new FileSystemCatalog(new LocalFileIO(), warehouse.toString()), Identifier.parse(ReferenceTables.TIME_TRAVEL.identifier()));
        plan = new ScanPlanner(table).plan(table.snapshotManager().latest());
        id = plan.readSchema().rowType().field("id").orElseThrow();
        idColumn = TarnColumnHandle.base(id.name(), id.id(), types.toTrinoType(id.type()));
    }

    @AfterClass(alwaysRun = true)
    public void deleteTable()
    {
        TemporaryDirectories.deleteRecursively(warehouse);
    }

    @Test
    public void testNothingBeforeTheFilterCompletes()
    {
        ControlledDynamicFilter dynamicFilter = new ControlledDynamicFilter(idColumn);
        LateDynamicFilter late = new LateDynamicFilter(dynamicFilter, plan.readSchema().fields());
        assertThat(late.pruningFilter()).isEmpty();
        assertThat(late.rowFilter()).isEmpty();
        assertThat(late.arrived()).isFalse();

        dynamicFilter.complete(Domain.multipleValues(INTEGER, List.of(15L, 33L)));
        assertThat(late.arrived()).as("not asked for since it completed").isFalse();
        for (Predicate predicate : List.of(late.pruningFilter().orElseThrow(), late.rowFilter().orElseThrow())) {
            assertThat(passes(predicate, 15)).isTrue();
            assertThat(passes(predicate, 33)).isTrue();
            // few values: the filter stays exact
            assertThat(passes(predicate, 16)).isFalse();
        }
        assertThat(late.arrived()).isTrue();
    }

    @Test
    public void testLargeFilterBecomesItsEnvelope()
    {
        ControlledDynamicFilter dynamicFilter = new ControlledDynamicFilter(idColumn);
        LateDynamicFilter late = new LateDynamicFilter(dynamicFilter, plan.readSchema().fields());
        // even values 100..100 + 2 * (threshold + 1): more than the reader tests exactly
        List<Object> values = new ArrayList<>(LongStream.rangeClosed(0, TarnPageSourceProvider.DYNAMIC_FILTER_COMPACTION_THRESHOLD + 1).mapToObj(i -> 100 + 2 * i).toList());
        dynamicFilter.complete(Domain.multipleValues(INTEGER, values));
        Predicate predicate = late.pruningFilter().orElseThrow();
        assertThat(late.rowFilter()).as("too large to test per row").isEmpty();
        assertThat(passes(predicate, 100)).isTrue();
        assertThat(passes(predicate, 101)).as("inside the envelope, not a value").isTrue();
        assertThat(passes(predicate, 99)).isFalse();
        assertThat(passes(predicate, 100 + 2 * (TarnPageSourceProvider.DYNAMIC_FILTER_COMPACTION_THRESHOLD + 2))).isFalse();
    }

    /**
     * The filter completes after the page source returned its first page: the files it then rules
     * out by their id ranges are not opened, only the matching row of the file it cannot rule out
     * is returned (the rest of the split is read again with the filter), and the page source says
     * it used a late filter.
     */
    @Test
    public void testFilterThatCompletesMidSplitSkipsTheFilesLeft()
    {
        assertThat(plan.splits()).hasSize(1);
        DataSplit split = plan.splits().getFirst();
        assertThat(split.files()).hasSize(5);
        ControlledDynamicFilter dynamicFilter = new ControlledDynamicFilter(idColumn);
        List<Long> ids = new ArrayList<>();
        List<Integer> pageSizes = new ArrayList<>();
        Map<String, Long> metrics;
        try (BufferAllocator allocator = new RootAllocator()) {
            TarnPageSource source = new TarnPageSource(table, types, plan.readSchema(), split, List.of(idColumn), Optional.empty(), Optional.empty(),
                    Optional.of(new LateDynamicFilter(dynamicFilter, plan.readSchema().fields())), Map.of(), OptionalLong.empty(), true, allocator,
                    new FileReadLimiter(4, Duration.ofMinutes(1)));
            while (!source.isFinished()) {
                SourcePage page = source.getNextSourcePage();
                if (page == null) {
                    continue;
                }
                Block block = page.getBlock(0);
                for (int position = 0; position < page.getPositionCount(); position++) {
                    ids.add((long) INTEGER.getInt(block, position));
                }
                pageSizes.add(page.getPositionCount());
                // the build side finishes: only id 25 joins
                dynamicFilter.complete(Domain.singleValue(INTEGER, 25L));
            }
            metrics = counts(source);
            source.close();
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
        // the first page is one whole file, read before the filter completed
        assertThat(pageSizes.getFirst()).isEqualTo(10);
        long firstFile = ids.getFirst() / 10;
        List<Long> after = ids.subList(10, ids.size());
        // afterwards only id 25, unless its file was the first
        List<Long> expectedAfter = firstFile == 2 ? List.of() : List.of(25L);
        assertThat(after).containsExactlyInAnyOrderElementsOf(expectedAfter);
        assertThat(metrics.get("files_skipped_late_filter")).isEqualTo(firstFile == 2 ? 4L : 3L);
        assertThat(metrics.get("dynamic_filter_late")).isEqualTo(1L);
        assertThat(metrics.get("dynamic_filter_late_arrived")).isEqualTo(1L);
        assertThat(metrics.get("late_filter_restarts")).isEqualTo(1L);
    }

    private boolean passes(Predicate predicate, int value)
    {
        return RowEvaluator.test(predicate, field -> field.fieldId() == id.id() ? value : null);
    }

    private static Map<String, Long> counts(TarnPageSource source)
    {
        Map<String, Long> counts = new HashMap<>();
        source.getMetrics().getMetrics().forEach((name, metric) -> counts.put(name, ((Count<?>) metric).getTotal()));
        return counts;
    }

    /**
     * A dynamic filter on one column that the test completes when it wants.
     */
    private static final class ControlledDynamicFilter
            implements DynamicFilter
    {
        private final ColumnHandle column;
        private final CompletableFuture<Void> completed = new CompletableFuture<>();
        private volatile TupleDomain<ColumnHandle> predicate = TupleDomain.all();

        ControlledDynamicFilter(ColumnHandle column)
        {
            this.column = column;
        }

        void complete(Domain domain)
        {
            predicate = TupleDomain.withColumnDomains(Map.of(column, domain));
            completed.complete(null);
        }

        @Override
        public Set<ColumnHandle> getColumnsCovered()
        {
            return Set.of(column);
        }

        @Override
        public CompletableFuture<?> isBlocked()
        {
            return completed.isDone() ? NOT_BLOCKED : completed;
        }

        @Override
        public boolean isComplete()
        {
            return completed.isDone();
        }

        @Override
        public boolean isAwaitable()
        {
            return !completed.isDone();
        }

        @Override
        public TupleDomain<ColumnHandle> getCurrentPredicate()
        {
            return predicate;
        }
    }
}
