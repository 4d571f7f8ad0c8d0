package io.tarn.benchmarks;

import io.tarn.benchmarks.BenchmarkScan.Engine;
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

/**
 * Runs the scan benchmark on the cached table and writes {@code scan.md} (rows per second, ratios,
 * targets, machine) and {@code scan.svg} (grouped bars of rows per second).
 */
final class ScanReport
{
    private static final double PAIMON_TARGET = 5.0;
    private static final double TRINO_TARGET = 1.0;
    private static final double DUCKDB_TARGET = 0.5;

    private ScanReport() {}

    static void run(Path results, long rows, Path dataDirectory, int warmupRounds, int rounds)
            throws Exception
    {
        String loadBefore = MachineInfo.loadAverage();
        BenchmarkScan state = new BenchmarkScan();
        state.rows = rows;
        state.dataDirectory = dataDirectory.toAbsolutePath().toString();
        long setupStart = System.nanoTime();
        state.setup();
        double setupSeconds = (System.nanoTime() - setupStart) / 1e9;
        try {
            Map<Scenario, ScanTimings> timings = new EnumMap<>(Scenario.class);
            for (Scenario scenario : Scenario.values()) {
                ScanTimings timing = ScanTimings.measure(state, scenario, warmupRounds, rounds);
                timings.put(scenario, timing);
                System.out.printf(Locale.ROOT, "%s: %s%n", scenario, summary(timing, rows));
            }
            String report = markdown(state, rows, setupSeconds, warmupRounds, rounds, timings, loadBefore);
            Files.createDirectories(results);
            Files.writeString(results.resolve("scan.md"), report);
            Files.writeString(results.resolve("scan.svg"), svg(rows, timings));
            System.out.println(report);
            System.out.println("Wrote " + results.resolve("scan.md") + " and " + results.resolve("scan.svg"));
        }
        finally {
            state.tearDown();
        }
    }

    private static String summary(ScanTimings timing, long rows)
    {
        StringBuilder out = new StringBuilder();
        for (Engine engine : Engine.values()) {
            out.append(String.format(Locale.ROOT, "%s %.2f s (%.1f M rows/s); ", engine.label(), timing.medianSeconds(engine), rows / timing.medianSeconds(engine) / 1e6));
        }
        return out.toString();
    }

