package io.tarn.storage.metrics;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Values of {@link Counter}s: what planning a scan or reading splits did. Immutable; unset
 * counters are zero.
 */
public final class Counters
{
    private static final Counter[] COUNTERS = Counter.values();

    public static final Counters EMPTY = new Counters(new long[COUNTERS.length]);

    private final long[] values;

    private Counters(long[] values)
    {
        this.values = values;
    }

    public static Counters of(Counter counter, long value)
    {
        return EMPTY.with(counter, value);
    }

    public static Counters of(Counter first, long firstValue, Counter second, long secondValue)
    {
        return EMPTY.with(first, firstValue).with(second, secondValue);
    }

    public long get(Counter counter)
    {
        return values[counter.ordinal()];
    }

    /**
     * These counters with {@code counter} set to {@code value}.
     */
    public Counters with(Counter counter, long value)
    {
        long[] copy = values.clone();
        copy[requireNonNull(counter, "counter is null").ordinal()] = value;
        return new Counters(copy);
    }

    public Counters plus(Counters other)
    {
        long[] sum = values.clone();
        for (int i = 0; i < sum.length; i++) {
            sum[i] += other.values[i];
        }
        return new Counters(sum);
    }

    /**
     * The counters of {@code stage} by name, in a stable order, for logs and {@code key=value} output.
     */
    public Map<String, Long> asMap(Counter.Stage stage)
    {
        Map<String, Long> map = new LinkedHashMap<>();
        for (Counter counter : COUNTERS) {
            if (counter.stage() == stage) {
                map.put(counter.key(), values[counter.ordinal()]);
            }
        }
        return map;
    }

    @Override
    public boolean equals(Object other)
    {
        return other instanceof Counters counters && Arrays.equals(values, counters.values);
    }

    @Override
    public int hashCode()
    {
        return Arrays.hashCode(values);
    }

    @Override
    public String toString()
    {
        Map<String, Long> nonZero = new LinkedHashMap<>();
        for (Counter counter : COUNTERS) {
            if (values[counter.ordinal()] != 0) {
                nonZero.put(counter.stage().name().toLowerCase(Locale.ROOT) + "." + counter.key(), values[counter.ordinal()]);
            }
        }
        return nonZero.toString();
    }
}
