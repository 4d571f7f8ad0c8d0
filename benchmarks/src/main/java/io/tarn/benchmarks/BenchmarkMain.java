package io.tarn.benchmarks;

import io.tarn.benchmarks.BenchmarkPlanning.Scenario;
import io.tarn.benchmarks.jni.BenchmarkJni;
import io.tarn.storage.metrics.Counter;
import io.tarn.storage.metrics.Counters;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs a named benchmark report: {@code BenchmarkMain planning RESULTS_DIR} generates the planning
 * table once, checks that Tarn and Paimon plan the same files for every scenario, measures every
 * {@link BenchmarkPlanning} method with JMH in one run on that table, and writes
 * {@code RESULTS_DIR/planning.md}. {@code BenchmarkMain scan RESULTS_DIR} runs {@link BenchmarkScan}'s
 * four readers on the cached scan table ({@link ScanReport}) and writes {@code scan.md} and {@code scan.svg}.
 * {@code BenchmarkMain primary-key RESULTS_DIR} reads deletion-vector, merge-on-read and append
 * tables of the same rows with Tarn and Paimon ({@link PrimaryKeyReport}).
 * {@code BenchmarkMain jni RESULTS_DIR} runs {@link BenchmarkJni} and writes {@code jni.md}.
 * {@code BenchmarkMain zorder RESULTS_DIR} runs {@link BenchmarkZOrder} and writes {@code zorder.md}.
 * {@code BenchmarkMain file-index RESULTS_DIR} runs {@link BenchmarkFileIndex} and writes {@code file-index.md} and {@code file-index.svg}.
 * {@code BenchmarkMain orc RESULTS_DIR} runs {@link BenchmarkOrc}'s three ORC readers ({@link OrcReport}) and writes {@code orc.md} and {@code orc.svg}.
 */
public final class BenchmarkMain
{
    private static final int PARTITIONS = 100;
    private static final int FILES_PER_PARTITION = 100;
    private static final String KNOWN = "planning, scan, primary-key, jni, zorder, file-index, orc";

    private BenchmarkMain() {}

    public static void main(String[] args)
            throws Exception
    {
        if (args.length != 2) {
            throw new IllegalArgumentException("Usage: BenchmarkMain NAME RESULTS_DIR (NAME: " + KNOWN + ")");
        }
        Path results = Path.of(args[1]);
        if (args[0].equals("scan")) {
            ScanReport.run(
                    results,
                    Long.getLong("tarn.bench.scan.rows", 10_000_000L),
                    Path.of(System.getProperty("tarn.bench.scan.data", "target/scan-data")),
                    Integer.getInteger("tarn.bench.scan.warmup", 1),
                    Integer.getInteger("tarn.bench.scan.rounds", 5));
            return;
        }
        if (args[0].equals("orc")) {
            OrcReport.run(
                    results,
                    Long.getLong("tarn.bench.orc.rows", 10_000_000L),
                    Path.of(System.getProperty("tarn.bench.orc.data", "target/orc-data")),
                    Integer.getInteger("tarn.bench.orc.warmup", 2),
                    Integer.getInteger("tarn.bench.orc.rounds", 5),
                    Integer.getInteger("tarn.bench.orc.column.rounds", 3));
            return;
        }
        if (args[0].equals("primary-key")) {
            PrimaryKeyReport.run(
                    results,
                    Long.getLong("tarn.bench.pk.rows", 5_000_000L),
                    Path.of(System.getProperty("tarn.bench.pk.data", "target/pk-data")),
                    Integer.getInteger("tarn.bench.pk.warmup", 1),
                    Integer.getInteger("tarn.bench.pk.rounds", 5));
            return;
        }
        if (args[0].equals("jni")) {
            BenchmarkJni.run(
                    results,
                    Long.getLong("tarn.bench.jni.rows", 2_000_000L),
                    Path.of(System.getProperty("tarn.bench.scan.data", "target/scan-data")),
                    Path.of(System.getProperty("tarn.bench.jni.target", "../jni-bridge/target")),
                    // the C side's export path needs a few rounds of JIT warm-up of its own
                    Integer.getInteger("tarn.bench.jni.warmup", 3),
                    Integer.getInteger("tarn.bench.jni.rounds", 7));
            return;
        }
        if (args[0].equals("zorder")) {
            BenchmarkZOrder.report(
                    results,
                    Long.getLong("tarn.bench.zorder.rows", 10_000_000L),
                    Integer.getInteger("tarn.bench.zorder.warmup", 1),
                    Integer.getInteger("tarn.bench.zorder.rounds", 5));
            return;
        }
        if (args[0].equals("file-index")) {
            BenchmarkFileIndex.report(results, Long.getLong("tarn.bench.fileindex.rows", 10_000_000L), Integer.getInteger("tarn.bench.fileindex.warmup", 1), Integer.getInteger("tarn.bench.fileindex.rounds", 5));
            return;
        }
        if (!args[0].equals("planning")) {
            throw new IllegalArgumentException("Unknown benchmark: " + args[0] + " (known: " + KNOWN + ")");
        }
        String report = planning(PARTITIONS, FILES_PER_PARTITION);
        Files.createDirectories(results);
        Files.writeString(results.resolve("planning.md"), report);
        System.out.println(report);
        System.out.println("Wrote " + results.resolve("planning.md"));
    }

