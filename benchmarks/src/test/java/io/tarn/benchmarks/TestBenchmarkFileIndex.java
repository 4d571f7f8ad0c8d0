package io.tarn.benchmarks;

import io.tarn.storage.metrics.Counter;
import io.tarn.benchmarks.BenchmarkFileIndex.IndexPlacement;
import io.tarn.benchmarks.BenchmarkFileIndex.Query;
import io.tarn.benchmarks.BenchmarkFileIndex.QueryResult;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs {@link BenchmarkFileIndex}'s setup (generation by Paimon, indexes built by Paimon's writer)
 * and one invocation of each benchmark method on a small table, so none rots, and checks that Tarn
 * and Paimon's reader return the same rows and that Tarn's indexes did the skipping.
 */
public class TestBenchmarkFileIndex
{
    private static final int ROWS = 20_000;

    private Path dataDirectory;
    private BenchmarkFileIndex benchmark;

    @BeforeClass
    public void setup()
            throws Exception
    {
        dataDirectory = Files.createTempDirectory("tarn-bench-file-index");
        benchmark = new BenchmarkFileIndex();
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
        QueryResult full = benchmark.tarnFullScan();
        assertThat(full).isEqualTo(benchmark.paimonFullScan());
        assertThat(full.rows()).isEqualTo(ROWS);

        QueryResult lookup = benchmark.tarnPointLookup();
        assertThat(lookup).isEqualTo(benchmark.paimonPointLookup());
        assertThat(lookup.rows()).isEqualTo(1);

        QueryResult bitmap = benchmark.tarnBitmapEquality();
        // the bitmap index gave the rows, and they are the matching ones
        assertThat(benchmark.lastTarnReadMetrics().get(Counter.ROWS_SELECTED_BY_INDEX)).isEqualTo(bitmap.rows());
        assertThat(bitmap).isEqualTo(benchmark.paimonBitmapEquality());
        // one category of 50: about 2% of the rows
        assertThat(bitmap.rows()).isBetween(ROWS / 100L, ROWS / 25L);

        assertThat(benchmark.lastTarnPlanNanos()).isPositive();
        assertThat(benchmark.tarnIndexEvaluationNanos(Query.POINT_LOOKUP)).isPositive();

        IndexPlacement placement = benchmark.indexPlacement();
        assertThat(placement.files()).isPositive();
        assertThat(placement.embedded() + placement.indexFiles()).isEqualTo(placement.files());
    }
}
