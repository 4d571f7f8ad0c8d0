package io.tarn.benchmarks;

import io.tarn.benchmarks.BenchmarkScan.Engine;
import io.tarn.benchmarks.BenchmarkScan.ScanResult;
import io.tarn.benchmarks.BenchmarkScan.Scenario;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs {@link BenchmarkScan}'s setup and one invocation of each benchmark method on a small version
 * of the table, so none rots, and checks that the four readers return the same rows.
 */
public class TestBenchmarkScan
{
    private static final int ROWS = 20_000;

    private Path dataDirectory;
    private BenchmarkScan benchmark;

    @BeforeClass
    public void setup()
            throws Exception
    {
        dataDirectory = Files.createTempDirectory("tarn-bench-scan");
        benchmark = new BenchmarkScan();
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
    public void testEveryBenchmarkMethodReturnsTheTableOrItsMatchingRows()
            throws Exception
    {
        long matching = matchingRowsByDuckdbOwnCount();
        // about 1% of the rows; exactly the same number from every reader
        assertThat(matching).isBetween(ROWS / 200L, ROWS / 50L);

        assertThat(List.of(
                benchmark.tarnAllColumns(),
                benchmark.paimonAllColumns(),
                benchmark.trinoAllColumns(),
                benchmark.duckdbAllColumns()))
                .extracting(ScanResult::rows)
                .containsOnly((long) ROWS);
        assertThat(List.of(
                benchmark.tarnTwoColumns(),
                benchmark.paimonTwoColumns(),
                benchmark.trinoTwoColumns(),
                benchmark.duckdbTwoColumns()))
                .extracting(ScanResult::rows)
                .containsOnly((long) ROWS);
        assertThat(List.of(
                benchmark.tarnFilter(),
                benchmark.paimonFilter(),
                benchmark.trinoFilter(),
                benchmark.duckdbFilter()))
                .extracting(ScanResult::rows)
                .containsOnly(matching);
    }

    @Test
    public void testJvmReadersSeeTheSameValues()
    {
        // Tarn, Paimon and Trino fold the same values into the same checksum
        for (Scenario scenario : Scenario.values()) {
            ScanResult tarn = benchmark.scan(Engine.TARN, scenario);
            assertThat(benchmark.scan(Engine.PAIMON, scenario)).as("Paimon, %s", scenario).isEqualTo(tarn);
            assertThat(benchmark.scan(Engine.TRINO, scenario)).as("Trino, %s", scenario).isEqualTo(tarn);
        }
    }

    @Test
    public void testInterleavedRunTimesEveryEngine()
    {
        ScanTimings timings = ScanTimings.measure(benchmark, Scenario.TWO_COLUMNS, 0, 1);
        for (Engine engine : Engine.values()) {
            assertThat(timings.medianSeconds(engine)).as("%s", engine).isPositive();
        }
    }

    private long matchingRowsByDuckdbOwnCount()
            throws Exception
    {
        // an independent count of the expected rows, straight over the data files
        String files = String.join(", ", benchmark.dataFiles().stream().map(path -> "'" + path + "'").toList());
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:");
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT count(*) FILTER (WHERE shipdate < DATE '" + BenchmarkScan.filterDate() + "'), count(*) FROM read_parquet([" + files + "])")) {
            assertThat(result.next()).isTrue();
            assertThat(result.getLong(2)).isEqualTo(ROWS);
            return result.getLong(1);
        }
    }
}
