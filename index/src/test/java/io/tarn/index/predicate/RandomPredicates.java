package io.tarn.index.predicate;

import io.tarn.index.predicate.Predicate.And;
import io.tarn.index.predicate.Predicate.Comparison;
import io.tarn.index.predicate.Predicate.Comparison.Operator;
import io.tarn.index.predicate.Predicate.In;
import io.tarn.index.predicate.Predicate.IsNotNull;
import io.tarn.index.predicate.Predicate.IsNull;
import io.tarn.index.predicate.Predicate.Not;
import io.tarn.index.predicate.Predicate.Or;
import io.tarn.index.predicate.Predicate.StartsWith;
import io.tarn.types.DataTypes;
import io.tarn.types.Timestamp;
import io.tarn.types.ValueComparator;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.function.Function;

/**
 * Random small tables (one column per type, values from small domains so literals often hit),
 * their exact statistics, weakened but still valid statistics, and random predicate trees.
 */
final class RandomPredicates
{
    static final FieldRef INT = new FieldRef(1, "i", DataTypes.integer());
    static final FieldRef BIGINT = new FieldRef(2, "l", DataTypes.bigint());
    static final FieldRef DOUBLE = new FieldRef(3, "d", DataTypes.doubleType());
    static final FieldRef FLOAT = new FieldRef(4, "f", DataTypes.floatType());
    static final FieldRef STRING = new FieldRef(5, "s", DataTypes.string());
    static final FieldRef DATE = new FieldRef(6, "dt", DataTypes.date());
    static final FieldRef DECIMAL = new FieldRef(7, "dec", DataTypes.decimal(10, 2));
    static final FieldRef TIMESTAMP = new FieldRef(8, "ts", DataTypes.timestamp(6));
    static final List<FieldRef> FIELDS = List.of(INT, BIGINT, DOUBLE, FLOAT, STRING, DATE, DECIMAL, TIMESTAMP);

    private static final Map<FieldRef, List<Object>> DOMAINS = Map.of(
            INT, List.of(-2, -1, 0, 1, 2),
            BIGINT, List.of(-2L, -1L, 0L, 1L, 2L),
            DOUBLE, List.of(-1.5, -0.0, 0.0, 1.0, 2.5, Double.NaN, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY),
            FLOAT, List.of(-1.5f, -0.0f, 0.0f, 1.0f, Float.NaN, Float.POSITIVE_INFINITY),
            // U+1F600 sorts above U+FFFD by code point but below it by UTF-16 unit
            STRING, List.of("", "a", "ab", "abc", "abcz", "abd", "b", "\u00e9", "\uFFFD", "\uD83D\uDE00", "\uD83D\uDE00a", "\uE000", "a\uD83D\uDE00"),
            DATE, List.of(-2, -1, 0, 1, 2),
            DECIMAL, List.of(new BigDecimal("-1.00"), new BigDecimal("0.00"), new BigDecimal("0.50"), new BigDecimal("1.25"), new BigDecimal("3.00")),
            TIMESTAMP, List.of(new Timestamp(0, 0), new Timestamp(0, 1000), new Timestamp(1, 0), new Timestamp(-1, 999_999), new Timestamp(1000, 500)));

    private static final Map<FieldRef, List<Object>> OUTSIDE_DOMAINS = Map.of(
            INT, List.of(Integer.MIN_VALUE, Integer.MAX_VALUE, 100, -100),
            BIGINT, List.of(Long.MIN_VALUE, Long.MAX_VALUE, 100L),
            DOUBLE, List.of(-100.0, 100.0, Double.MIN_VALUE, -Double.MIN_VALUE),
            FLOAT, List.of(-100.0f, 100.0f, Float.NEGATIVE_INFINITY),
            STRING, List.of("aa", "abb", "abcd", "zzz", "\uD83D\uDE01", "\u0000"),
            DATE, List.of(18_000, -18_000),
            DECIMAL, List.of(new BigDecimal("0.5"), new BigDecimal("-0.01"), new BigDecimal("100.00")),
            TIMESTAMP, List.of(new Timestamp(5000, 0), new Timestamp(-5000, 0), new Timestamp(0, 999)));

