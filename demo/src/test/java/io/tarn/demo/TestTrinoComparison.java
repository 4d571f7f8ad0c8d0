package io.tarn.demo;

import org.testng.annotations.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

public class TestTrinoComparison
{
    @Test
    public void testResultsFileNamesItsScale()
    {
        Path results = Path.of("/repo/benchmarks/results/trino.md");
        assertThat(TrinoComparison.resultsFile(results, 1_500_000)).isEqualTo(results);
        assertThat(TrinoComparison.resultsFile(results, 6_000_000)).isEqualTo(Path.of("/repo/benchmarks/results/trino-6000000.md"));
        assertThat(TrinoComparison.resultsFile(Path.of("/tmp/out"), 20)).isEqualTo(Path.of("/tmp/out-20"));
    }
}
