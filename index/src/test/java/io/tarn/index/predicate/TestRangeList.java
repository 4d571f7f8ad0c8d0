package io.tarn.index.predicate;

import io.tarn.index.predicate.Predicate.InRanges;
import io.tarn.index.predicate.RandomPredicates.FixedStats;
import io.tarn.types.DataType;
import io.tarn.types.DataTypes;
import io.tarn.types.Timestamp;
import io.tarn.types.ValueComparator;
import org.testng.annotations.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.function.Function;

import static io.tarn.index.predicate.Predicates.and;
import static io.tarn.index.predicate.Predicates.equal;
import static io.tarn.index.predicate.Predicates.greaterOrEqual;
import static io.tarn.index.predicate.Predicates.greaterThan;
import static io.tarn.index.predicate.Predicates.inRanges;
import static io.tarn.index.predicate.Predicates.lessOrEqual;
import static io.tarn.index.predicate.Predicates.lessThan;
import static io.tarn.index.predicate.Predicates.not;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link Predicate.InRanges} (backed by {@link RangeList}) against the OR of each range's bound
 * comparisons, evaluated here with Java's operators (IEEE 754 for FLOAT / DOUBLE, as SQL compares)
 * and {@link ValueComparator} for the other types: row by row, negated, and from statistics.
 */
public class TestRangeList
{
    private static final FieldRef X = new FieldRef(1, "x", DataTypes.integer());
    private static final FieldRef L = new FieldRef(2, "l", DataTypes.bigint());
    private static final FieldRef D = new FieldRef(3, "d", DataTypes.doubleType());
    private static final FieldRef F = new FieldRef(4, "f", DataTypes.floatType());
    private static final FieldRef S = new FieldRef(5, "s", DataTypes.string());
    private static final FieldRef DEC = new FieldRef(6, "dec", DataTypes.decimal(10, 2));
    private static final FieldRef TS = new FieldRef(7, "ts", DataTypes.timestamp(9));
    private static final FieldRef DT = new FieldRef(8, "dt", DataTypes.date());
    private static final FieldRef BIN = new FieldRef(9, "bin", DataTypes.bytes());

    /**
     * Whether {@code value} (not null) lies in {@code range}, straight from the definition.
     */
    static boolean referenceContains(DataType type, ValueRange range, Object value)
    {
        boolean aboveLow = range.low() == null || (range.lowInclusive() ? !less(type, value, range.low()) && comparable(type, value, range.low()) : less(type, range.low(), value));
        boolean belowHigh = range.high() == null || (range.highInclusive() ? !less(type, range.high(), value) && comparable(type, value, range.high()) : less(type, value, range.high()));
        return aboveLow && belowHigh;
    }

    private static boolean less(DataType type, Object left, Object right)
    {
        if (SqlComparison.isFloatingPoint(type)) {
            return ((Number) left).doubleValue() < ((Number) right).doubleValue();
        }
        return ValueComparator.compare(type, left, right) < 0;
    }

    // NaN is unordered: neither below, equal to nor above anything
    private static boolean comparable(DataType type, Object left, Object right)
    {
        return !SqlComparison.isFloatingPoint(type) || (!Double.isNaN(((Number) left).doubleValue()) && !Double.isNaN(((Number) right).doubleValue()));
    }