    private static final List<String> PREFIXES = List.of("", "a", "ab", "abc", "abcd", "b", "z", "\u00e9", "\uFFFD", "\uD83D\uDE00", "\uE000", "aa");

    private final Random random;

    RandomPredicates(Random random)
    {
        this.random = random;
    }

    /**
     * Rows as arrays indexed like {@link #FIELDS}; some columns are entirely null.
     */
    List<Object[]> rows(int maxRows)
    {
        int count = random.nextInt(maxRows + 1);
        double[] nullChance = new double[FIELDS.size()];
        for (int i = 0; i < nullChance.length; i++) {
            nullChance[i] = random.nextInt(8) == 0 ? 1.0 : random.nextDouble() * 0.5;
        }
        List<Object[]> rows = new ArrayList<>();
        for (int row = 0; row < count; row++) {
            Object[] values = new Object[FIELDS.size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = random.nextDouble() < nullChance[i] ? null : pick(DOMAINS.get(FIELDS.get(i)));
            }
            rows.add(values);
        }
        return rows;
    }

    static Function<FieldRef, Object> valueOf(Object[] row)
    {
        return field -> row[FIELDS.indexOf(field)];
    }

    /**
     * Exact statistics in the order of ValueComparator, NaN counting as the greatest value.
     */
    static ColumnStats exactStats(FieldRef field, List<Object[]> rows)
    {
        int index = FIELDS.indexOf(field);
        Object min = null;
        Object max = null;
        long nulls = 0;
        for (Object[] row : rows) {
            Object value = row[index];
            if (value == null) {
                nulls++;
                continue;
            }
            if (min == null || ValueComparator.compare(field.type(), value, min) < 0) {
                min = value;
            }
            if (max == null || ValueComparator.compare(field.type(), value, max) > 0) {
                max = value;
            }
        }
        return new ColumnStats(min, max, nulls, rows.size());
    }

    /**
     * Valid but less precise statistics: bounds or null counts forgotten, strings truncated.
     */
    ColumnStats weaken(FieldRef field, ColumnStats stats)
    {
        Object min = stats.min();
        Object max = stats.max();
        Long nullCount = stats.nullCount();
        if (random.nextInt(6) == 0) {
            min = null;
        }
        if (random.nextInt(6) == 0) {
            max = null;
        }
        if (random.nextInt(5) == 0) {
            nullCount = null;
        }
        if (field.equals(STRING)) {
            if (min != null && random.nextBoolean()) {
                min = truncateLower((String) min, random.nextInt(3));
            }
            if (max != null && random.nextBoolean()) {
                max = truncateUpper((String) max, 1 + random.nextInt(2));
            }
        }
        return new ColumnStats(min, max, nullCount, stats.rowCount());
    }

    /**
     * The first {@code codePoints} code points: a prefix, hence a lower bound.
     */
    static String truncateLower(String value, int codePoints)
    {
        if (value.codePointCount(0, value.length()) <= codePoints) {
            return value;
        }
        return value.substring(0, value.offsetByCodePoints(0, codePoints));
    }

    /**
     * The first {@code codePoints} code points with the last one incremented: an upper bound.
     */
    static String truncateUpper(String value, int codePoints)
    {
        if (codePoints == 0 || value.codePointCount(0, value.length()) <= codePoints) {
            return value;
        }
        String prefix = value.substring(0, value.offsetByCodePoints(0, codePoints));
        int last = prefix.codePointBefore(prefix.length());
        if (last == Character.MAX_CODE_POINT) {
            return value;
        }
        int next = last + 1;
        if (next >= Character.MIN_SURROGATE && next <= Character.MAX_SURROGATE) {
            next = Character.MAX_SURROGATE + 1;
        }
        return prefix.substring(0, prefix.length() - Character.charCount(last)) + Character.toString(next);
    }

