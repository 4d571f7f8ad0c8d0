package io.tarn.benchmarks;

import io.tarn.benchmarks.BenchmarkOrc.Engine;
import io.tarn.benchmarks.BenchmarkScan.ScanResult;
import io.tarn.benchmarks.BenchmarkScan.Scenario;

import java.util.EnumMap;
import java.util.Map;

import static io.tarn.benchmarks.Medians.median;
import static java.util.Objects.requireNonNull;

/**
 * Times the three ORC readers on one scenario in the same JVM, one scan each per round, rotating
 * who goes first, so that load from other processes on a shared machine falls on all of them
 * alike. Every scan's row count is checked against the count the scenario must return, and every
 * scan's checksum against the first one's, so a timing never hides a wrong answer.
 */
record OrcTimings(Scenario scenario, long rowsReturned, Map<Engine, double[]> seconds)
{
    OrcTimings
    {
        requireNonNull(scenario, "scenario is null");
        seconds = Map.copyOf(seconds);
    }

    static OrcTimings measure(BenchmarkOrc state, Scenario scenario, int warmupRounds, int rounds)
    {
        if (rounds <= 0 || warmupRounds < 0) {
            throw new IllegalArgumentException("Rounds must be positive and warm-up rounds not negative: " + rounds + ", " + warmupRounds);
        }
        Engine[] engines = Engine.values();
        Map<Engine, double[]> seconds = new EnumMap<>(Engine.class);
        for (Engine engine : engines) {
            seconds.put(engine, new double[rounds]);
        }
        long expectedRows = state.expectedRows(scenario);
        ScanResult first = null;
        for (int round = -warmupRounds; round < rounds; round++) {
            for (int turn = 0; turn < engines.length; turn++) {
                Engine engine = engines[Math.floorMod(round + turn, engines.length)];
                long start = System.nanoTime();
                ScanResult result = state.scan(engine, scenario);
                long elapsed = System.nanoTime() - start;
                if (result.rows() != expectedRows) {
                    throw new IllegalStateException(String.format("%s returned %d rows for %s, expected %d", engine.label(), result.rows(), scenario, expectedRows));
                }
                if (first == null) {
                    first = result;
                }
                else if (result.checksum() != first.checksum()) {
                    throw new IllegalStateException(String.format("%s returned checksum %d for %s, another reader %d", engine.label(), result.checksum(), scenario, first.checksum()));
                }
                if (round >= 0) {
                    seconds.get(engine)[round] = elapsed / 1e9;
                }
            }
        }
        return new OrcTimings(scenario, expectedRows, seconds);
    }

    double medianSeconds(Engine engine)
    {
        return median(seconds.get(engine));
    }

    /**
     * How many times faster Tarn is than {@code other}: the median of the per-round time ratios.
     */
    double tarnSpeedup(Engine other)
    {
        double[] tarn = seconds.get(Engine.TARN);
        double[] theirs = seconds.get(other);
        double[] ratios = new double[tarn.length];
        for (int round = 0; round < tarn.length; round++) {
            ratios[round] = theirs[round] / tarn[round];
        }
        return median(ratios);
    }
}
