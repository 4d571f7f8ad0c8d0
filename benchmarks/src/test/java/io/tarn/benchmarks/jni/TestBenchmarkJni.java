package io.tarn.benchmarks.jni;

import io.tarn.benchmarks.ScanTableGenerator;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the JNI benchmark once on a small table, so that it does not rot: the C program and the
 * JVM must agree on rows and checksums, and DuckDB's answers over Tarn and over the Parquet files
 * must agree, or the run fails.
 */
public class TestBenchmarkJni
{
    private static final int ROWS = 20_000;

    private Path directory;

    @BeforeClass
    public void createDirectory()
            throws Exception
    {
        directory = Files.createTempDirectory("tarn-bench-jni");
    }

    @AfterClass(alwaysRun = true)
    public void deleteDirectory()
            throws Exception
    {
        if (directory != null) {
            try (Stream<Path> files = Files.walk(directory)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(file);
                }
            }
        }
    }

    @Test
    public void testOneRoundOnASmallTable()
            throws Exception
    {
        Path results = directory.resolve("results");
        BenchmarkJni.run(results, ROWS, directory.resolve("data"), Path.of(System.getProperty("tarn.bench.jni.target", "../jni-bridge/target")), 0, 1);
        String report = Files.readString(results.resolve("jni.md"));
        assertThat(report).contains("C / JVM = ", "Tarn stream / read_parquet time = ", ScanTableGenerator.tableName());
    }
}
