package io.tarn.trino;

import io.tarn.testing.TemporaryDirectories;
import io.trino.Session;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedRow;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Joins whose dynamic filter holds 100,000 values, and a filter of 250 ranges: the answers are
 * checked against sums computed here from the formulas that generated the tables, and the
 * reader's filter work ({@code filter_probes}) must stay within a small multiple of the rows read
 * times log2 of the filter's size, where an OR of every range or a walk over every literal would
 * cost the rows times the filter's size. The tables are written by Tarn through CTAS: the probe
 * side holds keys 0..399,999, the build side every fourth of them.
 */
public class TestTarnDynamicFilters
{
    private static final int PROBE_ROWS = 400_000;
    private static final int BUILD_ROWS = 100_000;
    private static final int RANGES = 250;

    private Path warehouse;
    private DistributedQueryRunner runner;
    private Session session;

    @BeforeClass
    public void setUp()
            throws Exception
    {
        warehouse = TemporaryDirectories.create("tarn-trino-dynamic-filters");
        // let Trino collect and deliver a filter of 100,000 distinct values (its defaults stop
        // far earlier and fall back to a min / max range)
        Map<String, String> server = Map.of(
                "dynamic-filtering.large.max-size-per-driver", "10MB",
                "dynamic-filtering.large.range-row-limit-per-driver", "10000000",
                "dynamic-filtering.large.max-size-per-operator", "50MB",
                "dynamic-filtering.large-partitioned.max-distinct-values-per-driver", "1000000",
                "dynamic-filtering.large-partitioned.max-size-per-driver", "10MB",
                "dynamic-filtering.large-partitioned.range-row-limit-per-driver", "10000000",
                "dynamic-filtering.large-partitioned.max-size-per-operator", "50MB",
                "dynamic-filtering.large.max-size-per-filter", "10MB");
        runner = TarnQueryRunner.create(warehouse, Map.of("tarn.dynamic-filtering.wait-timeout", "60s", "tarn.dynamic-filtering.small-scan-size", "0B"), server);
        // Trino 483 always collects large dynamic filters (its enable_large_dynamic_filters is gone)
        session = runner.getDefaultSession();
        runner.execute("CREATE SCHEMA tarn.j");
        String numbers = "(SELECT a * 1000 + b AS n FROM UNNEST(sequence(0, " + (PROBE_ROWS / 1000 - 1) + ")) x(a) CROSS JOIN UNNEST(sequence(0, 999)) y(b))";
        runner.execute("CREATE TABLE tarn.j.probe AS SELECT n AS k, CAST(n AS double) AS d, n * 3 AS v FROM " + numbers);
        runner.execute("CREATE TABLE tarn.j.build AS SELECT n * 4 AS k, CAST(n * 4 AS double) AS d FROM " + numbers + " WHERE n < " + BUILD_ROWS);
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        if (runner != null) {
            runner.close();
            runner = null;
        }
        if (warehouse != null) {
            TemporaryDirectories.deleteRecursively(warehouse);
            warehouse = null;
        }
    }

    @Test
    public void testDynamicFilterOf100000Values()
    {
        checkJoin("SELECT count(*), sum(p.v) FROM tarn.j.probe p JOIN tarn.j.build b ON p.k = b.k", "bigint", true);
    }

    @Test
    public void testDynamicFilterOf100000FloatingPointValues()
    {
        checkJoin("SELECT count(*), sum(p.v) FROM tarn.j.probe p JOIN tarn.j.build b ON p.d = b.d", "double", false);
    }

    private void checkJoin(String query, String type, boolean timed)
    {
        // every build key 4n (n < 100,000) is a probe key, whose v is 3 * 4n
        long expectedSum = 0;
        for (long n = 0; n < BUILD_ROWS; n++) {
            expectedSum += 12 * n;
        }
        assertThat(runner.execute(session, query).getMaterializedRows())
                .containsExactly(new MaterializedRow(List.of((long) BUILD_ROWS, expectedSum)));

        String analyzed = (String) runner.execute(session, "EXPLAIN ANALYZE VERBOSE " + query).getOnlyValue();
        // the filter Trino delivered is the whole build side, value by value
        assertThat(analyzed).contains("SortedRangeSet[type=" + type + ", ranges=" + BUILD_ROWS);
        assertThat(ConnectorMetrics.required(analyzed, "planning.dynamic_filter_used")).as(analyzed).isEqualTo(1);
        long rowsRead = ConnectorMetrics.required(analyzed, "rows_read");
        long probes = ConnectorMetrics.required(analyzed, "filter_probes");
        assertThat(rowsRead).as(analyzed).isGreaterThanOrEqualTo(PROBE_ROWS);
        // too large to test per row: its envelope only skips row groups and pages, and Trino filters the rows
        assertThat(ConnectorMetrics.required(analyzed, "dynamic_filter_columns_pruning_only")).as(analyzed).isPositive();
        assertThat(ConnectorMetrics.required(analyzed, "dynamic_filter_columns_row_tested")).as(analyzed).isZero();
        assertThat(probes).as(analyzed).isZero();
        assertThat(ConnectorMetrics.required(analyzed, "rows_filtered")).as(analyzed).isZero();

        System.out.printf("%s: rows_read=%d filter_probes=%d%n", query, rowsRead, probes);
        if (timed) {
            Session withoutDynamicFiltering = Session.builder(session).setSystemProperty("enable_dynamic_filtering", "false").build();
            System.out.printf("%s: %d ms with dynamic filtering, %d ms without%n", query, millis(session, query), millis(withoutDynamicFiltering, query));
        }
    }

