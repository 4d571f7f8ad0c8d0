package io.tarn.benchmarks;

import io.tarn.benchmarks.BenchmarkOrc.Engine;
import io.tarn.benchmarks.BenchmarkScan.ScanResult;
import io.tarn.benchmarks.BenchmarkScan.Scenario;

import java.util.Locale;

/**
 * {@code OrcProfile ENGINE SCENARIO ROUNDS}: scans the cached ORC table with one reader only, for
 * profiling it (run it under {@code -XX:StartFlightRecording}); prints each round's time.
 */
public final class OrcProfile
{
    private OrcProfile() {}

    public static void main(String[] args)
            throws Exception
    {
        if (args.length != 3) {
            throw new IllegalArgumentException("Usage: OrcProfile ENGINE SCENARIO ROUNDS");
        }
        Engine engine = Engine.valueOf(args[0].toUpperCase(Locale.ROOT));
        Scenario scenario = Scenario.valueOf(args[1].toUpperCase(Locale.ROOT));
        int rounds = Integer.parseInt(args[2]);
        BenchmarkOrc state = new BenchmarkOrc();
        state.rows = Long.getLong("tarn.bench.orc.rows", 10_000_000L);
        state.dataDirectory = System.getProperty("tarn.bench.orc.data", "target/orc-data");
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
