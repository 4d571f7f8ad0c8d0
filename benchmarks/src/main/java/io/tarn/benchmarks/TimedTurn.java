package io.tarn.benchmarks;

import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * One timed turn of a benchmark round: the query runs back to back until the turn has lasted at
 * least a minimum time, as a JMH iteration repeats its operation, and the turn reports the mean
 * time of one run. A full scan runs once; a 30 ms lookup runs a dozen times, so it is timed with
 * its code compiled, not on its first or second run after a full scan, for every engine alike.
 */
record TimedTurn<T>(T lastResult, double secondsPerRun, int runs)
{
    static final double MINIMUM_SECONDS = 0.5;

    TimedTurn
    {
        requireNonNull(lastResult, "lastResult is null");
    }

    static <T> TimedTurn<T> run(Supplier<T> query, Runnable afterEachRun)
    {
        long start = System.nanoTime();
        long minimumNanos = (long) (MINIMUM_SECONDS * 1e9);
        int runs = 0;
        T result;
        long elapsed;
        do {
            result = query.get();
            afterEachRun.run();
            runs++;
            elapsed = System.nanoTime() - start;
        }
        while (elapsed < minimumNanos);
        return new TimedTurn<>(result, elapsed / 1e9 / runs, runs);
    }
}