    /**
     * Exact or weakened statistics for the rows; some columns have none, the row count is
     * sometimes known.
     */
    StatsProvider stats(List<Object[]> rows, boolean exact)
    {
        Map<FieldRef, ColumnStats> columns = new HashMap<>();
        for (FieldRef field : FIELDS) {
            ColumnStats stats = exactStats(field, rows);
            if (exact) {
                columns.put(field, stats);
            }
            else if (random.nextInt(8) != 0) {
                columns.put(field, weaken(field, stats));
            }
        }
        boolean knowRowCount = exact || random.nextBoolean();
        return new FixedStats(columns, knowRowCount ? OptionalLong.of(rows.size()) : OptionalLong.empty());
    }

    Predicate predicate(int depth)
    {
        if (depth == 0 || random.nextInt(3) == 0) {
            return leaf();
        }
        switch (random.nextInt(4)) {
            case 0 -> {
                return new Not(predicate(depth - 1));
            }
            case 1 -> {
                return new And(children(depth - 1));
            }
            case 2 -> {
                return new Or(children(depth - 1));
            }
            default -> {
                // the factories simplify and flatten; their results must behave the same
                return random.nextBoolean() ? Predicates.and(children(depth - 1)) : Predicates.or(children(depth - 1));
            }
        }
    }

    private List<Predicate> children(int depth)
    {
        List<Predicate> children = new ArrayList<>();
        int count = 2 + random.nextInt(2);
        for (int i = 0; i < count; i++) {
            children.add(predicate(depth));
        }
        return children;
    }

    Predicate leaf()
    {
        FieldRef field = pick(FIELDS);
        int kind = random.nextInt(20);
        if (kind < 9) {
            return new Comparison(field, pick(List.of(Operator.values())), literal(field));
        }
        if (kind < 12) {
            List<Object> literals = new ArrayList<>();
            int count = 1 + random.nextInt(3);
            for (int i = 0; i < count; i++) {
                literals.add(literal(field));
            }
            return new In(field, literals);
        }
        if (kind < 14) {
            return random.nextInt(3) == 0 ? new IsNull(field) : ranges(field);
        }
        if (kind < 16) {
            return new IsNotNull(field);
        }
        if (kind < 19) {
            return new StartsWith(STRING, pick(PREFIXES));
        }
        return random.nextBoolean() ? Predicates.alwaysTrue() : Predicates.alwaysFalse();
    }

    /**
     * {@code field} in one to four random ranges (of literals, some without a bound), through
     * {@link Predicates#inRanges}, which sorts and merges them; NOT around it half of the time.
     */
    Predicate ranges(FieldRef field)
    {
        List<ValueRange> ranges = new ArrayList<>();
        int count = 1 + random.nextInt(4);
        for (int i = 0; i < count; i++) {
            Object low = random.nextInt(6) == 0 ? null : literal(field);
            Object high = random.nextInt(6) == 0 ? null : literal(field);
            if (low != null && high != null && !Literals.isNaN(low) && !Literals.isNaN(high) && SqlComparison.order(field.type(), low, high) > 0) {
                Object swap = low;
                low = high;
                high = swap;
            }
            ranges.add(ValueRange.of(low, random.nextBoolean(), high, random.nextBoolean()));
        }
        Predicate predicate = Predicates.inRanges(field, ranges);
        return random.nextBoolean() ? Predicates.not(predicate) : predicate;
    }

    Object literal(FieldRef field)
    {
        return pick(random.nextInt(5) == 0 ? OUTSIDE_DOMAINS.get(field) : DOMAINS.get(field));
    }

    private <T> T pick(List<T> values)
    {
        return values.get(random.nextInt(values.size()));
    }

    record FixedStats(Map<FieldRef, ColumnStats> columns, OptionalLong rowCount)
            implements StatsProvider
    {
        @Override
        public Optional<ColumnStats> columnStats(FieldRef field)
        {
            return Optional.ofNullable(columns.get(field));
        }
    }
}
