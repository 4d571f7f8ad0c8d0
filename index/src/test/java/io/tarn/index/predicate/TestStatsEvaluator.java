package io.tarn.index.predicate;

import io.tarn.index.predicate.Predicate.And;
import io.tarn.index.predicate.Predicate.Comparison;
import io.tarn.index.predicate.Predicate.In;
import io.tarn.index.predicate.Predicate.IsNotNull;
import io.tarn.index.predicate.Predicate.IsNull;
import io.tarn.index.predicate.Predicate.Not;
import io.tarn.index.predicate.Predicate.Or;
import io.tarn.index.predicate.Predicate.StartsWith;
import io.tarn.index.predicate.RandomPredicates.FixedStats;
import io.tarn.types.DataTypes;
import io.tarn.types.ValueComparator;
import org.testng.annotations.Test;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Collectors;

import static io.tarn.index.predicate.Predicates.alwaysTrue;
import static io.tarn.index.predicate.Predicates.and;
import static io.tarn.index.predicate.Predicates.equal;
import static io.tarn.index.predicate.Predicates.greaterOrEqual;
import static io.tarn.index.predicate.Predicates.greaterThan;
import static io.tarn.index.predicate.Predicates.in;
import static io.tarn.index.predicate.Predicates.isNotNull;
import static io.tarn.index.predicate.Predicates.isNull;
import static io.tarn.index.predicate.Predicates.lessOrEqual;
import static io.tarn.index.predicate.Predicates.lessThan;
import static io.tarn.index.predicate.Predicates.not;
import static io.tarn.index.predicate.Predicates.notEqual;
import static io.tarn.index.predicate.Predicates.notIn;
import static io.tarn.index.predicate.Predicates.or;
import static io.tarn.index.predicate.Predicates.startsWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

public class TestStatsEvaluator
{
    private static final FieldRef X = new FieldRef(1, "x", DataTypes.integer());
    private static final FieldRef Y = new FieldRef(2, "y", DataTypes.integer());
    private static final FieldRef S = new FieldRef(3, "s", DataTypes.string());
    private static final FieldRef D = new FieldRef(4, "d", DataTypes.doubleType());
    private static final FieldRef F = new FieldRef(5, "f", DataTypes.floatType());

    @Test
    public void testNeverSkipsMatchingRows()
    {
        long seed = System.nanoTime();
        System.out.println("TestStatsEvaluator.testNeverSkipsMatchingRows seed: " + seed);
        Random random = new Random(seed);
        RandomPredicates generator = new RandomPredicates(random);
        int cases = 20_000;
        int noMatch = 0;
        int skipped = 0;
        for (int i = 0; i < cases; i++) {
            List<Object[]> rows = generator.rows(6);
            Predicate predicate = generator.predicate(3);
            boolean exact = random.nextInt(3) == 0;
            StatsProvider stats = exact ? generator.stats(rows, true) : asOtherWritersWrite(generator.stats(rows, false), rows, random);

            boolean matches = rows.stream().anyMatch(row -> Boolean.TRUE.equals(evaluateSql(predicate, RandomPredicates.valueOf(row))));
            boolean mightMatch = StatsEvaluator.mightMatch(predicate, stats);
            if (matches && !mightMatch) {
                fail("Wrong skip (seed %s, case %s): %s on rows %s with stats %s", seed, i, predicate, describe(rows), stats);
            }
            if (!matches && exact) {
                noMatch++;
                if (!mightMatch) {
                    skipped++;
                }
            }
            if (exact && !rows.isEmpty() && predicate instanceof Comparison comparison) {
                assertObviousSkip(comparison, rows, mightMatch, seed);
            }
        }
        // exact stats must prune a fair share of the units with no match, or the evaluator is useless
        assertThat(skipped).as("skipped of %s non-matching cases with exact stats (seed %s)", noMatch, seed).isGreaterThan(noMatch / 3);
    }

    @Test
    public void testAllMatchOnlyWhenEveryRowIsTrue()
    {
        long seed = System.nanoTime();
        System.out.println("TestStatsEvaluator.testAllMatchOnlyWhenEveryRowIsTrue seed: " + seed);
        Random random = new Random(seed);
        RandomPredicates generator = new RandomPredicates(random);
        int proven = 0;
        for (int i = 0; i < 20_000; i++) {
            List<Object[]> rows = generator.rows(6);
            Predicate predicate = generator.predicate(3);
            StatsProvider stats = generator.stats(rows, random.nextBoolean());
            if (StatsEvaluator.allMatch(predicate, stats)) {
                proven++;
                for (Object[] row : rows) {
                    if (!RowEvaluator.test(predicate, RandomPredicates.valueOf(row))) {
                        fail("Wrong all-match (seed %s, case %s): %s on rows %s with stats %s", seed, i, predicate, describe(rows), stats);
                    }
                }
            }
        }
        assertThat(proven).as("units proven to match entirely (seed %s)", seed).isGreaterThan(100);
    }

