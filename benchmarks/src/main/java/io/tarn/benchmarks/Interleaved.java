package io.tarn.benchmarks;

import io.tarn.benchmarks.BenchmarkPlanning.Scenario;

import static io.tarn.benchmarks.Medians.median;

/**
 * Times Tarn and both Paimon set-ups on one scenario in the same JVM, alternating them every round
 * (rotating who goes first), so that load from other processes on a shared machine falls on all
 * three alike; per-round ratios and medians then resist the drift that separate JMH forks suffer.
 */
record Interleaved(double tarnMedianMillis, double paimonMedianMillis, double paimonDefaultMedianMillis, double paimonRatio, double paimonDefaultRatio)
{
    static final int WARMUP_ROUNDS = 10;
    static final int ROUNDS = 25;

    static Interleaved measure(BenchmarkPlanning state, Scenario scenario)
    {
        long[][] nanos = new long[3][ROUNDS];
        for (int round = -WARMUP_ROUNDS; round < ROUNDS; round++) {
            for (int turn = 0; turn < 3; turn++) {
                int planner = Math.floorMod(round + turn, 3);
                long start = System.nanoTime();
                int files = switch (planner) {
                    case 0 -> state.tarnPlan(scenario).files().size();
                    case 1 -> state.paimonFileCount(scenario, false);
                    default -> state.paimonFileCount(scenario, true);
                };
                long elapsed = System.nanoTime() - start;
                if (files < 0) {
                    throw new IllegalStateException("Negative file count");
                }
                if (round >= 0) {
                    nanos[planner][round] = elapsed;
                }
            }
        }
        double[] paimonRatios = new double[ROUNDS];
        double[] paimonDefaultRatios = new double[ROUNDS];
        for (int round = 0; round < ROUNDS; round++) {
            paimonRatios[round] = (double) nanos[1][round] / nanos[0][round];
            paimonDefaultRatios[round] = (double) nanos[2][round] / nanos[0][round];
        }
        return new Interleaved(
                median(nanos[0]) / 1e6,
                median(nanos[1]) / 1e6,
                median(nanos[2]) / 1e6,
                median(paimonRatios),
                median(paimonDefaultRatios));
    }
}