    @Test
    public void testRandomRangesAgainstReference()
    {
        long seed = System.nanoTime();
        System.out.println("TestRangeList.testRandomRangesAgainstReference seed " + seed);
        Random random = new Random(seed);
        Map<FieldRef, Function<Random, Object>> pools = Map.of(
                X, r -> r.nextInt(10) == 0 ? (r.nextBoolean() ? Integer.MIN_VALUE : Integer.MAX_VALUE) : r.nextInt(101) - 50,
                L, r -> (long) (r.nextInt(101) - 50),
                D, r -> switch (r.nextInt(12)) {
                    case 0 -> Double.NaN;
                    case 1 -> -0.0;
                    case 2 -> Double.NEGATIVE_INFINITY;
                    case 3 -> Double.POSITIVE_INFINITY;
                    default -> (r.nextInt(81) - 40) * 0.5;
                },
                F, r -> switch (r.nextInt(10)) {
                    case 0 -> Float.NaN;
                    case 1 -> -0.0f;
                    default -> (r.nextInt(41) - 20) * 0.5f;
                },
                S, r -> {
                    String[] pieces = {"a", "b", "\u00e9", "\uD83D\uDE00", "\uFFFD", "\uE000"};
                    StringBuilder value = new StringBuilder();
                    for (int i = r.nextInt(4); i > 0; i--) {
                        value.append(pieces[r.nextInt(pieces.length)]);
                    }
                    return value.toString();
                },
                DEC, r -> new BigDecimal(r.nextInt(2001) - 1000).movePointLeft(r.nextInt(3)),
                TS, r -> new Timestamp(r.nextInt(11) - 5, new int[] {0, 1000, 999_999, 1}[r.nextInt(4)]),
                DT, r -> r.nextInt(61) - 30,
                BIN, r -> {
                    byte[] value = new byte[r.nextInt(3)];
                    for (int i = 0; i < value.length; i++) {
                        value[i] = (byte) (r.nextInt(3) - 1);
                    }
                    return value;
                });
        for (int round = 0; round < 3_000; round++) {
            FieldRef field = List.of(X, L, D, F, S, DEC, TS, DT, BIN).get(random.nextInt(9));
            DataType type = field.type();
            Function<Random, Object> pool = pools.get(field);
            List<ValueRange> ranges = new ArrayList<>();
            int count = 1 + random.nextInt(random.nextBoolean() ? 4 : 60);
            for (int i = 0; i < count; i++) {
                Object low = random.nextInt(8) == 0 ? null : pool.apply(random);
                Object high = random.nextInt(8) == 0 ? null : pool.apply(random);
                if (random.nextInt(4) != 0 && low != null && high != null && comparable(type, low, high) && less(type, high, low)) {
                    // mostly well-ordered ranges; the others are empty and must match nothing
                    Object swap = low;
                    low = high;
                    high = swap;
                }
                ranges.add(ValueRange.of(low, random.nextBoolean(), high, random.nextBoolean()));
            }
            Predicate predicate = inRanges(field, ranges);
            List<Object> unit = new ArrayList<>();
            boolean unitMatches = false;
            for (int i = 0; i < 40; i++) {
                Object value = random.nextInt(10) == 0 ? null : pool.apply(random);
                Function<FieldRef, Object> row = ignored -> value;
                if (value == null) {
                    // unknown, or FALSE when no range is left (as for an empty IN list)
                    assertThat(RowEvaluator.test(predicate, row)).as("seed %s: %s on NULL", seed, predicate).isFalse();
                    if (!(predicate instanceof Predicate.AlwaysFalse)) {
                        assertThat(RowEvaluator.evaluate(predicate, row)).as("seed %s: %s on NULL", seed, predicate).isNull();
                    }
                    continue;
                }
                boolean expected = ranges.stream().anyMatch(range -> referenceContains(type, range, value));
                assertThat(RowEvaluator.evaluate(predicate, row)).as("seed %s: %s on %s (ranges %s)", seed, predicate, value, ranges).isEqualTo(expected);
                assertThat(RowEvaluator.evaluate(not(predicate), row)).as("seed %s: NOT %s on %s", seed, predicate, value).isEqualTo(!expected);
                if (i < 6) {
                    unit.add(value);
                    unitMatches |= expected;
                }
            }
            if (unitMatches) {
                assertThat(StatsEvaluator.mightMatch(predicate, stats(field, unit))).as("seed %s: %s on a unit of %s", seed, predicate, unit).isTrue();
            }
        }
    }

    /**
     * On integers every value between the bounds may occur, so a unit may be skipped exactly when
     * no integer between its bounds lies in a range.
     */
    @Test
    public void testStatisticsAreExactOnIntegers()
    {
        long seed = System.nanoTime();
        System.out.println("TestRangeList.testStatisticsAreExactOnIntegers seed " + seed);
        Random random = new Random(seed);
        for (int round = 0; round < 3_000; round++) {
            List<ValueRange> ranges = new ArrayList<>();
            for (int i = 1 + random.nextInt(20); i > 0; i--) {
                int low = random.nextInt(100) - 50;
                ranges.add(ValueRange.of(low, random.nextBoolean(), low + random.nextInt(5), random.nextBoolean()));
            }
            Predicate predicate = inRanges(X, ranges);
            int min = random.nextInt(120) - 60;
            int max = min + random.nextInt(10);
            boolean any = false;
            boolean all = true;
            for (int value = min; value <= max; value++) {
                int current = value;
                boolean inside = ranges.stream().anyMatch(range -> referenceContains(X.type(), range, current));
                any |= inside;
                all &= inside;
            }
            StatsProvider stats = new FixedStats(Map.of(X, new ColumnStats(min, max, 0L, 100)), OptionalLong.of(100));
            boolean mightMatch = StatsEvaluator.mightMatch(predicate, stats);
            if (any || predicate instanceof InRanges) {
                // exact for the IN RANGES leaf; one range left is AND of comparisons, which is only sound
                assertThat(mightMatch).as("seed %s: %s in [%s, %s]", seed, predicate, min, max).isEqualTo(any);
            }
            // NOT IN RANGES may skip only a unit whose values all lie in the ranges, and does when one range holds them
            boolean oneRangeHoldsAll = ranges.stream().anyMatch(range -> referenceContains(X.type(), range, min) && referenceContains(X.type(), range, max));
            boolean notMightMatch = StatsEvaluator.mightMatch(not(predicate), stats);
            if (!all) {
                assertThat(notMightMatch).as("seed %s: NOT %s in [%s, %s]", seed, predicate, min, max).isTrue();
            }
            if (oneRangeHoldsAll && predicate instanceof InRanges) {
                assertThat(notMightMatch).as("seed %s: NOT %s in [%s, %s]", seed, predicate, min, max).isFalse();
            }
        }
    }