    static String markdown(BenchmarkScan state, long rows, double setupSeconds, int warmupRounds, int rounds, Map<Scenario, ScanTimings> timings, String loadBefore)
    {
        int cores = Runtime.getRuntime().availableProcessors();
        StringBuilder out = new StringBuilder();
        out.append("# Scan benchmark: Tarn vs Apache Paimon 1.3.1, Trino 483's Parquet reader and DuckDB, one thread each\n\n");
        out.append("Run: ").append(Instant.now().truncatedTo(ChronoUnit.SECONDS)).append("\n\n");
        out.append(String.format(Locale.ROOT,
                "Table: append table `%s`, %,d rows of 16 lineitem-like columns (BIGINT ×2, INT ×2, DECIMAL(15,2) ×4, DATE ×3, STRING ×5 "
                        + "of which `comment` holds 10–40 characters; about 2%% NULLs in `suppkey`, `discount`, `commitdate`, `shipmode`, `comment`), "
                        + "written by Apache Paimon 1.3.1's own writer with its defaults (Parquet, ZSTD) in 4 commits: %d data files, %.1f MiB. "
                        + "The table is generated once from a fixed seed and cached (`%s`); set-up of this run took %.1f s.%n%n",
                ScanTableGenerator.tableName(), rows, state.dataFiles().size(), state.dataBytes() / (1024.0 * 1024.0), state.warehouse(), setupSeconds));
        out.append("Readers, all on one thread in one JVM (DuckDB in-process through JDBC):\n\n");
        out.append("- **Tarn**: plan + `SplitReader` per split, Arrow batches; its filter is evaluated inside the reader.\n");
        out.append("- **Paimon 1.3.1 reader**: `ReadBuilder.withProjection(..)[.withFilter(..)]`, `newRead().createReader(splits)`, iterating `InternalRow`s; "
                + "Paimon's read uses the filter only to skip files and row groups, so the benchmark applies `predicate.test(row)` to each row.\n");
        out.append("- **Trino 483 Parquet reader** (`io.trino:trino-parquet:483`): `ParquetReader.nextPage()` over each data file of the table (a local `FileChannel` data source), "
                + "all row groups; for the filter it loads the `shipdate` block, selects positions, then loads the other blocks and reads the selected positions.\n");
        out.append("- **DuckDB** (`org.duckdb:duckdb_jdbc:1.5.6.0`, `SET threads = 1`): `read_parquet([...the same files...])` with `count(*)`, `bit_xor(hash(...every numeric column...))` and `sum(strlen(s))` per string column.\n\n");
        out.append("Every reader touches every value it returns (the JVM readers fold each number, or each string's byte length, into a checksum; "
                + "the test checks that Tarn, Paimon and Trino produce identical checksums and all four the same row counts). "
                + "Throughput is **table rows scanned per second** (table rows / median time), also for the filter scenario.\n\n");
        out.append(String.format(Locale.ROOT,
                "Timing: each round runs the four readers once on a scenario, rotating who goes first; %d warm-up round(s), then the median of %d rounds. "
                        + "Ratios are medians of per-round time ratios (other / Tarn; above 1 means Tarn is faster). The machine is shared: see the load average below.%n%n",
                warmupRounds, rounds));
        out.append("## Rows per second (millions, median)\n\n");
        out.append("| Scenario | Rows returned |");
        for (Engine engine : Engine.values()) {
            out.append(' ').append(engine.label()).append(" |");
        }
        out.append(" Tarn / Paimon | Tarn / Trino | Tarn / DuckDB |\n");
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Scenario scenario : Scenario.values()) {
            ScanTimings timing = timings.get(scenario);
            out.append("| ").append(BenchmarkScan.describe(scenario)).append(" | ");
            out.append(String.format(Locale.ROOT, "%,d", timing.rowsReturned()));
            if (scenario == Scenario.FILTER) {
                out.append(String.format(Locale.ROOT, " (%.2f%%)", 100.0 * timing.rowsReturned() / rows));
            }
            out.append(" |");
            for (Engine engine : Engine.values()) {
                out.append(String.format(Locale.ROOT, " %.2f |", rows / timing.medianSeconds(engine) / 1e6));
            }
            out.append(String.format(Locale.ROOT, " %.2f× | %.2f× | %.2f× |%n",
                    timing.tarnSpeedup(Engine.PAIMON), timing.tarnSpeedup(Engine.TRINO), timing.tarnSpeedup(Engine.DUCKDB)));
        }
        out.append("\n## Median time per scan (s)\n\n");
        out.append("| Scenario |");
        for (Engine engine : Engine.values()) {
            out.append(' ').append(engine.label()).append(" |");
        }
        out.append("\n|---|---:|---:|---:|---:|\n");
        for (Scenario scenario : Scenario.values()) {
            ScanTimings timing = timings.get(scenario);
            out.append("| ").append(BenchmarkScan.describe(scenario)).append(" |");
            for (Engine engine : Engine.values()) {
                out.append(String.format(Locale.ROOT, " %.3f |", timing.medianSeconds(engine)));
            }
            out.append('\n');
        }
        ScanTimings full = timings.get(Scenario.ALL_COLUMNS);
        out.append("\n## Targets (full scan, all columns)\n\n");
        out.append(target("Tarn ≥ 5× Paimon's reader", full.tarnSpeedup(Engine.PAIMON), PAIMON_TARGET));
        out.append(target("Tarn ≥ 1.0× Trino's Parquet reader", full.tarnSpeedup(Engine.TRINO), TRINO_TARGET));
        out.append(target("Tarn within 2× of DuckDB (≥ 0.5×)", full.tarnSpeedup(Engine.DUCKDB), DUCKDB_TARGET));
        out.append("\nWhere a target is missed, `scan-profile.md` beside this file says where Tarn's time goes (JFR).\n");
        out.append("\n![rows per second](scan.svg)\n");
        out.append("\n## Machine\n\n");
        out.append(String.format(Locale.ROOT, "- CPU: %s, %d cores visible to the JVM%n", MachineInfo.cpuModel(), cores));
        out.append("- Memory: ").append(MachineInfo.memory()).append('\n');
        out.append("- JDK: ").append(System.getProperty("java.vm.name")).append(' ').append(System.getProperty("java.runtime.version"))
                .append(", -Xmx4g, default GC\n");
        out.append("- Load average (1/5/15 min; shared machine, other builds running): before ").append(loadBefore)
                .append(", after ").append(MachineInfo.loadAverage()).append('\n');
        out.append("- OS: ").append(System.getProperty("os.name")).append(' ').append(System.getProperty("os.version")).append('\n');
        out.append("- Data files on local disk, read through the OS page cache (warm after the warm-up round)\n");
        out.append("\n## Reproduce\n\n");
        out.append("```\n./tarn bench scan\n```\n\n");
        out.append("or, without installing into ~/.m2 (generates the table into `benchmarks/target/scan-data` on first use, about 2–3 minutes):\n\n");
        out.append("```\nmvn -B -q -pl benchmarks -am -DskipTests -Dtarn.bench.run -Dtarn.bench=scan test-compile\n```\n\n");
        out.append("System properties: `tarn.bench.scan.rows` (default 10000000), `tarn.bench.scan.data` (cache directory), "
                + "`tarn.bench.scan.warmup` / `tarn.bench.scan.rounds` (default 1 / 5). As JMH (one fork, every engine and scenario):\n\n");
        out.append("```\njava -cp <benchmarks test class path> org.openjdk.jmh.Main 'io.tarn.benchmarks.BenchmarkScan' -p rows=10000000 -p dataDirectory=$PWD/benchmarks/target/scan-data\n```\n");
        return out.toString();
    }

    private static String target(String name, double ratio, double target)
    {
        if (ratio >= target) {
            return String.format(Locale.ROOT, "- %s: **met** (%.2f×)%n", name, ratio);
        }
        return String.format(Locale.ROOT, "- %s: **not met** (%.2f×, %.0f%% short of %.1f×)%n", name, ratio, 100 * (1 - ratio / target), target);
    }

    static String svg(long rows, Map<Scenario, ScanTimings> timings)
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
                String.format(Locale.ROOT, "Single-thread scan of %,d Paimon-written rows: million rows per second (higher is better)", rows),
                "M rows/s",
                groups,
                series,
                values);
    }
}