    static String planning(int partitions, int filesPerPartition)
            throws Exception
    {
        BenchmarkPlanning state = new BenchmarkPlanning();
        state.partitions = partitions;
        state.filesPerPartition = filesPerPartition;
        state.warehouse = "";
        long generationStart = System.nanoTime();
        state.setup();
        long generationMillis = (System.nanoTime() - generationStart) / 1_000_000;
        try {
            Path warehouse = state.generatedWarehouseLocation();
            Map<Scenario, Integer> fileCounts = new HashMap<>();
            Map<Scenario, Counters> metrics = new HashMap<>();
            for (Scenario scenario : Scenario.values()) {
                List<String> tarn = state.tarnFileNames(scenario);
                List<String> paimon = state.paimonFileNames(scenario, false);
                List<String> paimonDefault = state.paimonFileNames(scenario, true);
                if (!tarn.equals(paimon) || !tarn.equals(paimonDefault)) {
                    throw new IllegalStateException(String.format(
                            "Tarn and Paimon plan different files for %s: Tarn %s files, Paimon (1 thread) %s, Paimon (default) %s",
                            state.describe(scenario), tarn.size(), paimon.size(), paimonDefault.size()));
                }
                fileCounts.put(scenario, tarn.size());
                metrics.put(scenario, state.tarnPlan(scenario).metrics());
            }
            Map<Scenario, Interleaved> interleaved = new HashMap<>();
            for (Scenario scenario : Scenario.values()) {
                interleaved.put(scenario, Interleaved.measure(state, scenario));
            }

            Options options = new OptionsBuilder()
                    .include(BenchmarkPlanning.class.getName() + "\\.")
                    .param("partitions", String.valueOf(partitions))
                    .param("filesPerPartition", String.valueOf(filesPerPartition))
                    .param("warehouse", warehouse.toString())
                    .build();
            Collection<RunResult> runs = new Runner(options).run();
            Map<String, Result<?>> scores = new HashMap<>();
            for (RunResult run : runs) {
                String method = run.getParams().getBenchmark();
                scores.put(method.substring(method.lastIndexOf('.') + 1), run.getPrimaryResult());
            }
            return report(state, partitions * filesPerPartition, generationMillis, fileCounts, metrics, interleaved, scores);
        }
        finally {
            state.tearDown();
        }
    }