    @Test
    public void testAllMatchWorkedByHand()
    {
        StatsProvider stats = stats(X, 0, 5, 0L, 10);
        assertThat(StatsEvaluator.allMatch(lessOrEqual(X, 5), stats)).isTrue();
        assertThat(StatsEvaluator.allMatch(lessThan(X, 5), stats)).isFalse();
        assertThat(StatsEvaluator.allMatch(not(equal(X, 7)), stats)).isTrue();
        assertThat(StatsEvaluator.allMatch(or(greaterThan(X, 3), lessOrEqual(X, 5)), stats)).isTrue();
        assertThat(StatsEvaluator.allMatch(isNotNull(X), stats)).isTrue();
        // a NULL makes its row unknown, and an unknown null count proves nothing
        assertThat(StatsEvaluator.allMatch(lessOrEqual(X, 5), stats(X, 0, 5, 1L, 10))).isFalse();
        assertThat(StatsEvaluator.allMatch(lessOrEqual(X, 5), stats(X, 0, 5, null, 10))).isFalse();
        // string bounds may be truncated, floating-point bounds leave NaN out
        assertThat(StatsEvaluator.allMatch(lessOrEqual(S, "b"), stats(S, "a", "ab", 0L, 10))).isFalse();
        assertThat(StatsEvaluator.allMatch(lessOrEqual(D, 9.0), stats(D, 1.0, 2.0, 0L, 10))).isFalse();
        // no statistics for a column
        assertThat(StatsEvaluator.allMatch(lessOrEqual(Y, 5), stats)).isFalse();
    }