    @Test
    public void testSmallDynamicFilterTestedOnEveryRow()
    {
        // ten build keys (0, 4, ..., 36): few enough values to test exactly, which skips rows the join would drop
        String query = "SELECT count(*), sum(p.v) FROM tarn.j.probe p JOIN tarn.j.build b ON p.k = b.k WHERE b.k < 40";
        assertThat(runner.execute(session, query).getMaterializedRows())
                .containsExactly(new MaterializedRow(List.of(10L, 3L * (0 + 4 + 8 + 12 + 16 + 20 + 24 + 28 + 32 + 36))));
        String analyzed = (String) runner.execute(session, "EXPLAIN ANALYZE VERBOSE " + query).getOnlyValue();
        assertThat(ConnectorMetrics.required(analyzed, "dynamic_filter_columns_row_tested")).as(analyzed).isPositive();
        assertThat(ConnectorMetrics.required(analyzed, "dynamic_filter_columns_pruning_only")).as(analyzed).isZero();
        assertThat(ConnectorMetrics.required(analyzed, "rows_returned")).as(analyzed).isLessThan(PROBE_ROWS);
    }

    @Test
    public void testFilterThatArrivesAfterTheScanStarted()
    {
        // without the wait, probe splits open before the build side is done: the filter reaches
        // their readers late, and may only prune what is left; the answer stays the same
        Session noWait = Session.builder(session).setCatalogSessionProperty("tarn", TarnSessionProperties.DYNAMIC_FILTERING_WAIT_TIMEOUT, "0s").build();
        String query = "SELECT count(*), sum(p.v) FROM tarn.j.probe p JOIN tarn.j.build b ON p.k = b.k WHERE b.k < 40";
        for (int run = 0; run < 3; run++) {
            assertThat(runner.execute(noWait, query).getMaterializedRows())
                    .containsExactly(new MaterializedRow(List.of(10L, 3L * (0 + 4 + 8 + 12 + 16 + 20 + 24 + 28 + 32 + 36))));
        }
        String analyzed = (String) runner.execute(noWait, "EXPLAIN ANALYZE VERBOSE " + query).getOnlyValue();
        assertThat(ConnectorMetrics.required(analyzed, "dynamic_filter_late")).as(analyzed).isNotNegative();
        assertThat(ConnectorMetrics.required(analyzed, "dynamic_filter_late_arrived")).as(analyzed)
                .isLessThanOrEqualTo(ConnectorMetrics.required(analyzed, "dynamic_filter_late"));
    }

    @Test
    public void testFilterOfManyRanges()
    {
        // keys 200i .. 200i + 2 for i < 250: an OR Trino turns into one domain of 250 ranges (Trino fails to compile many more)
        String ranges = IntStream.range(0, RANGES)
                .mapToObj(i -> "k BETWEEN " + (200 * i) + " AND " + (200 * i + 2))
                .collect(Collectors.joining(" OR "));
        String query = "SELECT count(*), sum(v) FROM tarn.j.probe WHERE " + ranges;
        long expectedCount = 0;
        long expectedSum = 0;
        for (long k = 0; k < PROBE_ROWS; k++) {
            if (k < 200L * RANGES && k % 200 <= 2) {
                expectedCount++;
                expectedSum += 3 * k;
            }
        }
        assertThat(runner.execute(session, query).getMaterializedRows())
                .containsExactly(new MaterializedRow(List.of(expectedCount, expectedSum)));
        String analyzed = (String) runner.execute(session, "EXPLAIN ANALYZE VERBOSE " + query).getOnlyValue();
        long rowsRead = ConnectorMetrics.required(analyzed, "rows_read");
        long probes = ConnectorMetrics.required(analyzed, "filter_probes");
        assertThat(probes).as(analyzed).isGreaterThan(0);
        assertThat(probes).as(analyzed).isLessThanOrEqualTo(rowsRead * 2 * (log2(RANGES) + 2));
        System.out.printf("%s ... (%d ranges): %d ms, rows_read=%d filter_probes=%d%n", query.substring(0, 60), RANGES, millis(session, query), rowsRead, probes);
    }

    private long millis(Session querySession, String query)
    {
        // the first run warms up; the faster of two is the time (other builds share the machine)
        runner.execute(querySession, query);
        long fastest = Long.MAX_VALUE;
        for (int run = 0; run < 2; run++) {
            long start = System.nanoTime();
            runner.execute(querySession, query);
            fastest = Math.min(fastest, (System.nanoTime() - start) / 1_000_000);
        }
        return fastest;
    }

    private static long log2(int value)
    {
        return 31 - Integer.numberOfLeadingZeros(value);
    }
}
