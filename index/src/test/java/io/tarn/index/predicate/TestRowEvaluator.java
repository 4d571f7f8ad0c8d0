package io.tarn.index.predicate;

import io.tarn.types.DataTypes;
import org.testng.annotations.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

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
import static io.tarn.index.predicate.Predicates.not;
import static io.tarn.index.predicate.Predicates.notEqual;
import static io.tarn.index.predicate.Predicates.notIn;
import static io.tarn.index.predicate.Predicates.or;
import static io.tarn.index.predicate.Predicates.startsWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestRowEvaluator
{
    private static final FieldRef X = new FieldRef(1, "x", DataTypes.integer());
    private static final FieldRef Y = new FieldRef(2, "y", DataTypes.integer());
    private static final FieldRef S = new FieldRef(3, "s", DataTypes.string());
    private static final FieldRef D = new FieldRef(4, "d", DataTypes.doubleType());
    private static final FieldRef F = new FieldRef(5, "f", DataTypes.floatType());

    @Test
    public void testComparisonWithNullIsUnknown()
    {
        Function<FieldRef, Object> row = row(X, null);
        assertThat(RowEvaluator.evaluate(equal(X, 1), row)).isNull();
        assertThat(RowEvaluator.evaluate(notEqual(X, 1), row)).isNull();
        assertThat(RowEvaluator.evaluate(lessThan(X, 1), row)).isNull();
        assertThat(RowEvaluator.evaluate(in(X, List.of(1, 2)), row)).isNull();
        assertThat(RowEvaluator.evaluate(startsWith(S, "a"), row(S, null))).isNull();
        assertThat(RowEvaluator.test(equal(X, 1), row)).isFalse();
        assertThat(RowEvaluator.test(notEqual(X, 1), row)).isFalse();
    }

    @Test
    public void testNotOfUnknownIsUnknown()
    {
        Function<FieldRef, Object> row = row(X, null);
        assertThat(RowEvaluator.evaluate(not(equal(X, 1)), row)).isNull();
        assertThat(RowEvaluator.test(not(equal(X, 1)), row)).isFalse();
        assertThat(RowEvaluator.test(notIn(X, List.of(1, 2)), row)).isFalse();
        assertThat(RowEvaluator.test(not(startsWith(S, "a")), row(S, null))).isFalse();
        assertThat(RowEvaluator.test(not(equal(X, 1)), row(X, 2))).isTrue();
        assertThat(RowEvaluator.test(not(equal(X, 1)), row(X, 1))).isFalse();
        assertThat(RowEvaluator.test(notIn(X, List.of(1, 2)), row(X, 3))).isTrue();
        assertThat(RowEvaluator.test(notIn(X, List.of(1, 2)), row(X, 2))).isFalse();
    }

    @Test
    public void testIsNullIsNeverUnknown()
    {
        assertThat(RowEvaluator.evaluate(isNull(X), row(X, null))).isTrue();
        assertThat(RowEvaluator.evaluate(isNull(X), row(X, 1))).isFalse();
        assertThat(RowEvaluator.evaluate(isNotNull(X), row(X, null))).isFalse();
        assertThat(RowEvaluator.evaluate(isNotNull(X), row(X, 1))).isTrue();
        assertThat(RowEvaluator.evaluate(not(isNull(X)), row(X, null))).isFalse();
    }

    @Test
    public void testKleeneLogic()
    {
        Function<FieldRef, Object> row = row(X, null, Y, 5);
        Predicate unknown = equal(X, 1);
        Predicate isTrue = equal(Y, 5);
        Predicate isFalse = equal(Y, 6);
        assertThat(RowEvaluator.evaluate(or(unknown, isTrue), row)).isTrue();
        assertThat(RowEvaluator.evaluate(or(isTrue, unknown), row)).isTrue();
        assertThat(RowEvaluator.evaluate(or(unknown, isFalse), row)).isNull();
        assertThat(RowEvaluator.evaluate(and(unknown, isFalse), row)).isFalse();
        assertThat(RowEvaluator.evaluate(and(isFalse, unknown), row)).isFalse();
        assertThat(RowEvaluator.evaluate(and(unknown, isTrue), row)).isNull();
        assertThat(RowEvaluator.evaluate(not(and(unknown, isTrue)), row)).isNull();
        assertThat(RowEvaluator.evaluate(not(or(unknown, isFalse)), row)).isNull();
        assertThat(RowEvaluator.evaluate(not(and(unknown, isFalse)), row)).isTrue();
        assertThat(RowEvaluator.test(or(unknown, isTrue), row)).isTrue();
        assertThat(RowEvaluator.test(and(unknown, isTrue), row)).isFalse();
        assertThat(RowEvaluator.evaluate(alwaysTrue(), row)).isTrue();
        assertThat(RowEvaluator.evaluate(alwaysFalse(), row)).isFalse();
    }

    @Test
    public void testComparisons()
    {
        Function<FieldRef, Object> row = row(X, 5);
        assertThat(RowEvaluator.test(equal(X, 5), row)).isTrue();
        assertThat(RowEvaluator.test(notEqual(X, 5), row)).isFalse();
        assertThat(RowEvaluator.test(lessThan(X, 5), row)).isFalse();
        assertThat(RowEvaluator.test(lessOrEqual(X, 5), row)).isTrue();
        assertThat(RowEvaluator.test(greaterThan(X, 4), row)).isTrue();
        assertThat(RowEvaluator.test(in(X, List.of(1, 5)), row)).isTrue();
        assertThat(RowEvaluator.test(in(X, List.of(1, 4)), row)).isFalse();
    }

    @Test
    public void testStringsByCodePoint()
    {
        // U+1F600 is above U+FFFD by code point (and UTF-8 bytes) though below it by UTF-16 unit
        assertThat(RowEvaluator.test(greaterThan(S, "\uFFFD"), row(S, "\uD83D\uDE00"))).isTrue();
        assertThat(RowEvaluator.test(startsWith(S, "ab"), row(S, "abc"))).isTrue();
        assertThat(RowEvaluator.test(startsWith(S, "ab"), row(S, "ab"))).isTrue();
        assertThat(RowEvaluator.test(startsWith(S, ""), row(S, ""))).isTrue();
        assertThat(RowEvaluator.test(startsWith(S, "abc"), row(S, "ab"))).isFalse();
        assertThat(RowEvaluator.test(startsWith(S, "\uD83D\uDE00"), row(S, "\uD83D\uDE00x"))).isTrue();
        // half a surrogate pair is not a prefix of the code point
        assertThat(RowEvaluator.test(startsWith(S, "\uD83D"), row(S, "\uD83D\uDE00"))).isFalse();
    }

    @Test
    public void testFloatingPointFollowsSql()
    {
        // Trino: -0.0 = 0.0; NaN equals nothing, orders with nothing, and <> everything
        assertThat(RowEvaluator.test(equal(D, 0.0), row(D, -0.0))).isTrue();
        assertThat(RowEvaluator.test(equal(D, -0.0), row(D, 0.0))).isTrue();
        assertThat(RowEvaluator.test(lessThan(D, 0.0), row(D, -0.0))).isFalse();
        assertThat(RowEvaluator.test(greaterOrEqual(D, 0.0), row(D, -0.0))).isTrue();
        assertThat(RowEvaluator.test(lessOrEqual(D, -0.0), row(D, 0.0))).isTrue();
        assertThat(RowEvaluator.test(notEqual(D, 0.0), row(D, -0.0))).isFalse();
        assertThat(RowEvaluator.test(in(D, List.of(0.0)), row(D, -0.0))).isTrue();
        assertThat(RowEvaluator.test(notIn(D, List.of(-0.0)), row(D, 0.0))).isFalse();
        assertThat(RowEvaluator.test(equal(D, Double.NaN), row(D, Double.NaN))).isFalse();
        assertThat(RowEvaluator.test(notEqual(D, Double.NaN), row(D, Double.NaN))).isTrue();
        assertThat(RowEvaluator.test(notEqual(D, 1.0), row(D, Double.NaN))).isTrue();
        assertThat(RowEvaluator.test(greaterThan(D, Double.POSITIVE_INFINITY), row(D, Double.NaN))).isFalse();
        assertThat(RowEvaluator.test(lessThan(D, 1.0), row(D, Double.NaN))).isFalse();
        assertThat(RowEvaluator.test(greaterOrEqual(D, 1.0), row(D, Double.NaN))).isFalse();
        assertThat(RowEvaluator.test(not(lessThan(D, 1.0)), row(D, Double.NaN))).isTrue();
        assertThat(RowEvaluator.test(in(D, List.of(Double.NaN, 1.0)), row(D, Double.NaN))).isFalse();
        assertThat(RowEvaluator.test(notIn(D, List.of(Double.NaN, 1.0)), row(D, Double.NaN))).isTrue();
        assertThat(RowEvaluator.test(lessThan(D, Double.MIN_VALUE), row(D, -0.0))).isTrue();
        assertThat(RowEvaluator.test(greaterThan(D, -Double.MIN_VALUE), row(D, 0.0))).isTrue();
        assertThat(RowEvaluator.test(equal(F, 0.0f), row(F, -0.0f))).isTrue();
        assertThat(RowEvaluator.test(equal(F, Float.NaN), row(F, Float.NaN))).isFalse();
        assertThat(RowEvaluator.test(notEqual(F, Float.NaN), row(F, 2.0f))).isTrue();
        assertThat(RowEvaluator.test(greaterThan(F, 0.0f), row(F, Float.MIN_VALUE))).isTrue();
    }

    @Test
    public void testFloatingPointComparisonsOfEverySpecialValue()
    {
        double[] doubles = {Double.NaN, Double.NEGATIVE_INFINITY, -Double.MAX_VALUE, -1.0, -Double.MIN_VALUE, -0.0, 0.0, Double.MIN_VALUE, 1.0, Double.MAX_VALUE, Double.POSITIVE_INFINITY};
        for (double value : doubles) {
            for (double literal : doubles) {
                // Java's operators on primitives are IEEE 754's comparisons, which SQL uses
                assertThat(RowEvaluator.test(equal(D, literal), row(D, value))).as("%s = %s", value, literal).isEqualTo(value == literal);
                assertThat(RowEvaluator.test(notEqual(D, literal), row(D, value))).as("%s <> %s", value, literal).isEqualTo(value != literal);
                assertThat(RowEvaluator.test(lessThan(D, literal), row(D, value))).as("%s < %s", value, literal).isEqualTo(value < literal);
                assertThat(RowEvaluator.test(lessOrEqual(D, literal), row(D, value))).as("%s <= %s", value, literal).isEqualTo(value <= literal);
                assertThat(RowEvaluator.test(greaterThan(D, literal), row(D, value))).as("%s > %s", value, literal).isEqualTo(value > literal);
                assertThat(RowEvaluator.test(greaterOrEqual(D, literal), row(D, value))).as("%s >= %s", value, literal).isEqualTo(value >= literal);
                assertThat(RowEvaluator.test(not(lessThan(D, literal)), row(D, value))).as("NOT %s < %s", value, literal).isEqualTo(!(value < literal));
                assertThat(RowEvaluator.test(in(D, List.of(literal, 42.0)), row(D, value))).as("%s IN (%s, 42)", value, literal).isEqualTo(value == literal || value == 42.0);
                assertThat(RowEvaluator.test(notIn(D, List.of(literal)), row(D, value))).as("%s NOT IN (%s)", value, literal).isEqualTo(value != literal);
            }
        }
        float[] floats = {Float.NaN, Float.NEGATIVE_INFINITY, -1.0f, -Float.MIN_VALUE, -0.0f, 0.0f, Float.MIN_VALUE, Float.MAX_VALUE, Float.POSITIVE_INFINITY};
        for (float value : floats) {
            for (float literal : floats) {
                assertThat(RowEvaluator.test(equal(F, literal), row(F, value))).as("%s = %s", value, literal).isEqualTo(value == literal);
                assertThat(RowEvaluator.test(notEqual(F, literal), row(F, value))).as("%s <> %s", value, literal).isEqualTo(value != literal);
                assertThat(RowEvaluator.test(lessThan(F, literal), row(F, value))).as("%s < %s", value, literal).isEqualTo(value < literal);
                assertThat(RowEvaluator.test(greaterOrEqual(F, literal), row(F, value))).as("%s >= %s", value, literal).isEqualTo(value >= literal);
                assertThat(RowEvaluator.test(in(F, List.of(literal)), row(F, value))).as("%s IN (%s)", value, literal).isEqualTo(value == literal);
            }
        }
    }

    @Test
    public void testWrongValueClass()
    {
        assertThatThrownBy(() -> RowEvaluator.test(equal(X, 1), row(X, 1L)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RowEvaluator.test(startsWith(S, "a"), row(S, 1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a String");
    }

    private static Function<FieldRef, Object> row(Object... fieldsAndValues)
    {
        Map<FieldRef, Object> values = new HashMap<>();
        for (int i = 0; i < fieldsAndValues.length; i += 2) {
            values.put((FieldRef) fieldsAndValues[i], fieldsAndValues[i + 1]);
        }
        return field -> {
            if (!values.containsKey(field)) {
                throw new AssertionError("Unexpected column " + field);
            }
            return values.get(field);
        };
    }
}