    private static String report(
            BenchmarkPlanning state,
            int totalFiles,
            long generationMillis,
            Map<Scenario, Integer> fileCounts,
            Map<Scenario, Counters> metrics,
            Map<Scenario, Interleaved> interleaved,
            Map<String, Result<?>> scores)
    {
        int cores = Runtime.getRuntime().availableProcessors();
        StringBuilder out = new StringBuilder();
        out.append("# Planning benchmark: Tarn vs Apache Paimon 1.3.1\n\n");
        out.append("Run: ").append(Instant.now().truncatedTo(ChronoUnit.SECONDS)).append("\n\n");
        out.append(String.format(Locale.ROOT,
                "Table: append table `%s`, %d data files in %d partitions (`dt`), one commit of %d files per partition, "
                        + "committed through Paimon's own commit path with fabricated file metadata (no data files exist; "
                        + "Paimon merged the manifests as it does by default). Generation took %.1f s.%n%n",
                PlanningTableGenerator.tableName(), totalFiles, state.partitions, state.filesPerPartition, generationMillis / 1000.0));
        out.append("All three planners plan the same files in every scenario (checked by file name before measuring). ");
        out.append("Each plan resolves the latest snapshot and plans from it; caches are off on both sides (Paimon's catalog caches, Tarn's manifest cache). ");
        out.append("The machine is shared, so besides JMH's means (one fork per benchmark, run one after another) the report gives medians of an ");
        out.append("interleaved run in one JVM (Tarn, Paimon 1 thread, Paimon default, rotated each round), which load drift affects far less.\n\n");
        out.append("## JMH: mean time per plan (ms/op, ± 99.9% confidence half-width)\n\n");
        out.append(String.format(Locale.ROOT,
                "| Scenario | Files planned | Manifests / entries read (Tarn) | Tarn (1 thread) | Paimon, `scan.manifest.parallelism=1` | Paimon, default parallelism (%d threads) | Paimon 1 thread / Tarn | Paimon default / Tarn |%n",
                cores));
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        String[][] methods = {
                {"tarnFullPlan", "paimonFullPlan", "paimonDefaultParallelismFullPlan"},
                {"tarnPartitionFilter", "paimonPartitionFilter", "paimonDefaultParallelismPartitionFilter"},
                {"tarnValueStatsFilter", "paimonValueStatsFilter", "paimonDefaultParallelismValueStatsFilter"},
        };
        Result<?> tarnFull = null;
        Result<?> paimonFull = null;
        for (Scenario scenario : Scenario.values()) {
            String[] names = methods[scenario.ordinal()];
            Result<?> tarn = score(scores, names[0]);
            Result<?> paimon = score(scores, names[1]);
            Result<?> paimonDefault = score(scores, names[2]);
            if (scenario == Scenario.FULL) {
                tarnFull = tarn;
                paimonFull = paimon;
            }
            out.append(String.format(Locale.ROOT, "| %s | %d | %d / %d | %s | %s | %s | %.2f× | %.2f× |%n",
                    state.describe(scenario),
                    fileCounts.get(scenario),
                    metrics.get(scenario).get(Counter.MANIFESTS_READ),
                    metrics.get(scenario).get(Counter.ENTRIES_READ),
                    format(tarn),
                    format(paimon),
                    format(paimonDefault),
                    paimon.getScore() / tarn.getScore(),
                    paimonDefault.getScore() / tarn.getScore()));
        }
        out.append(String.format(Locale.ROOT, "%n## Interleaved: median time per plan (ms), %d rounds after %d warm-up rounds%n%n", Interleaved.ROUNDS, Interleaved.WARMUP_ROUNDS));
        out.append(String.format(Locale.ROOT,
                "| Scenario | Tarn | Paimon, 1 thread | Paimon, default (%d threads) | median of per-round Paimon 1 thread / Tarn | median of per-round Paimon default / Tarn |%n",
                cores));
        out.append("|---|---:|---:|---:|---:|---:|\n");
        for (Scenario scenario : Scenario.values()) {
            Interleaved run = interleaved.get(scenario);
            out.append(String.format(Locale.ROOT, "| %s | %.2f | %.2f | %.2f | %.2f× | %.2f× |%n",
                    state.describe(scenario),
                    run.tarnMedianMillis(),
                    run.paimonMedianMillis(),
                    run.paimonDefaultMedianMillis(),
                    run.paimonRatio(),
                    run.paimonDefaultRatio()));
        }
        out.append("\n## Target\n\n");
        out.append(String.format(Locale.ROOT, "- Tarn plans the %d-file table in under 1 s: %s (%.1f ms).%n",
                totalFiles, tarnFull.getScore() < 1000 ? "**met**" : "**not met**", tarnFull.getScore()));
        double ratio = paimonFull.getScore() / tarnFull.getScore();
        double interleavedRatio = interleaved.get(Scenario.FULL).paimonRatio();
        out.append(String.format(Locale.ROOT, "- Tarn at least 3× faster than Paimon's planner (1 thread each) on the full plan: %s (JMH means %.2f×, interleaved median %.2f×).%n",
                ratio >= 3 && interleavedRatio >= 3 ? "**met**" : "**not met**", ratio, interleavedRatio));
        out.append("\n## Machine\n\n");
        out.append(String.format(Locale.ROOT, "- CPU: %s, %d cores visible to the JVM (`nproc` %d)%n", MachineInfo.cpuModel(), cores, cores));
        out.append("- Memory: ").append(MachineInfo.memory()).append('\n');
        out.append("- JDK: ").append(System.getProperty("java.vm.name")).append(' ').append(System.getProperty("java.runtime.version"))
                .append(" (benchmark JVMs: -Xms2g -Xmx2g, default GC)\n");
        out.append("- Load average when the report was written (1/5/15 min, shared machine): ").append(MachineInfo.loadAverage()).append('\n');
        out.append("- OS: ").append(System.getProperty("os.name")).append(' ').append(System.getProperty("os.version")).append('\n');
        out.append("- JMH: 1 fork per benchmark, 5 warm-up iterations of 1 s, 10 measured iterations of 1 s\n");
        out.append("\n## Reproduce\n\n");
        out.append("```\n./tarn bench planning\n```\n\n");
        out.append("or, without installing into ~/.m2:\n\n");
        out.append("```\nmvn -B -q -pl benchmarks -am -DskipTests -Dtarn.bench.run test-compile  # then runs BenchmarkMain planning benchmarks/results\n```\n");
        return out.toString();
    }

    private static Result<?> score(Map<String, Result<?>> scores, String method)
    {
        Result<?> result = scores.get(method);
        if (result == null) {
            throw new IllegalStateException("JMH produced no result for " + method + " (got " + scores.keySet() + ")");
        }
        return result;
    }

    private static String format(Result<?> result)
    {
        double error = result.getScoreError();
        if (Double.isNaN(error)) {
            return String.format(Locale.ROOT, "%.2f ms", result.getScore());
        }
        return String.format(Locale.ROOT, "%.2f ± %.2f ms", result.getScore(), error);
    }
}
