package io.tarn.index.predicate;

import io.tarn.index.predicate.Predicate.And;
import io.tarn.index.predicate.Predicate.Comparison;
import io.tarn.index.predicate.Predicate.Comparison.Operator;
import io.tarn.index.predicate.Predicate.In;
import io.tarn.index.predicate.Predicate.Not;
import io.tarn.index.predicate.Predicate.Or;
import io.tarn.index.predicate.Predicate.StartsWith;
import io.tarn.types.ArrayType;
import io.tarn.types.DataTypes;
import io.tarn.types.Timestamp;
import org.testng.annotations.Test;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static io.tarn.index.predicate.Predicates.alwaysFalse;
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
import static io.tarn.index.predicate.Predicates.negate;
import static io.tarn.index.predicate.Predicates.not;
import static io.tarn.index.predicate.Predicates.notEqual;
import static io.tarn.index.predicate.Predicates.notIn;
import static io.tarn.index.predicate.Predicates.or;
import static io.tarn.index.predicate.Predicates.pushNotDown;
import static io.tarn.index.predicate.Predicates.startsWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

public class TestPredicates
{
    private static final FieldRef ID = new FieldRef(1, "id", DataTypes.bigint());
    private static final FieldRef NAME = new FieldRef(2, "name", DataTypes.string());
    private static final FieldRef X = new FieldRef(3, "x", DataTypes.integer());
    private static final FieldRef BYTES = new FieldRef(4, "b", DataTypes.bytes());

