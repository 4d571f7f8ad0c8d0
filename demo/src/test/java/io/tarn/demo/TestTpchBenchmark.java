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
    public void testArguments()
    {
        TpchBenchmark.Arguments defaults = TpchBenchmark.Arguments.parse();
        assertThat(defaults.schema()).isEqualTo("sf1");
        assertThat(defaults.runs()).isEqualTo(5);
        assertThat(defaults.queries()).hasSize(22).startsWith(1, 2).endsWith(22);
        assertThat(defaults.warmupRounds()).isEqualTo(3);
        assertThat(defaults.subset()).isFalse();
        assertThat(defaults.dynamicFilteringWait()).isEmpty();

        TpchBenchmark.Arguments noWait = TpchBenchmark.Arguments.parse("--dynamic-filtering-wait", "0s");
        assertThat(noWait.dynamicFilteringWait()).contains("0s");
        assertThat(noWait.subset()).as("never replaces the full report").isTrue();
        assertThatThrownBy(() -> TpchBenchmark.Arguments.parse("--dynamic-filtering-wait", "soon")).hasMessageContaining("needs a duration");

        TpchBenchmark.Arguments some = TpchBenchmark.Arguments.parse("tiny", "--queries", "6,3,1,3", "2", "--warmup", "0");
        assertThat(some.schema()).isEqualTo("tiny");
        assertThat(some.runs()).isEqualTo(2);
        assertThat(some.queries()).containsExactly(1, 3, 6);
        assertThat(some.warmupRounds()).isZero();
        assertThat(some.subset()).isTrue();

        assertThatThrownBy(() -> TpchBenchmark.Arguments.parse("--queries", "23")).hasMessageContaining("not 23");
        assertThatThrownBy(() -> TpchBenchmark.Arguments.parse("--queries")).hasMessageContaining("--queries needs");
        assertThatThrownBy(() -> TpchBenchmark.Arguments.parse("sf1", "x")).hasMessageContaining("RUNS needs a whole number: x");
        assertThatThrownBy(() -> TpchBenchmark.Arguments.parse("sf1", "0")).hasMessageContaining("at least 1");
        assertThatThrownBy(() -> TpchBenchmark.Arguments.parse("sf1", "1", "2")).hasMessageContaining("Usage");
    }

    @Test
    public void testResultsFileAndGeometricMean()
    {
        Path trino = Path.of("/repo/benchmarks/results/trino.md");
        assertThat(TpchBenchmark.resultsFile(trino, "sf1", false)).isEqualTo(Path.of("/repo/benchmarks/results/tpch.md"));
        assertThat(TpchBenchmark.resultsFile(trino, "tiny", false)).isEqualTo(Path.of("/repo/benchmarks/results/tpch-tiny.md"));
        // a run of some queries never replaces the full report
        assertThat(TpchBenchmark.resultsFile(trino, "sf1", true)).isEqualTo(Path.of("/repo/benchmarks/results/tpch-subset.md"));
        assertThat(TpchBenchmark.geometricMean(List.of(2.0, 8.0))).isCloseTo(4.0, within(1e-12));
    }
}
