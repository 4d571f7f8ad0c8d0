package io.tarn.benchmarks;

import io.tarn.benchmarks.BenchmarkZOrder.Query;
import io.tarn.benchmarks.BenchmarkZOrder.QueryResult;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs {@link BenchmarkZOrder}'s setup (generation by Paimon, sort-compact by Tarn) and one
 * invocation of each benchmark method on a small table, so none rots, and checks that Tarn and
 * Paimon's reader return the same rows.
 */
public class TestBenchmarkZOrder
{
    private static final int ROWS = 20_000;

    private Path dataDirectory;
    private BenchmarkZOrder benchmark;

    @BeforeClass
    public void setup()
            throws Exception
    {
        dataDirectory = Files.createTempDirectory("tarn-bench-zorder");
        benchmark = new BenchmarkZOrder();
        benchmark.rows = ROWS;
        benchmark.dataDirectory = dataDirectory.toString();
        benchmark.setup();
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
            throws Exception
    {
        if (benchmark != null) {
            benchmark.tearDown();
        }
        if (dataDirectory != null) {
            BenchmarkScan.deleteRecursively(dataDirectory);
        }
    }

    @Test
    public void testEveryBenchmarkMethodAgreesWithPaimon()
            throws Exception
    {
        assertThat(benchmark.tarnFullScan()).isEqualTo(benchmark.paimonFullScan());
        assertThat(benchmark.tarnFullScan().rows()).isEqualTo(ROWS);
        QueryResult range = benchmark.tarnZOrderRange();
        assertThat(range).isEqualTo(benchmark.paimonZOrderRange());
        // about 1% of the rows
        assertThat(range.rows()).isBetween(ROWS / 200L, ROWS / 50L);
        int[] files = benchmark.tarnFiles(Query.ZORDER_RANGE);
        assertThat(files[0]).isBetween(1, files[1]);
        assertThat(benchmark.sortCompactionSummary()).contains(" written");
    }
}