    @Test
    public void testLiteralTypeChecks()
    {
        assertThatThrownBy(() -> equal(ID, 5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Literal 5 of class java.lang.Integer does not match column id of type BIGINT, which takes Long (see Literals.coerce)");
        assertThatThrownBy(() -> equal(ID, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Literal for column id is null; use IS NULL to test for null");
        assertThatThrownBy(() -> in(ID, Arrays.asList(1L, null)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> in(X, List.of(1, 2L)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new In(X, List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("IN list for column x is empty");
        assertThatThrownBy(() -> startsWith(X, "1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("starts_with needs a string column, but column x is INT");
        FieldRef array = new FieldRef(5, "a", new ArrayType(DataTypes.integer(), true));
        assertThatThrownBy(() -> equal(array, List.of(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Column a of type ");
        assertThatThrownBy(() -> new And(List.of(isNull(X))))
                .isInstanceOf(IllegalArgumentException.class);
        // IS NULL works on any type
        assertThat(isNull(array).fieldIds()).containsExactly(5);
        assertThat(equal(ID, Literals.coerce(ID.type(), 5))).isEqualTo(equal(ID, 5L));
    }

    @Test
    public void testByteArrayLiterals()
    {
        byte[] literal = {1, 2};
        Predicate predicate = equal(BYTES, literal);
        literal[0] = 9;
        assertThat(predicate).isEqualTo(equal(BYTES, new byte[] {1, 2}));
        assertThat(predicate.hashCode()).isEqualTo(equal(BYTES, new byte[] {1, 2}).hashCode());
        assertThat(predicate).isNotEqualTo(equal(BYTES, new byte[] {9, 2}));
        assertThat(in(BYTES, List.of(new byte[] {1}))).isEqualTo(in(BYTES, List.of(new byte[] {1})));
        assertThat(predicate.toString()).isEqualTo("b = X'0102'");
    }

    @Test
    public void testAndOrSimplify()
    {
        Predicate a = equal(X, 1);
        Predicate b = equal(X, 2);
        Predicate c = equal(X, 3);
        assertThat(and()).isEqualTo(alwaysTrue());
        assertThat(or()).isEqualTo(alwaysFalse());
        assertThat(and(a)).isSameAs(a);
        assertThat(and(a, alwaysTrue())).isSameAs(a);
        assertThat(and(a, alwaysFalse(), b)).isEqualTo(alwaysFalse());
        assertThat(or(a, alwaysTrue())).isEqualTo(alwaysTrue());
        assertThat(or(alwaysFalse(), a)).isSameAs(a);
        assertThat(and(and(a, b), c)).isEqualTo(new And(List.of(a, b, c)));
        assertThat(or(a, or(b, c))).isEqualTo(new Or(List.of(a, b, c)));
        assertThat(and(or(a, b), c)).isEqualTo(new And(List.of(new Or(List.of(a, b)), c)));
        assertThat(in(X, List.of())).isEqualTo(alwaysFalse());
        assertThat(notIn(X, List.of())).isEqualTo(alwaysTrue());
        assertThat(not(alwaysTrue())).isEqualTo(alwaysFalse());
        assertThat(not(not(a))).isSameAs(a);
        assertThat(not(a)).isEqualTo(new Not(a));
    }

    @Test
    public void testPushNotDown()
    {
        assertThat(pushNotDown(not(lessThan(X, 5)))).isEqualTo(greaterOrEqual(X, 5));
        assertThat(pushNotDown(not(lessOrEqual(X, 5)))).isEqualTo(greaterThan(X, 5));
        assertThat(pushNotDown(not(greaterThan(X, 5)))).isEqualTo(lessOrEqual(X, 5));
        assertThat(pushNotDown(not(greaterOrEqual(X, 5)))).isEqualTo(lessThan(X, 5));
        assertThat(pushNotDown(not(equal(X, 5)))).isEqualTo(notEqual(X, 5));
        assertThat(pushNotDown(not(notEqual(X, 5)))).isEqualTo(equal(X, 5));
        assertThat(pushNotDown(not(isNull(X)))).isEqualTo(isNotNull(X));
        assertThat(pushNotDown(not(isNotNull(X)))).isEqualTo(isNull(X));
        assertThat(pushNotDown(notIn(X, List.of(1, 2)))).isEqualTo(new Not(new In(X, List.of(1, 2))));
        assertThat(pushNotDown(not(startsWith(NAME, "a")))).isEqualTo(new Not(new StartsWith(NAME, "a")));
        assertThat(pushNotDown(not(and(equal(X, 1), isNull(NAME)))))
                .isEqualTo(or(notEqual(X, 1), isNotNull(NAME)));
        assertThat(pushNotDown(not(or(equal(X, 1), not(isNull(NAME))))))
                .isEqualTo(and(notEqual(X, 1), isNull(NAME)));
        assertThat(pushNotDown(new Not(new Not(new Not(equal(X, 1)))))).isEqualTo(notEqual(X, 1));
        assertThat(pushNotDown(and(equal(X, 1), new Not(isNull(NAME))))).isEqualTo(and(equal(X, 1), isNotNull(NAME)));
        assertThat(negate(equal(X, 1))).isEqualTo(notEqual(X, 1));
        assertThat(negate(alwaysTrue())).isEqualTo(alwaysFalse());
        assertThat(negate(new Not(startsWith(NAME, "a")))).isEqualTo(startsWith(NAME, "a"));
    }

    @Test
    public void testPushNotDownKeepsThreeValuedResults()
    {
        long seed = System.nanoTime();
        System.out.println("TestPredicates.testPushNotDownKeepsThreeValuedResults seed: " + seed);
        Random random = new Random(seed);
        RandomPredicates generator = new RandomPredicates(random);
        for (int i = 0; i < 3_000; i++) {
            Predicate predicate = generator.predicate(3);
            Predicate pushed = pushNotDown(predicate);
            Predicate negated = negate(predicate);
            assertNotOnlyAboveLeaves(pushed, seed);
            assertNotOnlyAboveLeaves(negated, seed);
            for (Object[] row : generator.rows(4)) {
                Boolean expected = RowEvaluator.evaluate(predicate, RandomPredicates.valueOf(row));
                Boolean actual = RowEvaluator.evaluate(pushed, RandomPredicates.valueOf(row));
                Boolean negation = RowEvaluator.evaluate(negated, RandomPredicates.valueOf(row));
                if (expected != actual || negation != (expected == null ? null : !expected)) {
                    fail("Seed %s: %s gives %s, pushed down %s gives %s, negated %s gives %s on row %s",
                            seed, predicate, expected, pushed, actual, negated, negation, Arrays.toString(row));
                }
            }
        }
    }

    private static void assertNotOnlyAboveLeaves(Predicate predicate, long seed)
    {
        if (predicate instanceof Not not) {
            // NaN makes both x < v and x >= v FALSE, so NOT stays above floating-point range comparisons
            boolean floatingRange = not.predicate() instanceof Comparison comparison
                    && (comparison.field().type().equals(DataTypes.doubleType()) || comparison.field().type().equals(DataTypes.floatType()))
                    && comparison.op() != Operator.EQUAL && comparison.op() != Operator.NOT_EQUAL;
            if (!floatingRange) {
                assertThat(not.predicate()).as("seed %s", seed).isInstanceOfAny(In.class, Predicate.InRanges.class, StartsWith.class);
            }
        }
        else if (predicate instanceof And and) {
            and.children().forEach(child -> assertNotOnlyAboveLeaves(child, seed));
        }
        else if (predicate instanceof Or or) {
            or.children().forEach(child -> assertNotOnlyAboveLeaves(child, seed));
        }
    }

    @Test
    public void testFieldIds()
    {
        assertThat(and(equal(ID, 5L), or(isNull(NAME), not(in(X, List.of(1)))), startsWith(NAME, "a")).fieldIds())
                .containsExactly(1, 2, 3);
        assertThat(alwaysTrue().fieldIds()).isEmpty();
    }

    @Test
    public void testToString()
    {
        assertThat(and(equal(ID, 5L), isNull(NAME))).hasToString("id = 5 AND name IS NULL");
        assertThat(and(or(equal(X, 1), lessThan(ID, 2L)), in(X, List.of(1, 2))))
                .hasToString("(x = 1 OR id < 2) AND x IN (1, 2)");
        assertThat(notIn(NAME, List.of("a", "b'c"))).hasToString("name NOT IN ('a', 'b''c')");
        assertThat(not(startsWith(NAME, "ab"))).hasToString("NOT starts_with(name, 'ab')");
        assertThat(not(and(isNotNull(X), notEqual(X, 3)))).hasToString("NOT (x IS NOT NULL AND x <> 3)");
        assertThat(or(greaterOrEqual(X, 1), lessOrEqual(X, -1), greaterThan(X, 7))).hasToString("x >= 1 OR x <= -1 OR x > 7");
        assertThat(alwaysTrue()).hasToString("TRUE");
        assertThat(alwaysFalse()).hasToString("FALSE");
        assertThat(equal(new FieldRef(9, "d", DataTypes.date()), 19_000)).hasToString("d = DATE '2022-01-08'");
        assertThat(equal(new FieldRef(9, "t", DataTypes.time(3)), 3_600_500)).hasToString("t = TIME '01:00:00.5'");
        assertThat(equal(new FieldRef(9, "ts", DataTypes.timestamp(6)), new Timestamp(1500, 2000)))
                .hasToString("ts = TIMESTAMP '1970-01-01 00:00:01.500002'");
        assertThat(equal(new FieldRef(9, "ltz", DataTypes.timestampLtz(3)), new Timestamp(0, 0)))
                .hasToString("ltz = TIMESTAMP '1970-01-01 00:00:00 UTC'");
        assertThat(equal(new FieldRef(9, "ts", DataTypes.timestamp(0)), new Timestamp(-1000, 0)))
                .hasToString("ts = TIMESTAMP '1969-12-31 23:59:59'");
        assertThat(equal(new FieldRef(9, "m", DataTypes.decimal(20, 2)), new BigDecimal("1E+3"))).hasToString("m = 1000");
        assertThat(equal(new FieldRef(9, "flag", DataTypes.booleanType()), true)).hasToString("flag = TRUE");
        assertThat(isNull(new FieldRef(9, "odd name", DataTypes.integer()))).hasToString("\"odd name\" IS NULL");
        assertThat(new Comparison(X, Operator.NOT_EQUAL, 4)).hasToString("x <> 4");
    }
}
