package io.tarn.benchmarks;

import java.util.Arrays;

/**
 * Medians of timings and of per-round ratios, the statistics every report here prints: robust
 * against the odd round slowed by other work on a shared machine.
 */
public final class Medians
{
    private Medians() {}

    public static double median(double[] values)
    {
        if (values.length == 0) {
            throw new IllegalArgumentException("No values");
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    public static double median(long[] values)
    {
        return median(Arrays.stream(values).asDoubleStream().toArray());
    }

    /**
     * The median of {@code numerators[i] / denominators[i]} over the rounds {@code i}.
     */
    public static double medianRatio(long[] numerators, long[] denominators)
    {
        double[] ratios = new double[numerators.length];
        for (int i = 0; i < ratios.length; i++) {
            ratios[i] = (double) numerators[i] / denominators[i];
        }
        return median(ratios);
    }
}
