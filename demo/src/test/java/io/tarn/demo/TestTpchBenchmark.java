package io.tarn.demo;

import org.testng.annotations.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

public class TestTpchBenchmark
{
    @Test
    public void testQueriesAreTheTwentyTwoWithQ11ScaledToTheData()
            throws Exception
    {
        List<String> atScaleOne = TpchBenchmark.queries(1);
        assertThat(atScaleOne).hasSize(22);
        assertThat(atScaleOne).allSatisfy(query -> assertThat(query).containsIgnoringCase("SELECT").doesNotContain("${").doesNotEndWith(";"));
        assertThat(atScaleOne.get(0)).contains("l_returnflag", "INTERVAL '90' DAY");
        assertThat(atScaleOne.get(14)).startsWith("WITH revenue0 AS");
        assertThat(atScaleOne.get(10)).contains("* 0.0001000000");
        assertThat(TpchBenchmark.queries(0.01).get(10)).contains("* 0.0100000000");
    }

    @Test
    public void testScaleFactorsOfTheGeneratorsSchemas()
    {
        assertThat(TpchBenchmark.scaleFactor("tiny")).isEqualTo(0.01);
        assertThat(TpchBenchmark.scaleFactor("sf1")).isEqualTo(1.0);
        assertThat(TpchBenchmark.scaleFactor("sf0.1")).isEqualTo(0.1);
        assertThatThrownBy(() -> TpchBenchmark.scaleFactor("sf0")).hasMessageContaining("sf0");
        assertThatThrownBy(() -> TpchBenchmark.scaleFactor("huge")).hasMessageContaining("huge");
    }

    @Test
    public void testResultsFileAndGeometricMean()
    {
        Path trino = Path.of("/repo/benchmarks/results/trino.md");
        assertThat(TpchBenchmark.resultsFile(trino, "sf1")).isEqualTo(Path.of("/repo/benchmarks/results/tpch.md"));
        assertThat(TpchBenchmark.resultsFile(trino, "tiny")).isEqualTo(Path.of("/repo/benchmarks/results/tpch-tiny.md"));
        assertThat(TpchBenchmark.geometricMean(List.of(2.0, 8.0))).isCloseTo(4.0, within(1e-12));
    }
}
