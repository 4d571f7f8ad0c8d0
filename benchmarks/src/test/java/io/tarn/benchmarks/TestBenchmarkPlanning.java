package io.tarn.benchmarks;

import io.tarn.benchmarks.BenchmarkPlanning.Scenario;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs {@link BenchmarkPlanning}'s setup and one invocation of each benchmark on a small version of
 * the table, so none rots, and checks that Tarn and Paimon plan the same files in each scenario.
 */
public class TestBenchmarkPlanning
{
    private static final int PARTITIONS = 10;
    private static final int FILES_PER_PARTITION = 20;

    private BenchmarkPlanning benchmark;

    @BeforeClass
    public void setup()
            throws Exception
    {
        benchmark = new BenchmarkPlanning();
        benchmark.partitions = PARTITIONS;
        benchmark.filesPerPartition = FILES_PER_PARTITION;
        benchmark.warehouse = "";
        benchmark.setup();
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
            throws Exception
    {
        if (benchmark != null) {
            benchmark.tearDown();
        }
    }

    @Test
    public void testTarnAndPaimonPlanTheSameFiles()
    {
        for (Scenario scenario : Scenario.values()) {
            List<String> tarn = benchmark.tarnFileNames(scenario);
            assertThat(tarn).as("Tarn, %s", scenario).isEqualTo(benchmark.paimonFileNames(scenario, false));
            assertThat(tarn).as("Tarn, %s", scenario).isEqualTo(benchmark.paimonFileNames(scenario, true));
            assertThat(tarn).as("Tarn, %s", scenario).doesNotHaveDuplicates();
        }
    }

    @Test
    public void testEveryBenchmarkPlansTheExpectedFileCount()
    {
        // by construction: every file in the full plan, one partition's files, the one file whose id range holds the id
        int all = PARTITIONS * FILES_PER_PARTITION;
        assertThat(benchmark.tarnFullPlan()).isEqualTo(all);
        assertThat(benchmark.paimonFullPlan()).isEqualTo(all);
        assertThat(benchmark.paimonDefaultParallelismFullPlan()).isEqualTo(all);
        assertThat(benchmark.tarnPartitionFilter()).isEqualTo(FILES_PER_PARTITION);
        assertThat(benchmark.paimonPartitionFilter()).isEqualTo(FILES_PER_PARTITION);
        assertThat(benchmark.paimonDefaultParallelismPartitionFilter()).isEqualTo(FILES_PER_PARTITION);
        assertThat(benchmark.tarnValueStatsFilter()).isEqualTo(1);
        assertThat(benchmark.paimonValueStatsFilter()).isEqualTo(1);
        assertThat(benchmark.paimonDefaultParallelismValueStatsFilter()).isEqualTo(1);
    }

    @Test
    public void testInterleavedRunMeasuresEveryPlanner()
    {
        Interleaved run = Interleaved.measure(benchmark, Scenario.PARTITION);
        assertThat(run.tarnMedianMillis()).isPositive();
        assertThat(run.paimonMedianMillis()).isPositive();
        assertThat(run.paimonDefaultMedianMillis()).isPositive();
        assertThat(run.paimonRatio()).isPositive();
        assertThat(run.paimonDefaultRatio()).isPositive();
    }
}
