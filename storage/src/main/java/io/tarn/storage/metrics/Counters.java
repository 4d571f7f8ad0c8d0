package io.tarn.storage.metrics;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Values of the {@link Counter}s of one stage: what planning a scan, or reading splits, did.
 * Immutable; unset counters are zero. Asking reading counters for a planning counter (or the
 * reverse) fails rather than answering zero.
 */
public final class Counters
{
    private static final Counter[] COUNTERS = Counter.values();
    private static final Counters PLANNING = new Counters(Counter.Stage.PLANNING, new long[COUNTERS.length]);
    private static final Counters READING = new Counters(Counter.Stage.READING, new long[COUNTERS.length]);

    private final Counter.Stage stage;
    private final long[] values;

    private Counters(Counter.Stage stage, long[] values)
    {
        this.stage = stage;
        this.values = values;
    }

    /**
     * All counters of {@code stage} at zero.
     */
    public static Counters empty(Counter.Stage stage)
    {
        return requireNonNull(stage, "stage is null") == Counter.Stage.PLANNING ? PLANNING : READING;
    }

    public static Counters of(Counter counter, long value)
    {
        return empty(counter.stage()).with(counter, value);
    }

    public static Counters of(Counter first, long firstValue, Counter second, long secondValue)
    {
        return of(first, firstValue).with(second, secondValue);
    }

    public Counter.Stage stage()
    {
        return stage;
    }

    public long get(Counter counter)
    {
        return values[checkStage(counter).ordinal()];
    }

    /**
     * These counters with {@code counter} set to {@code value}.
     */
    public Counters with(Counter counter, long value)
    {
        long[] copy = values.clone();
        copy[checkStage(counter).ordinal()] = value;
        return new Counters(stage, copy);
    }

    public Counters plus(Counters other)
    {
        if (other.stage != stage) {
            throw new IllegalArgumentException("Cannot add %s counters to %s counters".formatted(other.stage, stage));
        }
        long[] sum = values.clone();
        for (int i = 0; i < sum.length; i++) {
            sum[i] += other.values[i];
        }
        return new Counters(stage, sum);
    }

    /**
     * The counters by name, in a stable order, for logs and {@code key=value} output.
     */
    public Map<String, Long> asMap()
    {
        Map<String, Long> map = new LinkedHashMap<>();
        for (Counter counter : COUNTERS) {
            if (counter.stage() == stage) {
                map.put(counter.key(), values[counter.ordinal()]);
            }
        }
        return map;
    }

    private Counter checkStage(Counter counter)
    {
        if (requireNonNull(counter, "counter is null").stage() != stage) {
            throw new IllegalArgumentException("%s is a %s counter, not one of these %s counters".formatted(counter, counter.stage(), stage));
        }
        return counter;
    }

    @Override
    public boolean equals(Object other)
    {
        return other instanceof Counters counters && stage == counters.stage && Arrays.equals(values, counters.values);
    }

    @Override
    public int hashCode()
    {
        return 31 * stage.hashCode() + Arrays.hashCode(values);
    }

    @Override
    public String toString()
    {
        return stage.name().toLowerCase(Locale.ROOT) + " " + asMap();
    }
}
