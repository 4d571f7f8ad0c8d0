package io.tarn.benchmarks;

import io.tarn.benchmarks.BenchmarkOrc.Engine;
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
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs {@link BenchmarkOrc}'s setup and one invocation of each benchmark method on a small version
 * of the ORC table, so none rots, and checks that the three readers return the same rows, counted
 * independently by DuckDB's ORC-free route: the same generator's rows written as Parquet.
 */
public class TestBenchmarkOrc
{
    private static final int ROWS = 20_000;

    private Path dataDirectory;
    private BenchmarkOrc benchmark;

    @BeforeClass
    public void setup()
            throws Exception
    {
        dataDirectory = Files.createTempDirectory("tarn-bench-orc");
        benchmark = new BenchmarkOrc();
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
    public void testTableIsOrcWithZstd()
    {
        assertThat(benchmark.dataFiles()).isNotEmpty().allSatisfy(file -> assertThat(file.getFileName().toString()).endsWith(".orc"));
        assertThat(benchmark.stripes()).isGreaterThanOrEqualTo(benchmark.dataFiles().size());
    }

    @Test
    public void testEveryBenchmarkMethodReturnsTheTableOrItsMatchingRows()
            throws Exception
    {
        long matching = matchingRowsOfTheSameRowsAsParquet();
        // about 1% of the rows; exactly the same number from every reader
        assertThat(matching).isBetween(ROWS / 200L, ROWS / 50L);
        assertThat(benchmark.expectedRows(Scenario.FILTER)).isEqualTo(matching);

        assertThat(List.of(benchmark.tarnAllColumns(), benchmark.paimonAllColumns(), benchmark.trinoAllColumns()))
                .extracting(ScanResult::rows)
                .containsOnly((long) ROWS);
        assertThat(List.of(benchmark.tarnTwoColumns(), benchmark.paimonTwoColumns(), benchmark.trinoTwoColumns()))
                .extracting(ScanResult::rows)
                .containsOnly((long) ROWS);
        assertThat(List.of(benchmark.tarnFilter(), benchmark.paimonFilter(), benchmark.trinoFilter()))
                .extracting(ScanResult::rows)
                .containsOnly(matching);
    }

    @Test
    public void testReadersSeeTheSameValues()
    {
        for (Scenario scenario : Scenario.values()) {
            ScanResult tarn = benchmark.scan(Engine.TARN, scenario);
            assertThat(benchmark.scan(Engine.PAIMON, scenario)).as("Paimon, %s", scenario).isEqualTo(tarn);
            assertThat(benchmark.scan(Engine.TRINO, scenario)).as("Trino, %s", scenario).isEqualTo(tarn);
        }
        for (int column = 0; column < ScanTableGenerator.COLUMNS.size(); column++) {
            ScanResult tarn = benchmark.scan(Engine.TARN, new int[] {column}, false);
            assertThat(benchmark.scan(Engine.PAIMON, new int[] {column}, false)).as("Paimon, column %s", column).isEqualTo(tarn);
            assertThat(benchmark.scan(Engine.TRINO, new int[] {column}, false)).as("Trino, column %s", column).isEqualTo(tarn);
        }
    }

    @Test
    public void testInterleavedRunTimesEveryReader()
    {
        OrcTimings timings = OrcTimings.measure(benchmark, Scenario.FILTER, 0, 1);
        for (Engine engine : Engine.values()) {
            assertThat(timings.medianSeconds(engine)).as("%s", engine).isPositive();
        }
        assertThat(OrcReport.svg(ROWS, Map.of(Scenario.FILTER, timings, Scenario.ALL_COLUMNS, timings, Scenario.TWO_COLUMNS, timings)))
                .startsWith("<svg")
                .contains(Engine.TRINO.label());
    }

    private long matchingRowsOfTheSameRowsAsParquet()
            throws Exception
    {
        // an independent count of the expected rows: the generator's rows written by Paimon as Parquet, counted by DuckDB
        Path parquet = dataDirectory.resolve("parquet");
        Files.createDirectories(parquet);
        ScanTableGenerator.generate(parquet, ROWS);
        String files;
        try (Stream<Path> paths = Files.walk(parquet)) {
            files = String.join(", ", paths.filter(path -> path.toString().endsWith(".parquet")).map(path -> "'" + path + "'").toList());
        }
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:");
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT count(*) FILTER (WHERE shipdate < DATE '" + BenchmarkScan.filterDate() + "'), count(*) FROM read_parquet([" + files + "])")) {
            assertThat(result.next()).isTrue();
            assertThat(result.getLong(2)).isEqualTo(ROWS);
            return result.getLong(1);
        }
    }
}
