package io.tarn.vector.filter;

import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.Predicate.Comparison.Operator;
import io.tarn.index.predicate.Predicates;
import io.tarn.index.predicate.RowEvaluator;
import io.tarn.index.predicate.ValueRange;
import io.tarn.types.ArrayType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.DataTypes;
import io.tarn.types.MapType;
import io.tarn.types.RowType;
import io.tarn.types.Timestamp;
import io.tarn.vector.rows.ArrowValues;
import io.tarn.vector.rows.CanonicalRowFormatter;
import io.tarn.vector.rows.TestingBatches;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestBatchFilter
{
    private BufferAllocator allocator;

    @BeforeClass
    public void setUp()
    {
        allocator = new RootAllocator();
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        assertThat(allocator.getAllocatedMemory()).as("leaked Arrow memory").isZero();
        allocator.close();
    }

    @Test
    public void testIntegersUnderThreeValuedLogic()
    {
        DataField x = new DataField(7, "x", DataTypes.integer());
        DataField y = new DataField(9, "y", DataTypes.string());
        FieldRef xs = FieldRef.of(x);
        FieldRef ys = FieldRef.of(y);
        List<List<Object>> rows = List.of(
                Arrays.asList(5, "a"),
                Arrays.asList(null, "a"),
                Arrays.asList(1, null),
                Arrays.asList(3, "b"),
                Arrays.asList(-2, "a"));
        try (VectorSchemaRoot root = TestingBatches.batch(allocator, List.of(x, y), rows)) {
            Map<Integer, Integer> columns = Map.of(7, 0, 9, 1);
            assertThat(select(Predicates.greaterThan(xs, 2), root, columns)).containsExactly(0, 3);
            assertThat(select(Predicates.not(Predicates.greaterThan(xs, 2)), root, columns)).containsExactly(2, 4);
            assertThat(select(Predicates.or(Predicates.greaterThan(xs, 2), Predicates.isNull(xs)), root, columns)).containsExactly(0, 1, 3);
            assertThat(select(Predicates.in(xs, List.of(1, 5)), root, columns)).containsExactly(0, 2);
            assertThat(select(Predicates.notIn(xs, List.of(1, 5)), root, columns)).containsExactly(3, 4);
            assertThat(select(Predicates.notEqual(xs, 3), root, columns)).containsExactly(0, 2, 4);
            assertThat(select(Predicates.lessOrEqual(xs, 1), root, columns)).containsExactly(2, 4);
            assertThat(select(Predicates.greaterOrEqual(xs, 3), root, columns)).containsExactly(0, 3);
            // row 2: x < 2 is TRUE and y = 'a' unknown, so the AND is unknown and its NOT too
            assertThat(select(Predicates.and(Predicates.lessThan(xs, 2), Predicates.equal(ys, "a")), root, columns)).containsExactly(4);
            assertThat(select(Predicates.not(Predicates.and(Predicates.lessThan(xs, 2), Predicates.equal(ys, "a"))), root, columns)).containsExactly(0, 3);
            // row 1: unknown OR TRUE is TRUE
            assertThat(select(Predicates.or(Predicates.lessThan(xs, 2), Predicates.equal(ys, "a")), root, columns)).containsExactly(0, 1, 2, 4);
            assertThat(select(Predicates.isNotNull(ys), root, columns)).containsExactly(0, 1, 3, 4);
            assertThat(select(Predicates.alwaysTrue(), root, columns)).containsExactly(0, 1, 2, 3, 4);
            assertThat(select(Predicates.alwaysFalse(), root, columns)).isEmpty();
            assertThat(select(Predicates.not(Predicates.alwaysFalse()), root, columns)).containsExactly(0, 1, 2, 3, 4);
        }
    }

    @Test
    public void testFloatingPointAsSql()
    {
        DataField d = new DataField(1, "d", DataTypes.doubleType());
        DataField f = new DataField(2, "f", DataTypes.floatType());
        FieldRef ds = FieldRef.of(d);
        FieldRef fs = FieldRef.of(f);
        List<List<Object>> rows = List.of(
                Arrays.asList(Double.NaN, Float.NaN),
                Arrays.asList(-0.0, -0.0f),
                Arrays.asList(0.0, 0.0f),
                Arrays.asList(1.0, 1.0f),
                Arrays.asList(null, null),
                Arrays.asList(Double.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY));
        try (VectorSchemaRoot root = TestingBatches.batch(allocator, List.of(d, f), rows)) {
            Map<Integer, Integer> columns = Map.of(1, 0, 2, 1);
            // as Trino: -0.0 = 0.0; NaN is equal to nothing and neither below nor above anything
            assertThat(select(Predicates.greaterThan(ds, 0.0), root, columns)).containsExactly(3);
            assertThat(select(Predicates.equal(ds, 0.0), root, columns)).containsExactly(1, 2);
            assertThat(select(Predicates.equal(ds, -0.0), root, columns)).containsExactly(1, 2);
            assertThat(select(Predicates.greaterOrEqual(ds, 0.0), root, columns)).containsExactly(1, 2, 3);
            assertThat(select(Predicates.lessThan(ds, 0.0), root, columns)).containsExactly(5);
            assertThat(select(Predicates.not(Predicates.lessThan(ds, 0.0)), root, columns)).containsExactly(0, 1, 2, 3);
            assertThat(select(Predicates.notEqual(ds, 0.0), root, columns)).containsExactly(0, 3, 5);
            assertThat(select(Predicates.equal(ds, Double.NaN), root, columns)).isEmpty();
            assertThat(select(Predicates.notEqual(ds, Double.NaN), root, columns)).containsExactly(0, 1, 2, 3, 5);
            assertThat(select(Predicates.in(ds, List.of(Double.NaN, -0.0)), root, columns)).containsExactly(1, 2);
            assertThat(select(Predicates.notIn(ds, List.of(Double.NaN, -0.0)), root, columns)).containsExactly(0, 3, 5);
            assertThat(select(Predicates.greaterThan(fs, 0.0f), root, columns)).containsExactly(3);
            assertThat(select(Predicates.lessOrEqual(fs, -0.0f), root, columns)).containsExactly(1, 2, 5);
            assertThat(select(Predicates.in(fs, List.of(Float.NaN, 0.0f)), root, columns)).containsExactly(1, 2);
            assertThat(select(Predicates.notEqual(fs, Float.NaN), root, columns)).containsExactly(0, 1, 2, 3, 5);
            assertThat(select(Predicates.equal(fs, -0.0f), root, columns)).containsExactly(1, 2);
        }
    }

    /**
     * Every comparison and IN of every special value against every other, expected from Java's
     * operators on primitives (IEEE 754, as SQL compares).
     */
    @Test
    public void testFloatingPointSpecialValuesAgainstJavaOperators()
    {
        double[] doubles = {Double.NaN, Double.NEGATIVE_INFINITY, -Double.MAX_VALUE, -1.5, -Double.MIN_VALUE, -0.0, 0.0, Double.MIN_VALUE, 1.5, Double.POSITIVE_INFINITY,
                Double.longBitsToDouble(0x7ff8_0000_0000_0001L)};
        DataField d = new DataField(1, "d", DataTypes.doubleType());
        DataField f = new DataField(2, "f", DataTypes.floatType());
        List<List<Object>> rows = new ArrayList<>();
        for (double value : doubles) {
            rows.add(Arrays.asList(value, (float) value));
        }
        rows.add(Arrays.asList(null, null));
        try (VectorSchemaRoot root = TestingBatches.batch(allocator, List.of(d, f), rows)) {
            Map<Integer, Integer> columns = Map.of(1, 0, 2, 1);
            for (double literal : doubles) {
                for (Operator op : Operator.values()) {
                    List<Integer> expectedDoubles = new ArrayList<>();
                    List<Integer> expectedFloats = new ArrayList<>();
                    for (int row = 0; row < doubles.length; row++) {
                        if (javaCompare(op, doubles[row], literal)) {
                            expectedDoubles.add(row);
                        }
                        if (javaCompare(op, (float) doubles[row], (float) literal)) {
                            expectedFloats.add(row);
                        }
                    }
                    assertThat(select(Predicates.compare(FieldRef.of(d), op, literal), root, columns)).as("d %s %s", op.symbol(), literal).isEqualTo(expectedDoubles);
                    assertThat(select(Predicates.compare(FieldRef.of(f), op, (float) literal), root, columns)).as("f %s %s", op.symbol(), literal).isEqualTo(expectedFloats);
                    assertThat(select(Predicates.not(Predicates.compare(FieldRef.of(d), op, literal)), root, columns)).as("NOT d %s %s", op.symbol(), literal)
                            .isEqualTo(complement(doubles.length, expectedDoubles));
                }
                List<Integer> inDoubles = new ArrayList<>();
                List<Integer> inFloats = new ArrayList<>();
                for (int row = 0; row < doubles.length; row++) {
                    if (doubles[row] == literal || doubles[row] == 1.5) {
                        inDoubles.add(row);
                    }
                    // -Double.MAX_VALUE narrows to -Infinity
                    if ((float) doubles[row] == (float) literal || (float) doubles[row] == 1.5f) {
                        inFloats.add(row);
                    }
                }
                assertThat(select(Predicates.in(FieldRef.of(d), List.of(literal, 1.5)), root, columns)).as("d IN (%s, 1.5)", literal).isEqualTo(inDoubles);
                assertThat(select(Predicates.in(FieldRef.of(f), List.of((float) literal, 1.5f)), root, columns)).as("f IN (%s, 1.5)", literal).isEqualTo(inFloats);
                assertThat(select(Predicates.notIn(FieldRef.of(d), List.of(literal, 1.5)), root, columns)).as("d NOT IN (%s, 1.5)", literal)
                        .isEqualTo(complement(doubles.length, inDoubles));
            }
        }
    }

    private static boolean javaCompare(Operator op, double value, double literal)
    {
        return switch (op) {
            case EQUAL -> value == literal;
            case NOT_EQUAL -> value != literal;
            case LESS_THAN -> value < literal;
            case LESS_THAN_OR_EQUAL -> value <= literal;
            case GREATER_THAN -> value > literal;
            case GREATER_THAN_OR_EQUAL -> value >= literal;
        };
    }

    /**
     * The rows below {@code count} that are not in {@code rows}: where NOT of a leaf is TRUE when
     * no value is null.
     */
    private static List<Integer> complement(int count, List<Integer> rows)
    {
        List<Integer> result = new ArrayList<>();
        for (int row = 0; row < count; row++) {
            if (!rows.contains(row)) {
                result.add(row);
            }
        }
        return result;
    }

    @Test
    public void testStringsByCodePoint()
    {
        DataField s = new DataField(1, "s", DataTypes.string());
        FieldRef ss = FieldRef.of(s);
        List<List<Object>> rows = new ArrayList<>();
        for (String value : Arrays.asList("a", "\ufffd", "\ud83d\ude00", "ab", null, "")) {
            rows.add(Arrays.asList(value));
        }
        try (VectorSchemaRoot root = TestingBatches.batch(allocator, List.of(s), rows)) {
            Map<Integer, Integer> columns = Map.of(1, 0);
            // U+1F600 is above U+FFFD by code point, though its UTF-16 high surrogate is below
            assertThat(select(Predicates.greaterThan(ss, "\ufffd"), root, columns)).containsExactly(2);
            assertThat(select(Predicates.lessThan(ss, "ab"), root, columns)).containsExactly(0, 5);
            assertThat(select(Predicates.equal(ss, ""), root, columns)).containsExactly(5);
            assertThat(select(Predicates.startsWith(ss, "a"), root, columns)).containsExactly(0, 3);
            assertThat(select(Predicates.startsWith(ss, ""), root, columns)).containsExactly(0, 1, 2, 3, 5);
            assertThat(select(Predicates.in(ss, List.of("ab", "")), root, columns)).containsExactly(3, 5);
            // a lone surrogate has no UTF-8 form: evaluated on decoded strings, U+D800 lies between 'ab' and U+FFFD
            assertThat(select(Predicates.lessThan(ss, "\ud800"), root, columns)).containsExactly(0, 3, 5);
            assertThat(select(Predicates.startsWith(ss, "\ud83d"), root, columns)).isEmpty();
        }
    }

    @Test
    public void testTimestampLiteralsFinerThanTheColumn()
    {
        DataField millis = new DataField(1, "ms", DataTypes.timestamp(3));
        DataField micros = new DataField(2, "us", DataTypes.timestampLtz(6));
        FieldRef ms = FieldRef.of(millis);
        FieldRef us = FieldRef.of(micros);
        List<List<Object>> rows = List.of(
                Arrays.asList(new Timestamp(1000, 0), new Timestamp(-1, 999_000)),
                Arrays.asList(new Timestamp(1001, 0), new Timestamp(0, 0)),
                Arrays.asList(null, null));
        try (VectorSchemaRoot root = TestingBatches.batch(allocator, List.of(millis, micros), rows)) {
            Map<Integer, Integer> columns = Map.of(1, 0, 2, 1);
            Timestamp between = new Timestamp(1000, 500);
            assertThat(select(Predicates.greaterThan(ms, between), root, columns)).containsExactly(1);
            assertThat(select(Predicates.lessOrEqual(ms, between), root, columns)).containsExactly(0);
            assertThat(select(Predicates.equal(ms, between), root, columns)).isEmpty();
            assertThat(select(Predicates.in(ms, List.of(between, new Timestamp(1001, 0))), root, columns)).containsExactly(1);
            // -1 microsecond versus -0.5 microseconds
            assertThat(select(Predicates.lessThan(us, new Timestamp(-1, 999_500)), root, columns)).containsExactly(0);
            assertThat(select(Predicates.greaterOrEqual(us, new Timestamp(-1, 999_000)), root, columns)).containsExactly(0, 1);
        }
    }

    /**
     * Every range over a pool of strings that order differently by UTF-16 unit and by code point
     * (each bound present or absent, inclusive or exclusive), and two-range lists, keep the rows
     * that {@link RowEvaluator} keeps; tested on the string's bytes, also as binary.
     */
    @Test
    public void testStringRangesMatchRowEvaluator()
    {
        DataField s = new DataField(1, "s", DataTypes.string());
        DataField bin = new DataField(2, "bin", DataTypes.bytes());
        List<String> pool = List.of("", "a", "ab", "b", "\u00e9", "\ufffd", "\ud83d\ude00");
        List<List<Object>> rows = new ArrayList<>();
        for (String value : pool) {
            rows.add(List.of(value, value.getBytes(StandardCharsets.UTF_8)));
        }
        rows.add(Arrays.asList(null, null));
        List<String> bounds = new ArrayList<>(pool);
        bounds.add(null);
        try (VectorSchemaRoot root = TestingBatches.batch(allocator, List.of(s, bin), rows)) {
            Map<Integer, Integer> columns = Map.of(1, 0, 2, 1);
            int checked = 0;
            for (String low : bounds) {
                for (String high : bounds) {
                    for (int inclusive = 0; inclusive < 4; inclusive++) {
                        ValueRange range = ValueRange.of(low, (inclusive & 1) != 0, high, (inclusive & 2) != 0);
                        ValueRange binaryRange = ValueRange.of(bytes(low), (inclusive & 1) != 0, bytes(high), (inclusive & 2) != 0);
                        List<Predicate> predicates = new ArrayList<>();
                        try {
                            predicates.add(Predicates.inRanges(FieldRef.of(s), List.of(range)));
                            predicates.add(Predicates.inRanges(FieldRef.of(bin), List.of(binaryRange)));
                            // with a range of its own below "a" or above everything
                            predicates.add(Predicates.inRanges(FieldRef.of(s), List.of(range, ValueRange.of(null, false, "", true))));
                        }
                        catch (IllegalArgumentException empty) {
                            // an empty range, or ranges the factory cannot keep apart
                        }
                        for (Predicate predicate : predicates) {
                            assertThat(select(predicate, root, columns)).as("%s", predicate).containsExactlyElementsOf(rowEvaluatorRows(predicate, root, columns));
                            checked++;
                        }
                    }
                }
            }
            assertThat(checked).isGreaterThan(200);
        }
    }

    /**
     * The rows of {@code root} that {@link RowEvaluator} keeps for {@code predicate}, value by value.
     */
    private static List<Integer> rowEvaluatorRows(Predicate predicate, VectorSchemaRoot root, Map<Integer, Integer> columns)
    {
        List<Integer> expected = new ArrayList<>();
        for (int row = 0; row < root.getRowCount(); row++) {
            int current = row;
            if (RowEvaluator.test(predicate, f -> ArrowValues.value(root.getVector(columns.get(f.fieldId())), current, f.type()))) {
                expected.add(row);
            }
        }
        return expected;
    }

    private static byte[] bytes(String value)
    {
        return value == null ? null : value.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    public void testDecimalLiteralsOfAnotherScale()
    {
        DataField narrow = new DataField(1, "d", DataTypes.decimal(10, 2));
        DataField wide = new DataField(2, "w", DataTypes.decimal(30, 2));
        List<DataField> fields = List.of(narrow, wide);
        List<List<Object>> rows = new ArrayList<>();
        for (String value : List.of("-1.51", "-1.50", "0.00", "1.50", "1.51", "99999999.99", "-99999999.99")) {
            rows.add(List.of(new BigDecimal(value), new BigDecimal(value)));
        }
        rows.add(Arrays.asList(null, null));
        try (VectorSchemaRoot root = TestingBatches.batch(allocator, fields, rows)) {
            Map<Integer, Integer> columns = Map.of(1, 0, 2, 1);
            for (DataField field : fields) {
                FieldRef ref = FieldRef.of(field);
                for (String literal : List.of("1.505", "-1.505", "1.5", "2", "-2", "0", "1.50000", "123456789012345678901234567.5")) {
                    for (Operator op : Operator.values()) {
                        Predicate predicate = Predicates.compare(ref, op, new BigDecimal(literal));
                        assertThat(select(predicate, root, columns)).as("%s", predicate).containsExactlyElementsOf(rowEvaluatorRows(predicate, root, columns));
                    }
                }
            }
            // worked by hand: 1.505 lies between 1.50 and 1.51
            FieldRef d = FieldRef.of(narrow);
            assertThat(select(Predicates.greaterThan(d, new BigDecimal("1.505")), root, columns)).containsExactly(4, 5);
            assertThat(select(Predicates.lessOrEqual(d, new BigDecimal("-1.505")), root, columns)).containsExactly(0, 6);
            assertThat(select(Predicates.equal(d, new BigDecimal("1.5")), root, columns)).containsExactly(3);
        }
    }

    @Test
    public void testTimestampLiteralBeyondTheUnitsRange()
    {
        DataField nanos = new DataField(1, "ns", DataTypes.timestamp(9));
        FieldRef ns = FieldRef.of(nanos);
        List<List<Object>> rows = List.of(Arrays.asList(new Timestamp(0, 1)), Arrays.asList((Object) null), Arrays.asList(new Timestamp(-5, 0)));
        try (VectorSchemaRoot root = TestingBatches.batch(allocator, List.of(nanos), rows)) {
            Map<Integer, Integer> columns = Map.of(1, 0);
            // these literals do not fit a long of nanoseconds, yet every stored value compares with them
            Timestamp far = new Timestamp(Long.MAX_VALUE / 1000, 0);
            Timestamp farBefore = new Timestamp(-Long.MAX_VALUE / 1000, 0);
            assertThat(select(Predicates.lessThan(ns, far), root, columns)).containsExactly(0, 2);
            assertThat(select(Predicates.greaterThan(ns, farBefore), root, columns)).containsExactly(0, 2);
            assertThat(select(Predicates.in(ns, List.of(far, new Timestamp(-5, 0))), root, columns)).containsExactly(2);
        }
    }

    @Test
    public void testRowByRowTypes()
    {
        DataField dec = new DataField(1, "dec", DataTypes.decimal(10, 2));
        DataField b = new DataField(2, "b", DataTypes.booleanType());
        List<List<Object>> rows = List.of(
                Arrays.asList(new BigDecimal("1.50"), true),
                Arrays.asList(new BigDecimal("-3.00"), false),
                Arrays.asList(null, null));
        try (VectorSchemaRoot root = TestingBatches.batch(allocator, List.of(dec, b), rows)) {
            Map<Integer, Integer> columns = Map.of(1, 0, 2, 1);
            assertThat(select(Predicates.greaterThan(FieldRef.of(dec), new BigDecimal("1.00")), root, columns)).containsExactly(0);
            assertThat(select(Predicates.in(FieldRef.of(dec), List.of(new BigDecimal("-3.00"))), root, columns)).containsExactly(1);
            assertThat(select(Predicates.equal(FieldRef.of(b), false), root, columns)).containsExactly(1);
        }
    }

    @Test
    public void testMissingOrMismatchedColumn()
    {
        DataField x = new DataField(7, "x", DataTypes.integer());
        try (VectorSchemaRoot root = TestingBatches.batch(allocator, List.of(x), List.of(List.of(1)))) {
            assertThatThrownBy(() -> BatchFilter.selectedRows(Predicates.equal(FieldRef.of(x), 1), root, Map.of()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("Column x (field id 7) of the filter is not in the batch");
            assertThatThrownBy(() -> BatchFilter.selectedRows(Predicates.equal(FieldRef.of(x), 1), root, Map.of(7, 3)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("outside the batch");
            FieldRef wrongType = new FieldRef(7, "x", DataTypes.bigint());
            assertThatThrownBy(() -> BatchFilter.selectedRows(Predicates.equal(wrongType, 1L), root, Map.of(7, 0)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("Column x of type BIGINT is read as IntVector");
        }
    }

    private static final List<DataField> RANDOM_FIELDS = List.of(
            new DataField(101, "i", DataTypes.integer()),
            new DataField(102, "l", DataTypes.bigint()),
            new DataField(103, "d", DataTypes.doubleType()),
            new DataField(104, "f", DataTypes.floatType()),
            new DataField(105, "s", DataTypes.string()),
            new DataField(106, "dt", DataTypes.date()),
            new DataField(107, "ts", DataTypes.timestamp(3)),
            new DataField(108, "ts6", DataTypes.timestamp(6)),
            new DataField(109, "ltz9", DataTypes.timestampLtz(9)),
            new DataField(110, "dec", DataTypes.decimal(10, 2)),
            new DataField(111, "b", DataTypes.booleanType()),
            new DataField(112, "t", DataTypes.tinyint()),
            new DataField(113, "sm", DataTypes.smallint()),
            new DataField(114, "bin", DataTypes.bytes()),
            new DataField(115, "tm", DataTypes.time(3)),
            new DataField(116, "c", DataTypes.charType(3)));

    @Test
    public void testRandomPredicatesMatchRowEvaluator()
    {
        checkRandomBatches("testRandomPredicatesMatchRowEvaluator", random -> randomPredicate(RANDOM_FIELDS, random, 3));
    }

    /**
     * Range comparisons of one integer-like column joined by AND are tested in one pass over
     * the column: the same rows as comparison by comparison, also for empty intersections,
     * fractional literals and NOT around them.
     */
    @Test
    public void testRangesOfOneColumnMatchRowEvaluator()
    {
        List<DataField> rangeFields = RANDOM_FIELDS.stream()
                .filter(field -> List.of("i", "l", "dt", "ts", "ts6", "ltz9", "dec", "t", "sm", "tm").contains(field.name()))
                .toList();
        Operator[] ranges = {Operator.LESS_THAN, Operator.LESS_THAN_OR_EQUAL, Operator.GREATER_THAN, Operator.GREATER_THAN_OR_EQUAL, Operator.EQUAL, Operator.NOT_EQUAL};
        checkRandomBatches("testRangesOfOneColumnMatchRowEvaluator", random -> {
            FieldRef field = FieldRef.of(rangeFields.get(random.nextInt(rangeFields.size())));
            List<Predicate> children = new ArrayList<>();
            for (int i = 0; i < 2 + random.nextInt(3); i++) {
                children.add(new Predicate.Comparison(field, ranges[random.nextInt(ranges.length)], randomValue(field.type(), random)));
            }
            if (random.nextInt(3) == 0) {
                children.add(randomPredicate(RANDOM_FIELDS, random, 1));
            }
            Predicate and = new Predicate.And(children);
            return random.nextInt(4) == 0 ? new Predicate.Not(and) : and;
        });
    }

    /**
     * Random batches over {@link #RANDOM_FIELDS}, each filtered by 50 predicates from
     * {@code predicates}, against {@link RowEvaluator} row by row.
     */
    private void checkRandomBatches(String test, Function<Random, Predicate> predicates)
    {
        long seed = System.nanoTime();
        System.out.println("TestBatchFilter." + test + " seed " + seed);
        Random random = new Random(seed);
        List<DataField> fields = RANDOM_FIELDS;
        Map<Integer, Integer> columns = new HashMap<>();
        for (int i = 0; i < fields.size(); i++) {
            columns.put(fields.get(i).id(), i);
        }
        for (int batch = 0; batch < 20; batch++) {
            int rowCount = random.nextInt(130);
            List<List<Object>> rows = new ArrayList<>();
            for (int row = 0; row < rowCount; row++) {
                List<Object> values = new ArrayList<>();
                for (DataField field : fields) {
                    values.add(random.nextInt(5) == 0 ? null : storable(field.type(), randomValue(field.type(), random)));
                }
                rows.add(values);
            }
            try (VectorSchemaRoot root = TestingBatches.batch(allocator, fields, rows)) {
                for (int round = 0; round < 50; round++) {
                    Predicate predicate = predicates.apply(random);
                    List<Integer> expected = new ArrayList<>();
                    for (int row = 0; row < rowCount; row++) {
                        int current = row;
                        if (RowEvaluator.test(predicate, field -> ArrowValues.value(root.getVector(columns.get(field.fieldId())), current, field.type()))) {
                            expected.add(row);
                        }
                    }
                    assertThat(select(predicate, root, columns))
                            .as("seed %s, predicate %s", seed, predicate)
                            .containsExactlyElementsOf(expected);
                }
            }
        }
    }

    /**
     * IN lists and range lists of 100,000 entries cost a binary search (or one hash probe) per
     * row, as {@link FilterProbes} counts, and select the rows a walk over the entries would.
     */
    @Test
    public void testLargeListsCostLogarithmicWorkPerRow()
    {
        DataField l = new DataField(1, "l", DataTypes.bigint());
        DataField d = new DataField(2, "d", DataTypes.doubleType());
        DataField s = new DataField(3, "s", DataTypes.string());
        DataField ts = new DataField(4, "ts", DataTypes.timestamp(6));
        int entries = 100_000;
        List<Object> longs = new ArrayList<>();
        List<Object> strings = new ArrayList<>();
        List<Object> timestamps = new ArrayList<>();
        List<ValueRange> longRanges = new ArrayList<>();
        List<ValueRange> doubleRanges = new ArrayList<>();
        for (int i = 0; i < entries; i++) {
            longs.add(3L * i);
            strings.add("v" + 3 * i);
            timestamps.add(Timestamp.ofMicros(3L * i));
            longRanges.add(ValueRange.of(6L * i, true, 6L * i + 2, false));
            doubleRanges.add(ValueRange.of(6.0 * i, false, 6.0 * i + 2, true));
        }
        List<List<Object>> rows = new ArrayList<>();
        int rowCount = 4096;
        Random random = new Random(42);
        for (int row = 0; row < rowCount; row++) {
            long value = random.nextInt(4 * 3 * entries);
            double number = row % 50 == 0 ? Double.NaN : row % 51 == 0 ? -0.0 : value / 2.0;
            rows.add(row % 17 == 0 ? Arrays.asList(null, null, null, null) : Arrays.asList(value, number, "v" + value, Timestamp.ofMicros(value)));
        }
        Map<Integer, Integer> columns = Map.of(1, 0, 2, 1, 3, 2, 4, 3);
        List<Predicate> predicates = List.of(
                Predicates.in(FieldRef.of(l), longs),
                Predicates.in(FieldRef.of(s), strings),
                Predicates.in(FieldRef.of(ts), timestamps),
                Predicates.inRanges(FieldRef.of(l), longRanges),
                Predicates.inRanges(FieldRef.of(d), doubleRanges),
                Predicates.not(Predicates.inRanges(FieldRef.of(d), doubleRanges)));
        try (VectorSchemaRoot root = TestingBatches.batch(allocator, List.of(l, d, s, ts), rows)) {
            for (Predicate predicate : predicates) {
                List<Integer> expected = new ArrayList<>();
                for (int row = 0; row < rowCount; row++) {
                    List<Object> values = rows.get(row);
                    if (values.get(0) == null) {
                        continue;
                    }
                    long value = (Long) values.get(0);
                    double number = (Double) values.get(1);
                    boolean inRange = number > 6.0 * Math.floor(number / 6.0) && number <= 6.0 * Math.floor(number / 6.0) + 2 && number < 6.0 * entries;
                    boolean matches = switch (predicates.indexOf(predicate)) {
                        case 0, 1, 2 -> value % 3 == 0 && value < 3L * entries;
                        case 3 -> value % 6 < 2 && value < 6L * entries;
                        case 4 -> !Double.isNaN(number) && inRange;
                        default -> Double.isNaN(number) || !inRange;
                    };
                    if (matches) {
                        expected.add(row);
                    }
                }
                FilterProbes probes = new FilterProbes();
                List<Integer> selected = Arrays.stream(BatchFilter.selectedRows(predicate, root, columns, Map.of(), probes)).boxed().toList();
                assertThat(selected).as("%s", predicate.getClass().getSimpleName()).containsExactlyElementsOf(expected);
                // log2(100,000) < 17: a binary search and one more bound test per row at most
                assertThat(probes.count()).as("%s", predicate.getClass().getSimpleName()).isBetween(1L, rowCount * 18L);
                if (predicate instanceof Predicate.In in && !in.field().type().equals(ts.type())) {
                    // integers are looked up in a bitmap or a hash table, strings by hash
                    assertThat(probes.count()).as("%s on %s", predicate, in.field()).isEqualTo(rowCount);
                }
            }
        }
    }

    @Test
    public void testSelectAndCompact()
    {
        List<DataField> fields = List.of(
                new DataField(1, "i", DataTypes.integer()),
                new DataField(2, "s", DataTypes.string()),
                new DataField(3, "dec", DataTypes.decimal(20, 3)),
                new DataField(4, "ts", DataTypes.timestampLtz(9)),
                new DataField(5, "arr", new ArrayType(DataTypes.string(), true)),
                new DataField(6, "m", new MapType(DataTypes.integer().withNullable(false), new ArrayType(DataTypes.integer(), true), true)),
                new DataField(7, "r", RowType.of(List.of(new DataField(8, "x", DataTypes.string()), new DataField(9, "y", new ArrayType(DataTypes.doubleType(), true))))));
        List<List<Object>> rows = new ArrayList<>();
        for (int row = 0; row < 9; row++) {
            Map<Object, Object> map = new LinkedHashMap<>();
            for (int key = 0; key < row % 3; key++) {
                map.put(key, key == 1 ? null : Arrays.asList(row, null));
            }
            rows.add(Arrays.asList(
                    row % 4 == 1 ? null : row,
                    row % 3 == 2 ? null : "s" + "x".repeat(row),
                    row % 5 == 3 ? null : new BigDecimal(row + ".125").negate(),
                    row % 4 == 2 ? null : new Timestamp(-row * 1000L, row * 1001),
                    row % 3 == 0 ? null : Arrays.asList("a" + row, null, ""),
                    row == 4 ? null : map,
                    row % 4 == 3 ? null : Arrays.asList(row % 2 == 0 ? null : "x" + row, row == 2 ? null : Arrays.asList(row * 0.5, null))));
        }
        int[] selected = {1, 2, 4, 5, 8};
        try (VectorSchemaRoot root = TestingBatches.batch(allocator, fields, rows)) {
            List<String> all = lines(root, fields);
            List<String> expected = Arrays.stream(selected).mapToObj(all::get).toList();
            try (VectorSchemaRoot copy = BatchFilter.select(root, selected, allocator)) {
                assertThat(copy.getRowCount()).isEqualTo(5);
                assertThat(lines(copy, fields)).containsExactlyElementsOf(expected);
            }
            try (VectorSchemaRoot empty = BatchFilter.select(root, new int[0], allocator)) {
                assertThat(empty.getRowCount()).isZero();
            }
            assertThat(lines(root, fields)).containsExactlyElementsOf(all);

            BatchFilter.compact(root, selected);
            assertThat(root.getRowCount()).isEqualTo(5);
            assertThat(lines(root, fields)).containsExactlyElementsOf(expected);
            BatchFilter.compact(root, new int[] {0, 1, 2, 3, 4});
            assertThat(lines(root, fields)).containsExactlyElementsOf(expected);
            BatchFilter.compact(root, new int[] {4});
            assertThat(lines(root, fields)).containsExactly(expected.get(4));
        }
    }

    @Test
    public void testSelectionMustBeAscending()
    {
        DataField x = new DataField(7, "x", DataTypes.integer());
        try (VectorSchemaRoot root = TestingBatches.batch(allocator, List.of(x), List.of(List.of(1), List.of(2)))) {
            assertThatThrownBy(() -> BatchFilter.compact(root, new int[] {1, 0}))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("strictly ascending");
            assertThatThrownBy(() -> BatchFilter.select(root, new int[] {2}, allocator))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    private static List<String> lines(VectorSchemaRoot root, List<DataField> fields)
    {
        List<String> lines = new ArrayList<>();
        CanonicalRowFormatter.appendLines(root, fields, lines);
        return lines;
    }

    private static List<Integer> select(Predicate predicate, VectorSchemaRoot root, Map<Integer, Integer> columns)
    {
        return Arrays.stream(BatchFilter.selectedRows(predicate, root, columns)).boxed().toList();
    }

    private static Predicate randomPredicate(List<DataField> fields, Random random, int depth)
    {
        int choice = random.nextInt(depth > 0 ? 10 : 6);
        if (choice >= 6) {
            List<Predicate> children = new ArrayList<>();
            int count = 2 + random.nextInt(2);
            for (int i = 0; i < count; i++) {
                children.add(randomPredicate(fields, random, depth - 1));
            }
            return switch (choice) {
                case 6 -> Predicates.and(children);
                case 7 -> Predicates.or(children);
                case 8 -> Predicates.not(children.get(0));
                default -> new Predicate.Not(Predicates.and(children));
            };
        }
        DataField field = fields.get(random.nextInt(fields.size()));
        FieldRef ref = FieldRef.of(field);
        return switch (choice) {
            case 0, 1, 2 -> Predicates.compare(ref, Operator.values()[random.nextInt(Operator.values().length)], randomValue(field.type(), random));
            case 3 -> {
                List<Object> values = new ArrayList<>();
                int count = 1 + random.nextInt(4);
                for (int i = 0; i < count; i++) {
                    values.add(randomValue(field.type(), random));
                }
                yield random.nextBoolean() ? Predicates.in(ref, values) : Predicates.notIn(ref, values);
            }
            case 4 -> {
                if (random.nextBoolean()) {
                    // a few ranges of pool values, sorted and merged by the factory
                    List<ValueRange> ranges = new ArrayList<>();
                    for (int i = 1 + random.nextInt(4); i > 0; i--) {
                        ranges.add(ValueRange.of(random.nextInt(5) == 0 ? null : randomValue(field.type(), random), random.nextBoolean(),
                                random.nextInt(5) == 0 ? null : randomValue(field.type(), random), random.nextBoolean()));
                    }
                    Predicate inRanges = Predicates.inRanges(ref, ranges);
                    yield random.nextBoolean() ? inRanges : Predicates.not(inRanges);
                }
                if (field.type().root().isCharacterString()) {
                    String value = (String) randomValue(field.type(), random);
                    yield Predicates.startsWith(ref, value.substring(0, random.nextInt(value.length() + 1)));
                }
                yield random.nextBoolean() ? Predicates.isNull(ref) : Predicates.isNotNull(ref);
            }
            default -> random.nextInt(10) == 0 ? Predicates.alwaysTrue() : Predicates.isNotNull(ref);
        };
    }

    /**
     * A value from a small pool per type, so that equal values and IN hits are frequent; the
     * pools hold the edge cases of each order.
     */
    private static Object randomValue(DataType type, Random random)
    {
        return switch (type.root()) {
            case INT -> pick(random, 0, -1, 1, 7, Integer.MIN_VALUE, Integer.MAX_VALUE);
            case BIGINT -> pick(random, 0L, -1L, 1L << 40, Long.MIN_VALUE, Long.MAX_VALUE);
            case DOUBLE -> pick(random, 0.0, -0.0, Double.NaN, 1.5, -1.5, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, Double.MIN_VALUE);
            case FLOAT -> pick(random, 0.0f, -0.0f, Float.NaN, 2.5f, -2.5f, Float.MAX_VALUE);
            case VARCHAR -> pick(random, "", "a", "ab", "b", "\ufffd", "\ud83d\ude00", "\u00e9", "a\ud83d\ude00");
            case CHAR -> pick(random, "", "x", "xy", "\u00e9");
            case DATE -> pick(random, 0, -1, 18262, -719_162);
            case TIMESTAMP, TIMESTAMP_LTZ -> pick(random, new Timestamp(0, 0), new Timestamp(-1, 999_000), new Timestamp(-1, 999_999), new Timestamp(1000, 1),
                    new Timestamp(1000, 0), new Timestamp(-1_000_000_000_000L, 123_456));
            case DECIMAL -> pick(random, new BigDecimal("0.00"), new BigDecimal("-1.50"), new BigDecimal("1.50"), new BigDecimal("99999999.99"));
            case BOOLEAN -> random.nextBoolean();
            case TINYINT -> pick(random, (byte) 0, (byte) -128, (byte) 127, (byte) 5);
            case SMALLINT -> pick(random, (short) 0, (short) -32768, (short) 300);
            case VARBINARY -> pick(random, new byte[0], new byte[] {0}, new byte[] {(byte) 0xff}, new byte[] {0, 1}, new byte[] {(byte) 0x80});
            case TIME -> pick(random, 0, 1, 86_399_999, 43_200_000);
            default -> throw new IllegalArgumentException(type.toString());
        };
    }

    /**
     * The value as the column stores it: timestamps lose digits finer than the column's unit.
     */
    private static Object storable(DataType type, Object value)
    {
        if (value instanceof Timestamp timestamp) {
            int precision = ((io.tarn.types.AtomicType) type).precision();
            if (precision <= 3) {
                return new Timestamp(timestamp.epochMillis(), 0);
            }
            if (precision <= 6) {
                return new Timestamp(timestamp.epochMillis(), timestamp.nanoOfMillisecond() / 1000 * 1000);
            }
        }
        return value;
    }

    @SafeVarargs
    private static <T> T pick(Random random, T... values)
    {
        return values[random.nextInt(values.length)];
    }
}
