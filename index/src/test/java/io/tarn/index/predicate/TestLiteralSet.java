package io.tarn.index.predicate;

import io.tarn.index.predicate.Predicate.In;
import io.tarn.index.predicate.RandomPredicates.FixedStats;
import io.tarn.types.DataType;
import io.tarn.types.DataTypes;
import io.tarn.types.Timestamp;
import io.tarn.types.ValueComparator;
import org.testng.annotations.Test;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.function.Function;

import static io.tarn.index.predicate.Predicates.in;
import static io.tarn.index.predicate.Predicates.not;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The literals of {@link Predicate.In} (a {@link LiteralSet}): sorted and deduplicated once,
 * looked up by binary search or hash, and checked against a walk over the literals written here
 * with Java's operators (IEEE 754 for FLOAT / DOUBLE, as SQL compares): row by row, by the
 * primitive and byte lookups the batch filter uses, and from statistics.
 */
public class TestLiteralSet
{
    private static final FieldRef X = new FieldRef(1, "x", DataTypes.integer());
    private static final FieldRef L = new FieldRef(2, "l", DataTypes.bigint());
    private static final FieldRef D = new FieldRef(3, "d", DataTypes.doubleType());
    private static final FieldRef F = new FieldRef(4, "f", DataTypes.floatType());
    private static final FieldRef S = new FieldRef(5, "s", DataTypes.string());
    private static final FieldRef DEC = new FieldRef(6, "dec", DataTypes.decimal(10, 2));
    private static final FieldRef TS = new FieldRef(7, "ts", DataTypes.timestamp(9));
    private static final FieldRef BIN = new FieldRef(9, "bin", DataTypes.bytes());

    private static boolean referenceEqual(DataType type, Object value, Object literal)
    {
        if (SqlComparison.isFloatingPoint(type)) {
            return ((Number) value).doubleValue() == ((Number) literal).doubleValue();
        }
        return ValueComparator.compare(type, value, literal) == 0;
    }

    @Test
    public void testSortedWithoutDuplicates()
    {
        assertThat(in(X, List.of(3, 1, 2, 3, 1)).toString()).isEqualTo("x IN (1, 2, 3)");
        assertThat(in(X, List.of(2, 1))).isEqualTo(in(X, List.of(1, 2, 2)));
        assertThat(((In) in(DEC, List.of(new BigDecimal("1.0"), new BigDecimal("1.00"), new BigDecimal("0.50")))).literals()).hasSize(2);
        // code-point order, not UTF-16 order: U+1F600 above U+FFFD
        assertThat(((In) in(S, List.of("\uD83D\uDE00", "\uFFFD", "a"))).literals()).containsExactly("a", "\uFFFD", "\uD83D\uDE00");
        // both zeros and NaN stay in the list (the total order tells them apart); equality does not
        In zeros = (In) in(D, List.of(0.0, -0.0, Double.NaN, Double.NaN));
        assertThat(zeros.literals()).hasSize(3);
        assertThat(zeros.contains(0.0)).isTrue();
        assertThat(zeros.contains(-0.0)).isTrue();
        assertThat(zeros.contains(Double.NaN)).isFalse();
        assertThat(zeros.containsNumber(-0.0)).isTrue();
        assertThat(RowEvaluator.test(not(zeros), ignored -> Double.NaN)).isTrue();
    }

