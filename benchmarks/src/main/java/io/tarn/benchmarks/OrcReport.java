package io.tarn.benchmarks;

import io.tarn.benchmarks.BenchmarkOrc.Engine;
import io.tarn.benchmarks.BenchmarkScan.ScanResult;
import io.tarn.benchmarks.BenchmarkScan.Scenario;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static io.tarn.benchmarks.Medians.median;

/**
 * Runs the ORC benchmark ({@link BenchmarkOrc}) on the cached ORC table and writes {@code orc.md}
 * (rows per second, seconds, ratios, targets, a per-column breakdown, machine) and {@code orc.svg}
 * (grouped bars of rows per second).
 */
final class OrcReport
{
    private static final double PAIMON_TARGET = 2.0;
    private static final double TRINO_TARGET = 1.0;

    private OrcReport() {}

    static void run(Path results, long rows, Path dataDirectory, int warmupRounds, int rounds, int columnRounds)
            throws Exception
    {
        String loadBefore = MachineInfo.loadAverage();
        BenchmarkOrc state = new BenchmarkOrc();
        state.rows = rows;
        state.dataDirectory = dataDirectory.toAbsolutePath().toString();
        long setupStart = System.nanoTime();
        state.setup();
        double setupSeconds = (System.nanoTime() - setupStart) / 1e9;
        try {
            Map<Scenario, OrcTimings> timings = new EnumMap<>(Scenario.class);
            for (Scenario scenario : Scenario.values()) {
                OrcTimings timing = OrcTimings.measure(state, scenario, warmupRounds, rounds);
                timings.put(scenario, timing);
                System.out.printf(Locale.ROOT, "%s: %s%n", scenario, summary(timing, rows));
            }
            double[][] columnSeconds = columnRounds > 0 ? columnSeconds(state, columnRounds) : null;
            String loadAfter = MachineInfo.loadAverage();
            String report = markdown(state, rows, setupSeconds, warmupRounds, rounds, columnRounds, timings, columnSeconds, loadBefore, loadAfter);
            Files.createDirectories(results);
            Files.writeString(results.resolve("orc.md"), report);
            Files.writeString(results.resolve("orc.svg"), svg(rows, timings));
            System.out.println(report);
            System.out.println("Wrote " + results.resolve("orc.md") + " and " + results.resolve("orc.svg"));
        }
        finally {
            state.tearDown();
        }
    }

    private static String summary(OrcTimings timing, long rows)
    {
        StringBuilder out = new StringBuilder();
        for (Engine engine : Engine.values()) {
            out.append(String.format(Locale.ROOT, "%s %.2f s (%.1f M rows/s); ", engine.label(), timing.medianSeconds(engine), rows / timing.medianSeconds(engine) / 1e6));
        }
        return out.toString();
    }

    /**
     * Median seconds to read each single column with each reader ({@code [column][engine]}), the
     * readers interleaved as in the main rounds after one warm-up round: where each reader's time goes.
     */
    private static double[][] columnSeconds(BenchmarkOrc state, int columnRounds)
    {
        Engine[] engines = Engine.values();
        int columns = ScanTableGenerator.COLUMNS.size();
        double[][] medians = new double[columns][engines.length];
        for (int column = 0; column < columns; column++) {
            double[][] seconds = new double[engines.length][columnRounds];
            long expected = -1;
            for (int round = -1; round < columnRounds; round++) {
                for (int turn = 0; turn < engines.length; turn++) {
                    int engine = Math.floorMod(round + turn, engines.length);
                    long start = System.nanoTime();
                    ScanResult result = state.scan(engines[engine], new int[] {column}, false);
                    long elapsed = System.nanoTime() - start;
                    if (expected < 0) {
                        expected = result.checksum();
                    }
                    else if (result.checksum() != expected || result.rows() != state.rows) {
                        throw new IllegalStateException(String.format("%s read column %s differently: %d rows, checksum %d (expected %d)",
                                engines[engine].label(), ScanTableGenerator.COLUMNS.get(column), result.rows(), result.checksum(), expected));
                    }
                    if (round >= 0) {
                        seconds[engine][round] = elapsed / 1e9;
                    }
                }
            }
            for (int engine = 0; engine < engines.length; engine++) {
                medians[column][engine] = median(seconds[engine]);
            }
            System.out.printf(Locale.ROOT, "column %s: Tarn %.3f s, Paimon %.3f s, Trino %.3f s%n",
                    ScanTableGenerator.COLUMNS.get(column), medians[column][0], medians[column][1], medians[column][2]);
        }
        return medians;
    }

