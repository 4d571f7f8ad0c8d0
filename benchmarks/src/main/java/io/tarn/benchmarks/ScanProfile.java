package io.tarn.benchmarks;

import io.tarn.benchmarks.BenchmarkScan.Engine;
import io.tarn.benchmarks.BenchmarkScan.ScanResult;
import io.tarn.benchmarks.BenchmarkScan.Scenario;

import java.util.Locale;

/**
 * {@code ScanProfile ENGINE SCENARIO ROUNDS}: scans the cached table with one engine only, for
 * profiling it (run it under {@code -XX:StartFlightRecording}); prints each round's time.
 */
public final class ScanProfile
{
    private ScanProfile() {}

    public static void main(String[] args)
            throws Exception
    {
        if (args.length != 3) {
            throw new IllegalArgumentException("Usage: ScanProfile ENGINE SCENARIO ROUNDS");
        }
        Engine engine = Engine.valueOf(args[0].toUpperCase(Locale.ROOT));
        Scenario scenario = Scenario.valueOf(args[1].toUpperCase(Locale.ROOT));
        int rounds = Integer.parseInt(args[2]);
        BenchmarkScan state = new BenchmarkScan();
        state.rows = Long.getLong("tarn.bench.scan.rows", 10_000_000L);
        state.dataDirectory = System.getProperty("tarn.bench.scan.data", "target/scan-data");
        state.setup();
        try {
            for (int round = 0; round < rounds; round++) {
                long start = System.nanoTime();
                ScanResult result = state.scan(engine, scenario);
                double seconds = (System.nanoTime() - start) / 1e9;
                System.out.printf(Locale.ROOT, "%s %s round %d: %d rows in %.2f s (%.2f M rows/s)%n",
                        engine.label(), scenario, round, result.rows(), seconds, state.rows / seconds / 1e6);
            }
        }
        finally {
            state.tearDown();
        }
    }
}