    @Test
    public void testRandomListsAgainstReference()
    {
        long seed = System.nanoTime();
        System.out.println("TestLiteralSet.testRandomListsAgainstReference seed " + seed);
        Random random = new Random(seed);
        Map<FieldRef, Function<Random, Object>> pools = Map.of(
                X, r -> r.nextInt(10) == 0 ? (r.nextBoolean() ? Integer.MIN_VALUE : Integer.MAX_VALUE) : r.nextInt(101) - 50,
                L, r -> r.nextInt(10) == 0 ? Long.MIN_VALUE : (long) (r.nextInt(101) - 50),
                D, r -> switch (r.nextInt(12)) {
                    case 0 -> Double.NaN;
                    case 1 -> -0.0;
                    case 2 -> Double.NEGATIVE_INFINITY;
                    default -> (r.nextInt(41) - 20) * 0.5;
                },
                F, r -> switch (r.nextInt(10)) {
                    case 0 -> Float.NaN;
                    case 1 -> -0.0f;
                    default -> (r.nextInt(21) - 10) * 0.5f;
                },
                S, r -> {
                    String[] pieces = {"a", "b", "\u00e9", "\uD83D\uDE00", "\uFFFD", "\uE000", "\uD800"};
                    StringBuilder value = new StringBuilder();
                    for (int i = r.nextInt(4); i > 0; i--) {
                        value.append(pieces[r.nextInt(pieces.length)]);
                    }
                    return value.toString();
                },
                DEC, r -> new BigDecimal(r.nextInt(201) - 100).movePointLeft(r.nextInt(3)),
                TS, r -> new Timestamp(r.nextInt(11) - 5, new int[] {0, 1000, 999_999, 1}[r.nextInt(4)]),
                BIN, r -> {
                    byte[] value = new byte[r.nextInt(3)];
                    for (int i = 0; i < value.length; i++) {
                        value[i] = (byte) (r.nextInt(3) - 1);
                    }
                    return value;
                });
        List<FieldRef> fields = List.of(X, L, D, F, S, DEC, TS, BIN);
        for (int round = 0; round < 3_000; round++) {
            FieldRef field = fields.get(random.nextInt(fields.size()));
            DataType type = field.type();
            Function<Random, Object> pool = pools.get(field);
            List<Object> literals = new ArrayList<>();
            for (int i = 1 + random.nextInt(random.nextBoolean() ? 3 : 80); i > 0; i--) {
                literals.add(pool.apply(random));
            }
            In predicate = (In) in(field, literals);
            List<Object> unit = new ArrayList<>();
            boolean unitMatches = false;
            for (int i = 0; i < 40; i++) {
                Object value = pool.apply(random);
                boolean expected = literals.stream().anyMatch(literal -> referenceEqual(type, value, literal));
                assertThat(RowEvaluator.test(predicate, ignored -> value)).as("seed %s: %s on %s", seed, predicate, value).isEqualTo(expected);
                assertThat(RowEvaluator.test(not(predicate), ignored -> value)).as("seed %s: NOT %s on %s", seed, predicate, value).isEqualTo(!expected);
                switch (type.root()) {
                    case INT, BIGINT -> assertThat(predicate.containsLong(((Number) value).longValue())).isEqualTo(expected);
                    case FLOAT, DOUBLE -> assertThat(predicate.containsNumber(((Number) value).doubleValue())).isEqualTo(expected);
                    case TIMESTAMP -> assertThat(predicate.containsTimestamp(((Timestamp) value).epochMillis(), ((Timestamp) value).nanoOfMillisecond())).isEqualTo(expected);
                    case VARCHAR -> {
                        boolean wellFormed = literals.stream().noneMatch(literal -> ((String) literal).contains("\uD800") && !((String) literal).contains("\uD800\uDC00"));
                        assertThat(predicate.hasByteKeys()).as("seed %s: %s", seed, literals).isEqualTo(wellFormed);
                        if (wellFormed && !((String) value).contains("\uD800")) {
                            byte[] bytes = ("xx" + value).getBytes(StandardCharsets.UTF_8);
                            assertThat(predicate.containsBytes(bytes, 2, bytes.length - 2)).as("seed %s: %s on %s", seed, predicate, value).isEqualTo(expected);
                        }
                    }
                    case VARBINARY -> {
                        byte[] bytes = (byte[]) value;
                        byte[] padded = Arrays.copyOf(bytes, bytes.length + 3);
                        assertThat(predicate.containsBytes(padded, 0, bytes.length)).as("seed %s: %s on %s", seed, predicate, Arrays.toString(bytes)).isEqualTo(expected);
                    }
                    default -> {
                    }
                }
                if (i < 5) {
                    unit.add(value);
                    unitMatches |= expected;
                }
            }
            boolean mightMatch = StatsEvaluator.mightMatch(predicate, stats(field, unit));
            if (unitMatches) {
                assertThat(mightMatch).as("seed %s: %s on a unit of %s", seed, predicate, unit).isTrue();
            }
        }
    }

    /**
     * On integers every value between the bounds may occur, so a unit may be skipped exactly when
     * no literal lies between its bounds.
     */
    @Test
    public void testStatisticsAreExactOnIntegers()
    {
        long seed = System.nanoTime();
        System.out.println("TestLiteralSet.testStatisticsAreExactOnIntegers seed " + seed);
        Random random = new Random(seed);
        for (int round = 0; round < 3_000; round++) {
            List<Object> literals = new ArrayList<>();
            for (int i = 1 + random.nextInt(30); i > 0; i--) {
                literals.add(random.nextInt(100) - 50);
            }
            int min = random.nextInt(120) - 60;
            int max = min + random.nextInt(6);
            boolean expected = literals.stream().anyMatch(literal -> (Integer) literal >= min && (Integer) literal <= max);
            StatsProvider stats = new FixedStats(Map.of(X, new ColumnStats(min, max, 0L, 10)), OptionalLong.of(10));
            assertThat(StatsEvaluator.mightMatch(in(X, literals), stats)).as("seed %s: %s in [%s, %s]", seed, literals, min, max).isEqualTo(expected);
        }
    }

    @Test
    public void testHundredThousandLiterals()
    {
        List<Object> literals = new ArrayList<>();
        List<Object> strings = new ArrayList<>();
        for (long i = 99_999; i >= 0; i--) {
            literals.add(4 * i);
            strings.add("key-" + 4 * i);
        }
        In predicate = (In) in(L, literals);
        In stringPredicate = (In) in(S, strings);
        for (long value = -10; value < 400_010; value++) {
            long current = value;
            boolean expected = value >= 0 && value < 400_000 && value % 4 == 0;
            assertThat(predicate.containsLong(value)).as("%s", value).isEqualTo(expected);
            if (value % 7 == 0) {
                assertThat(RowEvaluator.test(predicate, ignored -> current)).as("%s", value).isEqualTo(expected);
                byte[] bytes = ("key-" + value).getBytes(StandardCharsets.UTF_8);
                assertThat(stringPredicate.containsBytes(bytes, 0, bytes.length)).as("key-%s", value).isEqualTo(expected);
                assertThat(RowEvaluator.test(stringPredicate, ignored -> "key-" + current)).as("key-%s", value).isEqualTo(expected);
            }
        }
        assertThat(StatsEvaluator.mightMatch(predicate, stats(L, List.of(5L, 7L)))).isFalse();
        assertThat(StatsEvaluator.mightMatch(predicate, stats(L, List.of(5L, 8L)))).isTrue();
        assertThat(StatsEvaluator.mightMatch(not(predicate), stats(L, List.of(8L, 8L)))).isFalse();
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