    static String markdown(
            BenchmarkOrc state,
            long rows,
            double setupSeconds,
            int warmupRounds,
            int rounds,
            int columnRounds,
            Map<Scenario, OrcTimings> timings,
            double[][] columnSeconds,
            String loadBefore,
            String loadAfter)
    {
        int cores = Runtime.getRuntime().availableProcessors();
        Engine[] engines = Engine.values();
        StringBuilder out = new StringBuilder();
        out.append("# ORC benchmark: Tarn vs ").append(Engine.PAIMON.label()).append(" and ").append(Engine.TRINO.label()).append(", one thread each\n\n");
        out.append("Run: ").append(Instant.now().truncatedTo(ChronoUnit.SECONDS)).append("\n\n");
        out.append(String.format(Locale.ROOT,
                "Table: append table `%s`, %,d rows of the scan benchmark's 16 lineitem-like columns (BIGINT ×2, INT ×2, DECIMAL(15,2) ×4, DATE ×3, STRING ×5 "
                        + "of which `comment` holds 10–40 characters; about 2%% NULLs in `suppkey`, `discount`, `commitdate`, `shipmode`, `comment`; the same rows as `scan.md`), "
                        + "written by Apache Paimon %s's own writer with `file.format=orc`, `file.compression=zstd` (checked in every file's postscript) and otherwise its defaults, "
                        + "in 4 commits: %d ORC data files, %d stripes, %.1f MiB. "
                        + "The table is generated once from a fixed seed and cached (`%s`); set-up of this run took %.1f s.%n%n",
                ScanTableGenerator.tableName(), rows, BenchmarkOrc.paimonVersion(), state.dataFiles().size(), state.stripes(), state.dataBytes() / (1024.0 * 1024.0), state.warehouse(), setupSeconds));
        out.append("Readers, all on one thread in one JVM, on the same files:\n\n");
        out.append("- **Tarn**: `ScanPlanner` plan, then `TableRead.forEachBatch` (a `SplitReader` per split, which opens Tarn's own ORC reader, "
                + "`io.tarn.vector.orc.OrcReader`, for each `.orc` file), Arrow batches; its filter prunes stripes and row groups by statistics and is evaluated inside the reader: "
                + "it reads `shipdate` first, then the 16 columns of the matching rows only, as a row selection (late materialization).\n");
        out.append("- **").append(Engine.PAIMON.label()).append("**: `ReadBuilder.withProjection(..)[.withFilter(..)]`, `newRead().createReader(splits)`, iterating `InternalRow`s; "
                + "Paimon's ORC read uses the filter only to skip stripes and row groups (ORC search arguments), so the benchmark applies `predicate.test(row)` to each row it returns.\n");
        out.append("- **").append(Engine.TRINO.label()).append("** (`io.trino:trino-orc:").append(BenchmarkOrc.trinoVersion()).append("`): `OrcReader.createOrcReader` and "
                + "`createRecordReader(..)` over each data file (a `FileOrcDataSource`, default `OrcReaderOptions`, columns matched by name), `nextPage()` until the end; "
                + "for the filter a `TupleDomainOrcPredicate` with the domain `shipdate < date` (stripe and row-group pruning), then the benchmark loads the `shipdate` block, "
                + "selects positions, and loads the other (lazy) blocks only for pages with a selected row.\n\n");
        out.append("Every reader touches every value it returns (it folds each number, or each string's byte length, into a checksum; "
                + "every scan's checksum must equal the other readers' and its row count the expected one: the table's rows, or for the filter the rows "
                + "whose `shipdate`, read by Paimon without any filter, is before the filter date). "
                + "`shipdate` is uniform over 2,526 days and not correlated with the write order, so no stripe or row group can be skipped by the filter: "
                + "every reader decodes `shipdate` in full. Throughput is **table rows scanned per second** (table rows / median time), also for the filter.\n\n");
        out.append(String.format(Locale.ROOT,
                "Timing: each round runs the three readers once on a query, rotating who goes first; %d warm-up round(s), then the median of %d rounds. "
                        + "Ratios are medians of per-round time ratios (other / Tarn; above 1 means Tarn is faster).%n%n",
                warmupRounds, rounds));
        out.append("## Rows per second (millions, median)\n\n");
        out.append("| Query | Rows returned |");
        for (Engine engine : engines) {
            out.append(' ').append(engine.label()).append(" |");
        }
        out.append(" Tarn / Paimon | Tarn / Trino |\n");
        out.append("|---|---:|---:|---:|---:|---:|---:|\n");
        for (Scenario scenario : Scenario.values()) {
            OrcTimings timing = timings.get(scenario);
            out.append("| ").append(BenchmarkOrc.describe(scenario)).append(" | ");
            out.append(String.format(Locale.ROOT, "%,d", timing.rowsReturned()));
            if (scenario == Scenario.FILTER) {
                out.append(String.format(Locale.ROOT, " (%.2f%%)", 100.0 * timing.rowsReturned() / rows));
            }
            out.append(" |");
            for (Engine engine : engines) {
                out.append(String.format(Locale.ROOT, " %.2f |", rows / timing.medianSeconds(engine) / 1e6));
            }
            out.append(String.format(Locale.ROOT, " %.2f× | %.2f× |%n", timing.tarnSpeedup(Engine.PAIMON), timing.tarnSpeedup(Engine.TRINO)));
        }
        out.append("\n## Median time per scan (s)\n\n");
        out.append("| Query |");
        for (Engine engine : engines) {
            out.append(' ').append(engine.label()).append(" |");
        }
        out.append("\n|---|---:|---:|---:|\n");
        for (Scenario scenario : Scenario.values()) {
            OrcTimings timing = timings.get(scenario);
            out.append("| ").append(BenchmarkOrc.describe(scenario)).append(" |");
            for (Engine engine : engines) {
                out.append(String.format(Locale.ROOT, " %.3f |", timing.medianSeconds(engine)));
            }
            out.append('\n');
        }
        out.append("\n## Targets (each query)\n\n");
        for (Scenario scenario : Scenario.values()) {
            OrcTimings timing = timings.get(scenario);
            out.append(target("Tarn ≥ 2× Paimon's ORC reader, " + BenchmarkOrc.describe(scenario), timing.tarnSpeedup(Engine.PAIMON), PAIMON_TARGET));
            out.append(target("Tarn ≥ 1.0× Trino's ORC reader, " + BenchmarkOrc.describe(scenario), timing.tarnSpeedup(Engine.TRINO), TRINO_TARGET));
        }
        out.append("\nWhere a target is missed, `orc-profile.md` beside this file says where Tarn's time goes (JFR) and why; "
                + "the per-column breakdown below shows it by column type.\n");
        out.append("\n![rows per second](orc.svg)\n");
        if (columnSeconds != null) {
            out.append(String.format(Locale.ROOT,
                    "%n## Where the time goes: one column at a time (median s per scan of that column alone, %d rounds after 1 warm-up round, readers interleaved)%n%n",
                    columnRounds));
            out.append("| Column | Type |");
            for (Engine engine : engines) {
                out.append(' ').append(engine.label()).append(" |");
            }
            out.append(" Paimon / Tarn | Trino / Tarn |\n");
            out.append("|---|---|---:|---:|---:|---:|---:|\n");
            double[] totals = new double[engines.length];
            for (int column = 0; column < columnSeconds.length; column++) {
                out.append("| `").append(ScanTableGenerator.COLUMNS.get(column)).append("` | ").append(typeName(column)).append(" |");
                for (int engine = 0; engine < engines.length; engine++) {
                    out.append(String.format(Locale.ROOT, " %.3f |", columnSeconds[column][engine]));
                    totals[engine] += columnSeconds[column][engine];
                }
                out.append(String.format(Locale.ROOT, " %.2f× | %.2f× |%n", columnSeconds[column][1] / columnSeconds[column][0], columnSeconds[column][2] / columnSeconds[column][0]));
            }
            out.append("| sum of the 16 | |");
            for (int engine = 0; engine < engines.length; engine++) {
                out.append(String.format(Locale.ROOT, " %.3f |", totals[engine]));
            }
            out.append(String.format(Locale.ROOT, " %.2f× | %.2f× |%n", totals[1] / totals[0], totals[2] / totals[0]));
            out.append("\nBy type (sum of the columns' medians, s):\n\n");
            out.append("| Type | Columns |");
            for (Engine engine : engines) {
                out.append(' ').append(engine.label()).append(" |");
            }
            out.append(" Paimon / Tarn | Trino / Tarn |\n");
            out.append("|---|---:|---:|---:|---:|---:|---:|\n");
            for (String type : List.of("BIGINT", "INT", "DECIMAL(15,2)", "DATE", "STRING")) {
                double[] sums = new double[engines.length];
                int count = 0;
                for (int column = 0; column < columnSeconds.length; column++) {
                    if (typeName(column).equals(type)) {
                        count++;
                        for (int engine = 0; engine < engines.length; engine++) {
                            sums[engine] += columnSeconds[column][engine];
                        }
                    }
                }
                out.append("| ").append(type).append(" | ").append(count).append(" |");
                for (int engine = 0; engine < engines.length; engine++) {
                    out.append(String.format(Locale.ROOT, " %.3f |", sums[engine]));
                }
                out.append(String.format(Locale.ROOT, " %.2f× | %.2f× |%n", sums[1] / sums[0], sums[2] / sums[0]));
            }
        }
        out.append("\n## Machine\n\n");
        out.append(String.format(Locale.ROOT, "- CPU: %s, %d cores visible to the JVM%n", MachineInfo.cpuModel(), cores));
        out.append("- Memory: ").append(MachineInfo.memory()).append('\n');
        out.append("- JDK: ").append(System.getProperty("java.vm.name")).append(' ').append(System.getProperty("java.runtime.version"))
                .append(", -Xmx4g, default GC\n");
        out.append("- Load average (1/5/15 min; shared machine): before ").append(loadBefore)
                .append(", after ").append(loadAfter).append('\n');
        out.append("- OS: ").append(System.getProperty("os.name")).append(' ').append(System.getProperty("os.version")).append('\n');
        out.append("- Data files on local disk, read through the OS page cache (warm after the warm-up round)\n");
        out.append("\n## Reproduce\n\n");
        out.append("```\n./tarn bench orc\n```\n\n");
        out.append("or, without installing into ~/.m2 (generates the ORC table into `benchmarks/target/orc-data` on first use):\n\n");
        out.append("```\nmvn -B -q -pl benchmarks -am -DskipTests -Dtarn.bench.run -Dtarn.bench=orc test-compile\n```\n\n");
        out.append("System properties (`-D` on either command line): `tarn.bench.orc.rows` (default 10000000), `tarn.bench.orc.data` (cache directory), "
                + "`tarn.bench.orc.warmup` / `tarn.bench.orc.rounds` (default 2 / 5), `tarn.bench.orc.column.rounds` (rounds of the per-column breakdown, default 3; 0 skips it). "
                + "As JMH (one fork, every reader and query):\n\n");
        out.append("```\njava -cp <benchmarks test class path> org.openjdk.jmh.Main 'io.tarn.benchmarks.BenchmarkOrc' -p rows=10000000 -p dataDirectory=$PWD/benchmarks/target/orc-data\n```\n");
        return out.toString();
    }