    @Test
    public void testHundredThousandRanges()
    {
        List<ValueRange> ranges = new ArrayList<>();
        for (int i = 99_999; i >= 0; i--) {
            // [4i, 4i + 2): the values 4i and 4i + 1
            ranges.add(ValueRange.of(4 * i, true, 4 * i + 2, false));
        }
        Predicate predicate = inRanges(X, ranges);
        assertThat(predicate).isInstanceOf(InRanges.class);
        assertThat(((InRanges) predicate).ranges()).hasSize(100_000);
        for (int value = -10; value < 400_010; value++) {
            int current = value;
            boolean expected = value >= 0 && value < 400_000 && value % 4 < 2;
            assertThat(RowEvaluator.test(predicate, ignored -> current)).as("%s", value).isEqualTo(expected);
        }
        assertThat(StatsEvaluator.mightMatch(predicate, stats(X, List.of(2, 3)))).isFalse();
        assertThat(StatsEvaluator.mightMatch(predicate, stats(X, List.of(3, 4)))).isTrue();
        assertThat(StatsEvaluator.mightMatch(predicate, stats(X, List.of(400_000, 500_000)))).isFalse();
        assertThat(StatsEvaluator.mightMatch(not(predicate), stats(X, List.of(8, 9)))).isFalse();
        assertThat(StatsEvaluator.mightMatch(not(predicate), stats(X, List.of(8, 10)))).isTrue();
    }

    @Test
    public void testFloatingPointAsSql()
    {
        Predicate predicate = inRanges(D, List.of(ValueRange.of(null, false, -1.0, false), ValueRange.of(-0.0, true, 0.0, true), ValueRange.of(2.0, false, Double.NaN, true)));
        // the range with a NaN bound holds nothing; [-0.0, 0.0] is the value zero
        assertThat(((InRanges) predicate).ranges()).containsExactly(ValueRange.of(null, false, -1.0, false), ValueRange.of(-0.0, true, 0.0, true));
        assertThat(RowEvaluator.test(predicate, ignored -> 0.0)).isTrue();
        assertThat(RowEvaluator.test(predicate, ignored -> -0.0)).isTrue();
        assertThat(RowEvaluator.test(predicate, ignored -> Double.NaN)).isFalse();
        assertThat(RowEvaluator.test(not(predicate), ignored -> Double.NaN)).isTrue();
        assertThat(RowEvaluator.test(predicate, ignored -> Double.NEGATIVE_INFINITY)).isTrue();
        assertThat(RowEvaluator.test(predicate, ignored -> 3.0)).isFalse();
        // (0.0, 1.0) and [-0.0, -0.0]: zero is in the second only
        Predicate zeros = inRanges(F, List.of(ValueRange.of(0.0f, false, 1.0f, false), ValueRange.point(-0.0f), ValueRange.of(5.0f, true, null, false)));
        assertThat(RowEvaluator.test(zeros, ignored -> 0.0f)).isTrue();
        assertThat(RowEvaluator.test(zeros, ignored -> 0.5f)).isTrue();
        assertThat(RowEvaluator.test(zeros, ignored -> Float.NaN)).isFalse();
        assertThat(RowEvaluator.test(zeros, ignored -> Float.POSITIVE_INFINITY)).isTrue();
        // ranges whose union holds every number hold NaN only when one of them has no bound
        Predicate numbers = inRanges(D, List.of(ValueRange.of(null, false, 1.0, true), ValueRange.of(0.0, false, null, false)));
        assertThat(RowEvaluator.test(numbers, ignored -> Double.NaN)).isFalse();
        assertThat(RowEvaluator.test(numbers, ignored -> 1.0)).isTrue();
        assertThat(RowEvaluator.test(numbers, ignored -> Double.NEGATIVE_INFINITY)).isTrue();
        assertThat(RowEvaluator.test(numbers, ignored -> Double.POSITIVE_INFINITY)).isTrue();
        assertThat(RowEvaluator.test(not(numbers), ignored -> Double.NaN)).isTrue();
        // NaN may lie outside floating-point bounds: NOT IN RANGES never skips on them
        assertThat(StatsEvaluator.mightMatch(not(zeros), stats(F, List.of(0.25f, 0.75f)))).isTrue();
        assertThat(StatsEvaluator.mightMatch(zeros, stats(F, List.of(1.0f, 4.0f)))).isFalse();
        assertThat(StatsEvaluator.mightMatch(zeros, stats(F, List.of(-0.0f, -0.0f)))).isTrue();
    }

