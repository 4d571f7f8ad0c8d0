package io.tarn.storage.grammar;

import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.Predicates;
import io.tarn.types.ArrayType;
import io.tarn.types.DataField;
import io.tarn.types.DataTypes;
import io.tarn.types.RowType;
import io.tarn.types.Timestamp;
import org.testng.annotations.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestFilterParser
{
    private static final DataField ID = new DataField(1, "id", DataTypes.bigint().withNullable(false));
    private static final DataField NAME = new DataField(2, "name", DataTypes.string());
    private static final DataField PRICE = new DataField(3, "price", DataTypes.decimal(10, 2));
    private static final DataField DAY = new DataField(4, "day", DataTypes.date());
    private static final DataField TS = new DataField(5, "ts", DataTypes.timestamp(3));
    private static final DataField LTZ = new DataField(6, "ltz", DataTypes.timestampLtz(6));
    private static final DataField FLAG = new DataField(7, "flag", DataTypes.booleanType());
    private static final DataField F = new DataField(8, "f", DataTypes.floatType());
    private static final DataField D = new DataField(9, "d", DataTypes.doubleType());
    private static final DataField SMALL = new DataField(10, "small", DataTypes.tinyint());
    private static final DataField MIXED = new DataField(11, "Mixed Case", DataTypes.integer());
    private static final DataField TAGS = new DataField(12, "tags", new ArrayType(DataTypes.string(), true));
    private static final DataField BIN = new DataField(13, "bin", DataTypes.bytes());
    private static final DataField TM = new DataField(14, "tm", DataTypes.time(3));
    private static final DataField I = new DataField(15, "i", DataTypes.integer());
    private static final DataField CODE = new DataField(16, "code", DataTypes.charType(3));
    private static final RowType SCHEMA = RowType.of(List.of(ID, NAME, PRICE, DAY, TS, LTZ, FLAG, F, D, SMALL, MIXED, TAGS, BIN, TM, I, CODE));

    @Test
    public void testComparisons()
    {
        assertParses("id = 5", Predicates.equal(ref(ID), 5L));
        assertParses("ID = 5", Predicates.equal(ref(ID), 5L));
        assertParses("id != -5", Predicates.notEqual(ref(ID), -5L));
        assertParses("id <> 5", Predicates.notEqual(ref(ID), 5L));
        assertParses("id<5", Predicates.lessThan(ref(ID), 5L));
        assertParses("id <= +5", Predicates.lessOrEqual(ref(ID), 5L));
        assertParses("id > 9223372036854775807", Predicates.greaterThan(ref(ID), Long.MAX_VALUE));
        assertParses("id >= -9223372036854775808", Predicates.greaterOrEqual(ref(ID), Long.MIN_VALUE));
        assertParses("i = 5.0", Predicates.equal(ref(I), 5));
        assertParses("i = 1e3", Predicates.equal(ref(I), 1000));
        assertParses("small = -128", Predicates.equal(ref(SMALL), (byte) -128));
        assertParses("\"Mixed Case\" = 3", Predicates.equal(ref(MIXED), 3));
        assertParses("\"name\" = 'x'", Predicates.equal(ref(NAME), "x"));
        assertParses("flag = TRUE", Predicates.equal(ref(FLAG), true));
        assertParses("flag = false", Predicates.equal(ref(FLAG), false));
    }

    @Test
    public void testStringLiterals()
    {
        assertParses("name = 'it''s'", Predicates.equal(ref(NAME), "it's"));
        assertParses("name = ''", Predicates.equal(ref(NAME), ""));
        assertParses("name >= 'and between in'", Predicates.greaterOrEqual(ref(NAME), "and between in"));
        assertParses("name = '\u00e9\ud83d\ude00\t\"'", Predicates.equal(ref(NAME), "\u00e9\ud83d\ude00\t\""));
        assertParses("code = 'abc'", Predicates.equal(ref(CODE), "abc"));
        assertParses("bin = X'0aFF'", Predicates.equal(ref(BIN), new byte[] {0x0a, (byte) 0xff}));
        assertParses("bin = x''", Predicates.equal(ref(BIN), new byte[0]));
    }

    @Test
    public void testNumbers()
    {
        assertParses("price = -211.2", Predicates.equal(ref(PRICE), new BigDecimal("-211.20")));
        assertParses("price >= 1e2", Predicates.greaterOrEqual(ref(PRICE), new BigDecimal("100.00")));
        assertParses("price < 12345678.9", Predicates.lessThan(ref(PRICE), new BigDecimal("12345678.90")));
        assertParses("price < .5", Predicates.lessThan(ref(PRICE), new BigDecimal("0.50")));
        assertParses("f > 1.5e-3", Predicates.greaterThan(ref(F), 0.0015f));
        assertParses("f = 0.1", Predicates.equal(ref(F), 0.1f));
        assertParses("d < -2.5E10", Predicates.lessThan(ref(D), -2.5e10));
        assertParses("d = 3", Predicates.equal(ref(D), 3.0));
        // -0.0 orders below 0.0, so the sign must survive
        assertParses("d = -0.0", Predicates.equal(ref(D), -0.0));
        assertThat(Predicates.equal(ref(D), -0.0)).isNotEqualTo(Predicates.equal(ref(D), 0.0));
        assertParses("f = -0", Predicates.equal(ref(F), -0.0f));
    }

    @Test
    public void testDatesAndTimes()
    {
        assertParses("day = 2020-01-01", Predicates.equal(ref(DAY), 18262));
        assertParses("day < '1969-12-31'", Predicates.lessThan(ref(DAY), -1));
        assertParses("ts >= 2020-01-01T10:00:00", Predicates.greaterOrEqual(ref(TS), Timestamp.of(LocalDateTime.of(2020, 1, 1, 10, 0))));
        assertParses("ts >= 2020-01-01T10:00", Predicates.greaterOrEqual(ref(TS), Timestamp.of(LocalDateTime.of(2020, 1, 1, 10, 0))));
        assertParses("ts = '2020-01-01 10:00:00.12'", Predicates.equal(ref(TS), new Timestamp(1_577_872_800_120L, 0)));
        assertParses("ts < 2020-01-02", Predicates.lessThan(ref(TS), Timestamp.of(LocalDateTime.of(2020, 1, 2, 0, 0))));
        assertParses("ts < 1969-12-31T23:59:59.999", Predicates.lessThan(ref(TS), new Timestamp(-1, 0)));
        Predicate tenUtc = Predicates.equal(ref(LTZ), Timestamp.of(Instant.parse("2020-01-01T10:00:00Z")));
        assertParses("ltz = 2020-01-01T10:00:00Z", tenUtc);
        assertParses("ltz = 2020-01-01T10:00:00", tenUtc);
        assertParses("ltz = '2020-01-01 10:00:00'", tenUtc);
        assertParses("ltz = '2020-01-01T12:00:00+02:00'", tenUtc);
        assertParses("ltz = 2020-01-01T05:30-04:30", tenUtc);
        assertParses("ltz = 2020-01-01T10:00:00.123456Z", Predicates.equal(ref(LTZ), new Timestamp(1_577_872_800_123L, 456_000)));
        assertParses("ltz > 2020-01-01", Predicates.greaterThan(ref(LTZ), Timestamp.of(Instant.parse("2020-01-01T00:00:00Z"))));
        assertParses("tm = 10:00:00.5", Predicates.equal(ref(TM), 36_000_500));
        assertParses("tm = '00:00'", Predicates.equal(ref(TM), 0));
        assertParses("tm < 23:59:59.999", Predicates.lessThan(ref(TM), 86_399_999));
    }

    @Test
    public void testBetweenInAndNulls()
    {
        assertParses("id between 1 and 10", Predicates.and(Predicates.greaterOrEqual(ref(ID), 1L), Predicates.lessOrEqual(ref(ID), 10L)));
        assertParses("id NOT BETWEEN 1 AND 10", Predicates.or(Predicates.lessThan(ref(ID), 1L), Predicates.greaterThan(ref(ID), 10L)));
        // NaN is neither below 1 nor above 10, yet NaN NOT BETWEEN 1 AND 10 is TRUE
        assertParses("d NOT BETWEEN 1 AND 10", Predicates.or(Predicates.not(Predicates.greaterOrEqual(ref(D), 1.0)), Predicates.not(Predicates.lessOrEqual(ref(D), 10.0))));
        assertParses("name in ('a', 'b')", Predicates.in(ref(NAME), List.of("a", "b")));
        assertParses("id IN (1,2,3)", Predicates.in(ref(ID), List.of(1L, 2L, 3L)));
        assertParses("day in (2020-01-01)", Predicates.in(ref(DAY), List.of(18262)));
        assertParses("id not in (1)", Predicates.notIn(ref(ID), List.of(1L)));
        assertParses("name is null", Predicates.isNull(ref(NAME)));
        assertParses("name IS NOT NULL", Predicates.isNotNull(ref(NAME)));
        assertParses("tags is not null", Predicates.isNotNull(ref(TAGS)));
    }

    @Test
    public void testConjunctions()
    {
        assertParses("id<5 AND name='x'", Predicates.and(Predicates.lessThan(ref(ID), 5L), Predicates.equal(ref(NAME), "x")));
        Predicate parsed = FilterParser.parse("  id BETWEEN 1 AND 10 and name is not null aNd day = 2020-01-01\t", SCHEMA);
        assertThat(parsed).isEqualTo(Predicates.and(
                Predicates.greaterOrEqual(ref(ID), 1L),
                Predicates.lessOrEqual(ref(ID), 10L),
                Predicates.isNotNull(ref(NAME)),
                Predicates.equal(ref(DAY), 18262)));
        assertThat(parsed).isInstanceOf(Predicate.And.class);
        assertThat(((Predicate.And) parsed).children()).hasSize(4);
        assertThat(FilterParser.parse("id >= 5 and name in ('a','b') and day = 2020-01-01 and ltz < 2020-01-01T10:00:00.5Z", SCHEMA))
                .hasToString("id >= 5 AND name IN ('a', 'b') AND day = DATE '2020-01-01' AND ltz < TIMESTAMP '2020-01-01 10:00:00.5 UTC'");
    }

    @Test
    public void testCaseInsensitiveColumnsMustBeUnique()
    {
        RowType schema = RowType.of(List.of(new DataField(1, "Abc", DataTypes.integer()), new DataField(2, "ABC", DataTypes.integer())));
        assertThat(FilterParser.parse("Abc = 1", schema)).isEqualTo(Predicates.equal(FieldRef.of(schema.fields().get(0)), 1));
        assertThat(FilterParser.parse("\"ABC\" = 1", schema)).isEqualTo(Predicates.equal(FieldRef.of(schema.fields().get(1)), 1));
        assertError("aBc = 1", schema, "Column name aBc matches several columns when case is ignored (Abc, ABC)", 0);
        assertError("\"abc\" = 1", schema, "Unknown column abc; the columns are Abc, ABC", 0);
    }

    @Test
    public void testMalformedExpressions()
    {
        assertError("", "Empty expression", 0);
        assertError("   ", "Empty expression", 3);
        assertError("id = 1 or id = 2", "Expected AND or the end of the expression but found or", 7);
        assertError("id = 1 and", "Expected a column name but found the end of the expression", 10);
        assertError("id 5", "Expected a comparison operator, BETWEEN, IN or IS after column id but found 5", 3);
        assertError("id", "Expected a comparison operator, BETWEEN, IN or IS after column id but found the end of the expression", 2);
        assertError("= 5", "Expected a column name but found =", 0);
        assertError("id = ", "Expected a literal but found the end of the expression", 5);
        assertError("id = abc", "Expected a literal but found abc; quote strings with single quotes", 5);
        assertError("id = null", "NULL cannot be compared", 5);
        assertError("name = 'abc", "Unterminated string; it has no closing '", 7);
        assertError("\"name = 1", "Unterminated quoted column name", 0);
        assertError("\"\" = 1", "Empty quoted column name", 0);
        assertError("id = 1;", "Unexpected character ';'", 6);
        assertError("id ! 5", "Unexpected character '!'", 3);
        assertError("id in (1, 2", "Expected ) or , in the IN list but found the end of the expression", 11);
        assertError("id in 1", "Expected ( after IN but found 1", 6);
        assertError("id in ()", "Expected a literal but found )", 7);
        assertError("id between 1 or 2", "Expected AND between the bounds of BETWEEN but found or", 13);
        assertError("id not like 1", "Expected BETWEEN or IN after NOT but found like", 7);
        assertError("id is 5", "Expected NULL after IS but found 5", 6);
        assertError("id is not nul", "Expected NULL after IS NOT but found nul", 10);
        assertError("id = 12abc", "Malformed literal 12abc", 5);
        assertError("id = 1-2", "Malformed literal 1-2", 5);
        assertError("bin = X'0'", "Hex literal X'0' needs an even number of hex digits", 6);
        assertError("bin = X'zz'", "Hex literal X'zz' needs an even number of hex digits", 6);
    }

    @Test
    public void testUnknownColumns()
    {
        assertError("nope = 1", "Unknown column nope; the columns are id, name, price, day, ts, ltz, flag, f, d, small, Mixed Case, tags, bin, tm, i, code", 0);
        assertError("id = 1 and zzz = 2", "Unknown column zzz", 11);
        assertError("Mixed = 1", "Unknown column Mixed", 0);
    }

    @Test
    public void testTypeMismatches()
    {
        assertError("id = 'x'", "Column id of type BIGINT NOT NULL needs a number but found string 'x'", 5);
        assertError("id = 2020-01-01", "Column id of type BIGINT NOT NULL needs a number but found 2020-01-01", 5);
        assertError("id = true", "needs a number but found true", 5);
        assertError("name = 5", "Column name of type STRING needs a quoted string but found 5", 7);
        assertError("name = 2020-01-01", "needs a quoted string", 7);
        assertError("flag = 'true'", "Column flag of type BOOLEAN needs TRUE or FALSE but found string 'true'", 7);
        assertError("flag = 1", "needs TRUE or FALSE", 7);
        assertError("bin = 'ab'", "needs a hex literal X'...'", 6);
        assertError("day = 5", "Column day of type DATE needs a date yyyy-MM-dd but found 5", 6);
        assertError("day = 2020-01-01T10:00:00", "needs a date", 6);
        assertError("ts = 10:00", "needs a timestamp", 5);
        assertError("tm = 2020-01-01", "needs a time", 5);
        assertError("price = 'x'", "needs a number", 8);
        assertError("f = 'x'", "needs a number", 4);
        assertError("tags = 'a'", "Column tags of type ARRAY<STRING> cannot be compared with a literal; only IS [NOT] NULL applies to it", 7);
        assertError("tags in ('a')", "cannot be compared with a literal", 9);
    }

    @Test
    public void testInexactLiterals()
    {
        assertError("id = 1.5", "Number 1.5 is not a whole number, as column id of type BIGINT NOT NULL needs", 5);
        assertError("id = 9223372036854775808", "Number 9223372036854775808 is out of the range of column id", 5);
        assertError("small = 200", "Number 200 is out of the range of column small of type TINYINT", 8);
        assertError("i = 1e10", "out of the range", 4);
        assertError("price = 1.234", "Number 1.234 has more fraction digits than column price of type DECIMAL(10, 2) keeps", 8);
        assertError("price = 123456789.1", "Number 123456789.1 has more digits than column price of type DECIMAL(10, 2) keeps", 8);
        assertError("f = 1e39", "Number 1e39 is out of the range of column f of type FLOAT", 4);
        assertError("d = -1e400", "out of the range", 4);
        assertError("day = 2020-13-01", "Literal 2020-13-01 is not a valid value of column day of type DATE", 6);
        assertError("day = '2020-02-30'", "Literal 2020-02-30 is not a valid value of column day", 6);
        assertError("ts = 2020-01-01T25:00:00", "is not a valid value of column ts", 5);
        assertError("ts = 2020-01-01T10:00:00Z", "Column ts of type TIMESTAMP(3) has no time zone, so literal 2020-01-01T10:00:00Z may not have one", 5);
        assertError("ts = '2020-01-01T10:00:00.1234'", "Literal 2020-01-01T10:00:00.1234 has 4 fraction digits but column ts of type TIMESTAMP(3) keeps 3", 5);
        assertError("ltz = 2020-01-01T10:00:00.1234567Z", "has 7 fraction digits", 6);
        assertError("tm = 10:00:00.1234", "has 4 fraction digits but column tm of type TIME(3) keeps 3", 5);
        assertError("ts = '2020-01-01  10:00'", "needs a timestamp", 5);
    }

    @Test
    public void testMessagePointsAtThePosition()
    {
        assertThatThrownBy(() -> FilterParser.parse("id = 1 and\tzzz = 2", SCHEMA))
                .isInstanceOfSatisfying(FilterSyntaxException.class, e -> {
                    assertThat(e.position()).isEqualTo(11);
                    assertThat(e.expression()).isEqualTo("id = 1 and\tzzz = 2");
                    assertThat(e).hasMessageEndingWith(
                            " at position 12 of the --where expression:\n" +
                                    "  id = 1 and zzz = 2\n" +
                                    "             ^");
                });
    }

    private static FieldRef ref(DataField field)
    {
        return FieldRef.of(field);
    }

    private static void assertParses(String expression, Predicate expected)
    {
        assertThat(FilterParser.parse(expression, SCHEMA)).as(expression).isEqualTo(expected);
    }

    private static void assertError(String expression, String message, int position)
    {
        assertError(expression, SCHEMA, message, position);
    }

    private static void assertError(String expression, RowType schema, String message, int position)
    {
        assertThatThrownBy(() -> FilterParser.parse(expression, schema))
                .as(expression)
                .isInstanceOfSatisfying(FilterSyntaxException.class, e -> {
                    assertThat(e.getMessage()).as(expression).contains(message);
                    assertThat(e.position()).as("position in " + expression).isEqualTo(position);
                });
    }
}