    private static String typeName(int column)
    {
        return switch (BenchmarkScan.KINDS.get(column)) {
            case LONG -> "BIGINT";
            case INT -> "INT";
            case DATE -> "DATE";
            case SHORT_DECIMAL -> "DECIMAL(15,2)";
            case STRING -> "STRING";
        };
    }

    private static String target(String name, double ratio, double target)
    {
        if (ratio >= target) {
            return String.format(Locale.ROOT, "- %s: **met** (%.2f×)%n", name, ratio);
        }
        return String.format(Locale.ROOT, "- %s: **not met** (%.2f×, %.0f%% short of %.1f×)%n", name, ratio, 100 * (1 - ratio / target), target);
    }

    static String svg(long rows, Map<Scenario, OrcTimings> timings)
    {
        Engine[] engines = Engine.values();
        Scenario[] scenarios = Scenario.values();
        List<String> groups = new ArrayList<>();
        for (Scenario scenario : scenarios) {
            groups.add(switch (scenario) {
                case ALL_COLUMNS -> "all 16 columns";
                case TWO_COLUMNS -> "2 of 16 columns";
                case FILTER -> String.format(Locale.ROOT, "filter, %.2f%% of rows", 100.0 * timings.get(scenario).rowsReturned() / rows);
            });
        }
        List<String> series = new ArrayList<>();
        double[][] values = new double[engines.length][scenarios.length];
        for (int e = 0; e < engines.length; e++) {
            series.add(engines[e].label());
            for (int s = 0; s < scenarios.length; s++) {
                values[e][s] = rows / timings.get(scenarios[s]).medianSeconds(engines[e]) / 1e6;
            }
        }
        return BarChart.svg(
                String.format(Locale.ROOT, "Single-thread scan of %,d Paimon-written ORC rows: million rows per second (higher is better)", rows),
                "M rows/s",
                groups,
                series,
                values);
    }
}