    @Test
    public void testNormalization()
    {
        assertThat(inRanges(X, List.of())).isEqualTo(Predicates.alwaysFalse());
        assertThat(inRanges(X, List.of(ValueRange.of(3, true, 1, true), ValueRange.of(2, false, 2, true)))).isEqualTo(Predicates.alwaysFalse());
        // no bounds: TRUE on every non-null value, unknown (not FALSE, as IS NOT NULL) on NULL
        Predicate unbounded = inRanges(X, List.of(ValueRange.of(null, false, null, false)));
        assertThat(unbounded).isInstanceOf(InRanges.class);
        assertThat(RowEvaluator.evaluate(unbounded, ignored -> 3)).isTrue();
        assertThat(RowEvaluator.evaluate(not(unbounded), ignored -> null)).isNull();
        assertThat(RowEvaluator.evaluate(inRanges(D, List.of(ValueRange.of(null, false, null, false))), ignored -> Double.NaN)).isTrue();
        assertThat(inRanges(X, List.of(ValueRange.point(4)))).isEqualTo(equal(X, 4));
        assertThat(inRanges(X, List.of(ValueRange.of(2, true, 5, true), ValueRange.of(1, false, 3, true)))).isEqualTo(and(greaterThan(X, 1), lessOrEqual(X, 5)));
        // ranges that touch at an included point merge; at an excluded one they stay apart
        assertThat(inRanges(X, List.of(ValueRange.of(1, true, 2, true), ValueRange.of(2, false, 3, false)))).isEqualTo(and(greaterOrEqual(X, 1), lessThan(X, 3)));
        Predicate apart = inRanges(X, List.of(ValueRange.of(2, false, 3, false), ValueRange.of(1, true, 2, false)));
        assertThat(apart).isInstanceOf(InRanges.class);
        assertThat(((InRanges) apart).ranges()).containsExactly(ValueRange.of(1, true, 2, false), ValueRange.of(2, false, 3, false));
        assertThat(RowEvaluator.test(apart, ignored -> 2)).isFalse();
        assertThat(inRanges(D, List.of(ValueRange.of(Double.NaN, true, 1.0, true)))).isEqualTo(Predicates.alwaysFalse());
        // the record itself takes only the normalized form
        assertThatThrownBy(() -> new InRanges(X, List.of(ValueRange.of(5, true, 6, true), ValueRange.of(1, true, 2, true))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not ascending and disjoint");
        assertThatThrownBy(() -> new InRanges(X, List.of(ValueRange.of(1, true, 3, true), ValueRange.of(3, true, 4, true))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new InRanges(X, List.of(ValueRange.of(1L, true, 3L, true))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not match column x");
    }

    @Test
    public void testFormatsAsSql()
    {
        Predicate predicate = inRanges(S, List.of(ValueRange.of("a", true, "b", false), ValueRange.point("c'd"), ValueRange.of("x", false, null, false)));
        assertThat(predicate).hasToString("(s >= 'a' AND s < 'b') OR s = 'c''d' OR s > 'x'");
        assertThat(and(predicate, equal(X, 1))).hasToString("((s >= 'a' AND s < 'b') OR s = 'c''d' OR s > 'x') AND x = 1");
        assertThat(not(predicate)).hasToString("NOT ((s >= 'a' AND s < 'b') OR s = 'c''d' OR s > 'x')");
    }

    private static StatsProvider stats(FieldRef field, List<Object> values)
    {
        Object min = null;
        Object max = null;
        for (Object value : values) {
            if (min == null || ValueComparator.compare(field.type(), value, min) < 0) {
                min = value;
            }
            if (max == null || ValueComparator.compare(field.type(), value, max) > 0) {
                max = value;
            }
        }
        return new FixedStats(Map.of(field, new ColumnStats(min, max, 0L, values.size())), OptionalLong.of(values.size()));
    }
}