    @Test
    public void testAllMatchByAnExactValue()
    {
        // a partition's string value is exact: comparisons with it are decided
        StatsProvider day = exactValue(S, "2024-01-01", 10);
        assertThat(StatsEvaluator.allMatch(equal(S, "2024-01-01"), day)).isTrue();
        assertThat(StatsEvaluator.allMatch(in(S, List.of("2024-01-01", "2024-01-02")), day)).isTrue();
        assertThat(StatsEvaluator.allMatch(greaterOrEqual(S, "2024"), day)).isTrue();
        assertThat(StatsEvaluator.allMatch(notEqual(S, "2024-01-02"), day)).isTrue();
        assertThat(StatsEvaluator.allMatch(equal(S, "2024-01-02"), day)).isFalse();
        assertThat(StatsEvaluator.allMatch(lessThan(S, "2024-01-01"), day)).isFalse();
        // the same bounds from a writer may be a truncated prefix of longer values
        assertThat(StatsEvaluator.allMatch(equal(S, "2024-01-01"), stats(S, "2024-01-01", "2024-01-01", 0L, 10))).isFalse();
        // a null partition makes every row unknown
        assertThat(StatsEvaluator.allMatch(notEqual(S, "x"), exactValue(S, null, 10))).isFalse();
        assertThat(StatsEvaluator.allMatch(isNull(S), exactValue(S, null, 10))).isFalse();
        // NaN is unordered: no comparison with it is TRUE, even known exactly
        assertThat(StatsEvaluator.allMatch(greaterThan(D, 0.0), exactValue(D, Double.NaN, 10))).isFalse();
        assertThat(StatsEvaluator.allMatch(lessOrEqual(D, 0.0), exactValue(D, Double.NaN, 10))).isFalse();
        assertThatThrownBy(() -> new ColumnStats("a", "b", 0L, 10, true)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    public void testUnprovenConjunctsKeepEveryRowsAnswer()
    {
        long seed = System.nanoTime();
        System.out.println("TestStatsEvaluator.testUnprovenConjunctsKeepEveryRowsAnswer seed: " + seed);
        Random random = new Random(seed);
        RandomPredicates generator = new RandomPredicates(random);
        int dropped = 0;
        for (int i = 0; i < 20_000; i++) {
            List<Object[]> rows = generator.rows(6);
            Predicate predicate = and(generator.predicate(2), generator.predicate(2));
            StatsProvider stats = generator.stats(rows, random.nextBoolean());
            Optional<Predicate> unproven = StatsEvaluator.unprovenConjuncts(predicate, stats);
            if (!unproven.equals(Optional.of(predicate))) {
                dropped++;
            }
            for (Object[] row : rows) {
                boolean whole = RowEvaluator.test(predicate, RandomPredicates.valueOf(row));
                boolean rest = unproven.isEmpty() || RowEvaluator.test(unproven.get(), RandomPredicates.valueOf(row));
                if (whole != rest) {
                    fail("Conjuncts dropped wrongly (seed %s, case %s): %s left %s on rows %s with stats %s", seed, i, predicate, unproven, describe(rows), stats);
                }
            }
        }
        assertThat(dropped).as("filters left with fewer conjuncts (seed %s)", seed).isGreaterThan(100);
    }

    @Test
    public void testUnprovenConjunctsWorkedByHand()
    {
        StatsProvider stats = stats(X, 0, 5, 0L, 10);
        Predicate inside = lessOrEqual(X, 5);
        Predicate outside = greaterThan(X, 3);
        assertThat(StatsEvaluator.unprovenConjuncts(and(inside, outside), stats)).contains(outside);
        assertThat(StatsEvaluator.unprovenConjuncts(and(inside, not(equal(X, 7))), stats)).isEmpty();
        assertThat(StatsEvaluator.unprovenConjuncts(outside, stats)).contains(outside);
        Predicate unknown = lessOrEqual(Y, 5);
        assertThat(StatsEvaluator.unprovenConjuncts(and(inside, outside, unknown), stats)).contains(and(outside, unknown));
    }

    /**
     * An independent check that an equality or range literal strictly outside the exact value
     * range of a column without NaN or zeros is pruned.
     */
    private static void assertObviousSkip(Comparison comparison, List<Object[]> rows, boolean mightMatch, long seed)
    {
        FieldRef field = comparison.field();
        ColumnStats stats = RandomPredicates.exactStats(field, rows);
        Object literal = comparison.literal();
        if (stats.min() == null || isSpecialFloat(literal) || isSpecialFloat(stats.min()) || isSpecialFloat(stats.max())) {
            return;
        }
        int versusMin = ValueComparator.compare(field.type(), literal, stats.min());
        int versusMax = ValueComparator.compare(field.type(), literal, stats.max());
        boolean obvious = switch (comparison.op()) {
            case EQUAL -> versusMin < 0 || versusMax > 0;
            case LESS_THAN -> versusMin <= 0;
            case GREATER_THAN -> versusMax >= 0;
            default -> false;
        };
        if (obvious) {
            assertThat(mightMatch).as("%s with min %s max %s (seed %s)", comparison, stats.min(), stats.max(), seed).isFalse();
        }
    }

    private static boolean isSpecialFloat(Object value)
    {
        if (value instanceof Double doubleValue) {
            return doubleValue.isNaN() || doubleValue == 0.0;
        }
        if (value instanceof Float floatValue) {
            return floatValue.isNaN() || floatValue == 0.0f;
        }
        return false;
    }

    /**
     * Floating-point statistics as writers other than Paimon's collectors produce them: Parquet
     * writers leave NaN out of the bounds (and a column of only NaN gets NaN bounds, or none),
     * and keep either sign of a zero bound.
     */
    private static StatsProvider asOtherWritersWrite(StatsProvider stats, List<Object[]> rows, Random random)
    {
        FixedStats fixed = (FixedStats) stats;
        Map<FieldRef, ColumnStats> columns = new HashMap<>(fixed.columns());
        for (FieldRef field : List.of(RandomPredicates.DOUBLE, RandomPredicates.FLOAT)) {
            ColumnStats column = columns.get(field);
            if (column == null || random.nextBoolean()) {
                continue;
            }
            int index = RandomPredicates.FIELDS.indexOf(field);
            List<Double> numbers = rows.stream()
                    .map(row -> row[index])
                    .filter(value -> value != null && !Double.isNaN(((Number) value).doubleValue()))
                    .map(value -> ((Number) value).doubleValue())
                    .toList();
            boolean anyNaN = rows.stream().anyMatch(row -> row[index] != null && Double.isNaN(((Number) row[index]).doubleValue()));
            Object min;
            Object max;
            if (numbers.isEmpty()) {
                min = anyNaN && random.nextBoolean() ? nan(field) : null;
                max = min;
            }
            else {
                double low = numbers.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
                double high = numbers.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
                // either sign of a zero bound
                if (low == 0.0) {
                    low = random.nextBoolean() ? 0.0 : -0.0;
                }
                if (high == 0.0) {
                    high = random.nextBoolean() ? 0.0 : -0.0;
                }
                min = asType(field, low);
                max = asType(field, high);
            }
            columns.put(field, new ColumnStats(min, max, column.nullCount(), column.rowCount()));
        }
        return new FixedStats(columns, fixed.rowCount());
    }

    private static Object nan(FieldRef field)
    {
        return field.equals(RandomPredicates.FLOAT) ? (Object) Float.NaN : (Object) Double.NaN;
    }

    private static Object asType(FieldRef field, double value)
    {
        return field.equals(RandomPredicates.FLOAT) ? (Object) (float) value : (Object) value;
    }

    /**
     * Row evaluation with FLOAT and DOUBLE leaves decided by Java's operators on primitives,
     * which are IEEE 754's comparisons as SQL (Trino) uses them: -0.0 = 0.0, NaN is unequal to
     * everything and neither below nor above anything; other leaves by the row evaluator.
     */
    private static Boolean evaluateSql(Predicate predicate, Function<FieldRef, Object> valueOf)
    {
        if (predicate instanceof Comparison comparison && isFloating(comparison.field())) {
            Object value = valueOf.apply(comparison.field());
            if (value == null) {
                return null;
            }
            double left = ((Number) value).doubleValue();
            double right = ((Number) comparison.literal()).doubleValue();
            return switch (comparison.op()) {
                case EQUAL -> left == right;
                case NOT_EQUAL -> left != right;
                case LESS_THAN -> left < right;
                case LESS_THAN_OR_EQUAL -> left <= right;
                case GREATER_THAN -> left > right;
                case GREATER_THAN_OR_EQUAL -> left >= right;
            };
        }
        if (predicate instanceof In in && isFloating(in.field())) {
            Object value = valueOf.apply(in.field());
            if (value == null) {
                return null;
            }
            return in.literals().stream().anyMatch(literal -> ((Number) value).doubleValue() == ((Number) literal).doubleValue());
        }
        if (predicate instanceof Predicate.InRanges inRanges) {
            // the OR of each range's bound comparisons, as SQL writes it
            Object value = valueOf.apply(inRanges.field());
            if (value == null) {
                return null;
            }
            return inRanges.ranges().stream().anyMatch(range -> TestRangeList.referenceContains(inRanges.field().type(), range, value));
        }
        if (predicate instanceof And and) {
            List<Boolean> results = and.children().stream().map(child -> evaluateSql(child, valueOf)).toList();
            return results.contains(false) ? Boolean.FALSE : results.contains(null) ? null : Boolean.TRUE;
        }
        if (predicate instanceof Or or) {
            List<Boolean> results = or.children().stream().map(child -> evaluateSql(child, valueOf)).toList();
            return results.contains(true) ? Boolean.TRUE : results.contains(null) ? null : Boolean.FALSE;
        }
        if (predicate instanceof Not not) {
            Boolean result = evaluateSql(not.predicate(), valueOf);
            return result == null ? null : !result;
        }
        return RowEvaluator.evaluate(predicate, valueOf);
    }

    private static boolean isFloating(FieldRef field)
    {
        return field.type().equals(DataTypes.doubleType()) || field.type().equals(DataTypes.floatType());
    }

    private static String describe(List<Object[]> rows)
    {
        return rows.stream().map(Arrays::toString).collect(Collectors.joining(", ", "[", "]"));
    }

    @Test
    public void testComparisonsAgainstRange()
    {
        StatsProvider stats = stats(X, 0, 5, 0L, 10);
        assertThat(mightMatch(equal(X, 10), stats)).isFalse();
        assertThat(mightMatch(equal(X, -1), stats)).isFalse();
        assertThat(mightMatch(equal(X, 0), stats)).isTrue();
        assertThat(mightMatch(equal(X, 3), stats)).isTrue();
        assertThat(mightMatch(equal(X, 5), stats)).isTrue();
        assertThat(mightMatch(lessThan(X, 0), stats)).isFalse();
        assertThat(mightMatch(lessThan(X, 1), stats)).isTrue();
        assertThat(mightMatch(lessOrEqual(X, -1), stats)).isFalse();
        assertThat(mightMatch(lessOrEqual(X, 0), stats)).isTrue();
        assertThat(mightMatch(greaterThan(X, 5), stats)).isFalse();
        assertThat(mightMatch(greaterThan(X, 4), stats)).isTrue();
        assertThat(mightMatch(greaterOrEqual(X, 6), stats)).isFalse();
        assertThat(mightMatch(greaterOrEqual(X, 5), stats)).isTrue();
        assertThat(mightMatch(notEqual(X, 3), stats)).isTrue();
    }

    @Test
    public void testUnknownBounds()
    {
        assertThat(mightMatch(equal(X, 10), stats(X, null, 5, 0L, 10))).isFalse();
        assertThat(mightMatch(equal(X, -10), stats(X, null, 5, 0L, 10))).isTrue();
        assertThat(mightMatch(equal(X, -10), stats(X, 0, null, 0L, 10))).isFalse();
        assertThat(mightMatch(equal(X, 10), stats(X, 0, null, 0L, 10))).isTrue();
        assertThat(mightMatch(equal(X, 10), new FixedStats(Map.of(), OptionalLong.empty()))).isTrue();
        assertThat(mightMatch(equal(X, 10), new FixedStats(Map.of(), OptionalLong.of(3)))).isTrue();
        // a column without stats does not prevent pruning by another
        assertThat(mightMatch(and(equal(Y, 1), equal(X, 10)), stats(X, 0, 5, 0L, 10))).isFalse();
    }

    @Test
    public void testNotEqual()
    {
        // every non-null value is 5; NULL rows make x <> 5 unknown, never TRUE
        assertThat(mightMatch(notEqual(X, 5), stats(X, 5, 5, 0L, 10))).isFalse();
        assertThat(mightMatch(notEqual(X, 5), stats(X, 5, 5, 4L, 10))).isFalse();
        assertThat(mightMatch(notEqual(X, 5), stats(X, 5, 5, null, 10))).isFalse();
        assertThat(mightMatch(notEqual(X, 4), stats(X, 5, 5, 0L, 10))).isTrue();
        assertThat(mightMatch(notEqual(X, 5), stats(X, 5, 6, 0L, 10))).isTrue();
        assertThat(mightMatch(notEqual(X, 5), stats(X, 5, null, 0L, 10))).isTrue();
        assertThat(mightMatch(not(equal(X, 5)), stats(X, 5, 5, 3L, 10))).isFalse();
        assertThat(mightMatch(not(notEqual(X, 5)), stats(X, 5, 5, 3L, 10))).isTrue();
    }

    @Test
    public void testNullCounts()
    {
        assertThat(mightMatch(isNull(X), stats(X, 0, 5, 0L, 10))).isFalse();
        assertThat(mightMatch(isNull(X), stats(X, 0, 5, 1L, 10))).isTrue();
        assertThat(mightMatch(isNull(X), stats(X, 0, 5, null, 10))).isTrue();
        assertThat(mightMatch(isNotNull(X), stats(X, null, null, 10L, 10))).isFalse();
        assertThat(mightMatch(isNotNull(X), stats(X, null, null, 9L, 10))).isTrue();
        assertThat(mightMatch(isNotNull(X), stats(X, null, null, null, 10))).isTrue();
        assertThat(mightMatch(not(isNull(X)), stats(X, null, null, 10L, 10))).isFalse();
        assertThat(mightMatch(not(isNotNull(X)), stats(X, 0, 5, 0L, 10))).isFalse();

        // all null: no leaf but IS NULL can be TRUE, even NOT IN and NOT starts_with
        StatsProvider allNull = new FixedStats(Map.of(X, new ColumnStats(null, null, 4L, 4), S, new ColumnStats(null, null, 4L, 4)), OptionalLong.of(4));
        assertThat(mightMatch(equal(X, 1), allNull)).isFalse();
        assertThat(mightMatch(notEqual(X, 1), allNull)).isFalse();
        assertThat(mightMatch(in(X, List.of(1, 2)), allNull)).isFalse();
        assertThat(mightMatch(notIn(X, List.of(1, 2)), allNull)).isFalse();
        assertThat(mightMatch(startsWith(S, "a"), allNull)).isFalse();
        assertThat(mightMatch(not(startsWith(S, "a")), allNull)).isFalse();
        assertThat(mightMatch(isNull(X), allNull)).isTrue();
        assertThat(mightMatch(or(equal(X, 1), isNull(S)), allNull)).isTrue();
    }

    @Test
    public void testEmptyUnit()
    {
        StatsProvider empty = new FixedStats(Map.of(), OptionalLong.of(0));
        assertThat(mightMatch(alwaysTrue(), empty)).isFalse();
        assertThat(mightMatch(isNull(X), empty)).isFalse();
        assertThat(mightMatch(alwaysTrue(), new FixedStats(Map.of(), OptionalLong.empty()))).isTrue();
        // an empty unit known only from a column's stats
        StatsProvider emptyColumn = new FixedStats(Map.of(X, new ColumnStats(null, null, null, 0)), OptionalLong.empty());
        assertThat(mightMatch(isNull(X), emptyColumn)).isFalse();
        assertThat(mightMatch(isNotNull(X), emptyColumn)).isFalse();
        assertThat(mightMatch(notEqual(X, 1), emptyColumn)).isFalse();
    }

    @Test
    public void testIn()
    {
        StatsProvider stats = stats(X, 0, 5, 0L, 10);
        assertThat(mightMatch(in(X, List.of(-3, 7, 100)), stats)).isFalse();
        assertThat(mightMatch(in(X, List.of(-3, 5, 100)), stats)).isTrue();
        assertThat(mightMatch(notIn(X, List.of(0, 5)), stats)).isTrue();
        assertThat(mightMatch(notIn(X, List.of(3, 4)), stats(X, 3, 3, 2L, 10))).isFalse();
        assertThat(mightMatch(notIn(X, List.of(4)), stats(X, 3, 3, 2L, 10))).isTrue();
        assertThat(mightMatch(notIn(X, List.of(3)), stats(X, 3, null, 2L, 10))).isTrue();
    }

    @Test
    public void testStartsWith()
    {
        StatsProvider stats = stats(S, "abc", "abd", 0L, 10);
        assertThat(mightMatch(startsWith(S, "abc"), stats)).isTrue();
        assertThat(mightMatch(startsWith(S, "ab"), stats)).isTrue();
        assertThat(mightMatch(startsWith(S, "abd"), stats)).isTrue();
        assertThat(mightMatch(startsWith(S, ""), stats)).isTrue();
        assertThat(mightMatch(startsWith(S, "abz"), stats)).isFalse();
        assertThat(mightMatch(startsWith(S, "b"), stats)).isFalse();
        assertThat(mightMatch(startsWith(S, "aa"), stats)).isFalse();
        assertThat(mightMatch(startsWith(S, "abb"), stats)).isFalse();
        // min is below the prefix, max starts with it
        assertThat(mightMatch(startsWith(S, "abd"), stats(S, "a", "abdx", 0L, 10))).isTrue();
        // U+1F600 sorts above U+FFFD by code point: the range ["\uFFFD", "\uD83D\uDE00"] holds "\uD83D..."
        assertThat(mightMatch(startsWith(S, "\uD83D\uDE00"), stats(S, "\uFFFD", "\uD83D\uDE00z", 0L, 10))).isTrue();
        assertThat(mightMatch(startsWith(S, "\uFFFD"), stats(S, "\uD83D\uDE00", "\uD83D\uDE01", 0L, 10))).isFalse();

        assertThat(mightMatch(not(startsWith(S, "ab")), stats)).isFalse();
        assertThat(mightMatch(not(startsWith(S, "abc")), stats)).isTrue();
        assertThat(mightMatch(not(startsWith(S, "ab")), stats(S, "abc", null, 0L, 10))).isTrue();
    }

    @Test
    public void testTruncatedStringStats()
    {
        // values like "abcq" .. "abcz...": min truncated to the prefix "abc", max to the upper bound "abd"
        StatsProvider stats = stats(S, "abc", "abd", 0L, 10);
        assertThat(mightMatch(equal(S, "abcz"), stats)).isTrue();
        assertThat(mightMatch(equal(S, "abczzzz"), stats)).isTrue();
        assertThat(mightMatch(lessThan(S, "abb"), stats)).isFalse();
        assertThat(mightMatch(lessThan(S, "abca"), stats)).isTrue();
        assertThat(mightMatch(greaterThan(S, "abd"), stats)).isFalse();
        assertThat(mightMatch(greaterOrEqual(S, "abd"), stats)).isTrue();
        assertThat(mightMatch(equal(S, "abda"), stats)).isFalse();
        // "abd" is only a bound here, so x <> 'abd' cannot be ruled out
        assertThat(mightMatch(notEqual(S, "abc"), stats)).isTrue();
    }

    @Test
    public void testNaN()
    {
        // a NaN bound leaves the writer's order unknown: neither bound is used
        assertThat(mightMatch(greaterThan(D, 100.0), stats(D, 1.0, Double.NaN, 0L, 10))).isTrue();
        assertThat(mightMatch(lessThan(D, -100.0), stats(D, Double.NaN, 2.0, 0L, 10))).isTrue();
        assertThat(mightMatch(lessThan(D, -100.0), stats(D, Double.NaN, Double.NaN, 0L, 10))).isTrue();
        // NaN equals nothing and is neither below nor above anything: no row makes these TRUE
        assertThat(mightMatch(equal(D, Double.NaN), stats(D, 1.0, 2.0, 0L, 10))).isFalse();
        assertThat(mightMatch(equal(D, Double.NaN), stats(D, Double.NaN, Double.NaN, 0L, 10))).isFalse();
        assertThat(mightMatch(lessThan(D, Double.NaN), stats(D, 1.0, 2.0, 0L, 10))).isFalse();
        assertThat(mightMatch(greaterOrEqual(F, Float.NaN), stats(F, 1.0f, 2.0f, 0L, 10))).isFalse();
        assertThat(mightMatch(in(D, List.of(Double.NaN, 5.0)), stats(D, 1.0, 2.0, 0L, 10))).isFalse();
        assertThat(mightMatch(in(D, List.of(Double.NaN, 1.5)), stats(D, 1.0, 2.0, 0L, 10))).isTrue();
        assertThat(mightMatch(equal(F, Float.NaN), stats(F, 1.0f, 2.0f, 0L, 10))).isFalse();
        // NaN <> v, NaN NOT IN (...) and NOT (NaN < v) are TRUE, and writers leave NaN out of the bounds
        assertThat(mightMatch(notEqual(D, Double.NaN), stats(D, Double.NaN, Double.NaN, 0L, 10))).isTrue();
        assertThat(mightMatch(notEqual(D, 5.0), stats(D, 5.0, 5.0, 0L, 10))).isTrue();
        assertThat(mightMatch(notIn(D, List.of(5.0)), stats(D, 5.0, 5.0, 0L, 10))).isTrue();
        assertThat(mightMatch(not(lessThan(D, 9.0)), stats(D, 1.0, 2.0, 0L, 10))).isTrue();
        assertThat(mightMatch(not(greaterOrEqual(F, 0.0f)), stats(F, 1.0f, 2.0f, 0L, 10))).isTrue();
        // but not when every value is null
        assertThat(mightMatch(notEqual(D, 5.0), stats(D, null, null, 10L, 10))).isFalse();
        assertThat(mightMatch(not(lessThan(D, 9.0)), stats(D, null, null, 10L, 10))).isFalse();
        // for other types the bounds hold every value
        assertThat(mightMatch(notEqual(X, 5), stats(X, 5, 5, 0L, 10))).isFalse();
        assertThat(mightMatch(not(lessThan(X, 9)), stats(X, 1, 2, 0L, 10))).isFalse();
        // bounds without NaN still prune =, IN and ranges
        assertThat(mightMatch(equal(D, 5.0), stats(D, 1.0, 2.0, 0L, 10))).isFalse();
        assertThat(mightMatch(greaterThan(D, 2.0), stats(D, 1.0, 2.0, 0L, 10))).isFalse();
        assertThat(mightMatch(lessThan(F, 1.0f), stats(F, 1.0f, 2.0f, 0L, 10))).isFalse();
        assertThat(mightMatch(greaterThan(D, 1e300), stats(D, 1.0, Double.POSITIVE_INFINITY, 0L, 10))).isTrue();
    }

    @Test
    public void testSignedZero()
    {
        // to SQL -0.0 = 0.0, whatever sign the writer kept in the bounds
        assertThat(mightMatch(equal(D, 0.0), stats(D, -0.0, -0.0, 0L, 10))).isTrue();
        assertThat(mightMatch(equal(D, -0.0), stats(D, 0.0, 0.0, 0L, 10))).isTrue();
        assertThat(mightMatch(in(D, List.of(0.0)), stats(D, -0.0, -0.0, 0L, 10))).isTrue();
        assertThat(mightMatch(in(D, List.of(-0.0)), stats(D, 0.0, 1.0, 0L, 10))).isTrue();
        assertThat(mightMatch(greaterOrEqual(D, 0.0), stats(D, -1.0, -0.0, 0L, 10))).isTrue();
        assertThat(mightMatch(lessOrEqual(D, -0.0), stats(D, 0.0, 1.0, 0L, 10))).isTrue();
        assertThat(mightMatch(lessOrEqual(D, -0.0), stats(D, 0.0, 0.0, 0L, 10))).isTrue();
        assertThat(mightMatch(greaterOrEqual(D, 0.0), stats(D, -0.0, -0.0, 0L, 10))).isTrue();
        assertThat(mightMatch(notEqual(D, 0.0), stats(D, -0.0, -0.0, 0L, 10))).isTrue();
        assertThat(mightMatch(equal(F, 0.0f), stats(F, -0.0f, -0.0f, 0L, 10))).isTrue();
        assertThat(mightMatch(equal(F, -0.0f), stats(F, 0.0f, 0.0f, 0L, 10))).isTrue();
        // a zero max and a zero min of other signs are not bounds in the wrong order
        assertThat(mightMatch(equal(D, 5.0), stats(D, 0.0, -0.0, 0L, 10))).isFalse();
        // but no value of [0.0, 0.0] is below zero, nor any of [-1, -0.0] above it
        assertThat(mightMatch(lessThan(D, -0.0), stats(D, 0.0, 0.0, 0L, 10))).isFalse();
        assertThat(mightMatch(lessThan(D, 0.0), stats(D, -0.0, -0.0, 0L, 10))).isFalse();
        assertThat(mightMatch(greaterThan(D, 0.0), stats(D, -1.0, -0.0, 0L, 10))).isFalse();
        assertThat(mightMatch(greaterThan(D, -0.0), stats(D, -1.0, 0.0, 0L, 10))).isFalse();
        // subnormals are not zero
        assertThat(mightMatch(lessThan(D, 0.0), stats(D, -Double.MIN_VALUE, 1.0, 0L, 10))).isTrue();
        assertThat(mightMatch(equal(D, 0.0), stats(D, Double.MIN_VALUE, 1.0, 0L, 10))).isFalse();
        assertThat(mightMatch(greaterThan(F, 0.0f), stats(F, -1.0f, Float.MIN_VALUE, 0L, 10))).isTrue();
    }

    @Test
    public void testUnusableStats()
    {
        // Long bounds offered for an INT column are ignored, as are bounds in the wrong order
        assertThat(mightMatch(equal(X, 10), new FixedStats(Map.of(X, new ColumnStats(0L, 5L, 0L, 10)), OptionalLong.empty()))).isTrue();
        assertThat(mightMatch(equal(X, 10), stats(X, 5, 0, 0L, 10))).isTrue();
        // but the null count still prunes
        assertThat(mightMatch(isNull(X), new FixedStats(Map.of(X, new ColumnStats(0L, 5L, 0L, 10)), OptionalLong.empty()))).isFalse();
        // binary bounds are ordered as unsigned bytes
        FieldRef binary = new FieldRef(8, "b", DataTypes.bytes());
        StatsProvider binaryStats = stats(binary, new byte[] {0x01}, new byte[] {(byte) 0xF0}, 0L, 3);
        assertThat(mightMatch(equal(binary, new byte[] {(byte) 0x80}), binaryStats)).isTrue();
        assertThat(mightMatch(equal(binary, new byte[] {0x00}), binaryStats)).isFalse();
        assertThat(mightMatch(greaterThan(binary, new byte[] {(byte) 0xF0}), binaryStats)).isFalse();
        FieldRef decimal = new FieldRef(9, "m", DataTypes.decimal(10, 2));
        assertThat(mightMatch(equal(decimal, new BigDecimal("7.5")), stats(decimal, new BigDecimal("1.00"), new BigDecimal("7.50"), 0L, 3))).isTrue();
        assertThat(mightMatch(equal(decimal, new BigDecimal("7.51")), stats(decimal, new BigDecimal("1.00"), new BigDecimal("7.50"), 0L, 3))).isFalse();
    }

    @Test
    public void testLogic()
    {
        StatsProvider stats = new FixedStats(Map.of(X, new ColumnStats(0, 5, 0L, 10), Y, new ColumnStats(10, 20, 0L, 10)), OptionalLong.of(10));
        assertThat(mightMatch(and(equal(X, 1), equal(Y, 15)), stats)).isTrue();
        assertThat(mightMatch(and(equal(X, 1), equal(Y, 5)), stats)).isFalse();
        assertThat(mightMatch(or(equal(X, 9), equal(Y, 5)), stats)).isFalse();
        assertThat(mightMatch(or(equal(X, 9), equal(Y, 15)), stats)).isTrue();
        // NOT (x >= 0 AND y <= 20) = x < 0 OR y > 20
        assertThat(mightMatch(not(and(greaterOrEqual(X, 0), lessOrEqual(Y, 20))), stats)).isFalse();
        assertThat(mightMatch(not(and(greaterOrEqual(X, 1), lessOrEqual(Y, 20))), stats)).isTrue();
        assertThat(mightMatch(new Not(new Not(equal(X, 9))), stats)).isFalse();
        assertThat(mightMatch(new Not(new In(X, List.of(1))), stats)).isTrue();
        assertThat(mightMatch(new Not(new StartsWith(S, "a")), stats)).isTrue();
        assertThat(mightMatch(new And(List.of(new IsNotNull(X), new IsNull(Y))), stats)).isFalse();
        assertThat(mightMatch(new Or(List.of(new IsNull(X), new IsNull(Y))), stats)).isFalse();
    }

    private static boolean mightMatch(Predicate predicate, StatsProvider stats)
    {
        return StatsEvaluator.mightMatch(predicate, stats);
    }

    private static StatsProvider exactValue(FieldRef field, Object value, long rowCount)
    {
        return new FixedStats(Map.of(field, ColumnStats.ofValue(value, rowCount)), OptionalLong.of(rowCount));
    }

    private static StatsProvider stats(FieldRef field, Object min, Object max, Long nullCount, long rowCount)
    {
        return new FixedStats(Map.of(field, new ColumnStats(min, max, nullCount, rowCount)), OptionalLong.of(rowCount));
    }
}
