package io.tarn.index.predicate;

import io.tarn.index.predicate.Predicate.Comparison.Operator;
import io.tarn.types.DataType;
import io.tarn.types.TypeRoot;
import io.tarn.types.ValueComparator;

/**
 * How a predicate compares a column value with a literal. Values are ordered by
 * {@link ValueComparator}, except FLOAT and DOUBLE, which compare as SQL engines (Trino) and IEEE
 * 754 do: -0.0 equals 0.0, and NaN is unordered, so {@code =}, {@code <}, {@code <=},
 * {@code >} and {@code >=} are FALSE when either side is NaN and {@code <>} is TRUE. Sorting,
 * statistics collection and index keys keep the total order of {@link ValueComparator}; only the
 * truth of a comparison follows these rules.
 */
public final class SqlComparison
{
    private SqlComparison() {}

    public static boolean isFloatingPoint(DataType type)
    {
        return type.root() == TypeRoot.FLOAT || type.root() == TypeRoot.DOUBLE;
    }

    /**
     * Whether {@code value op literal} is TRUE, for two non-null values of {@code type}.
     *
     * @throws IllegalArgumentException if the type has no order or a value is of the wrong class
     */
    public static boolean test(Operator op, DataType type, Object value, Object literal)
    {
        if (isFloatingPoint(type)) {
            // a float widens to double exactly, so the comparison is the float comparison
            return test(op, floatingValue(type, value), floatingValue(type, literal));
        }
        int order = ValueComparator.compare(type, value, literal);
        return switch (op) {
            case EQUAL -> order == 0;
            case NOT_EQUAL -> order != 0;
            case LESS_THAN -> order < 0;
            case LESS_THAN_OR_EQUAL -> order <= 0;
            case GREATER_THAN -> order > 0;
            case GREATER_THAN_OR_EQUAL -> order >= 0;
        };
    }

    /**
     * {@code value op literal} under IEEE 754, which is what Java's operators on doubles compute.
     */
    public static boolean test(Operator op, double value, double literal)
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
     * Whether two non-null values of {@code type} are equal as {@code =} decides.
     */
    public static boolean equal(DataType type, Object value, Object literal)
    {
        return test(Operator.EQUAL, type, value, literal);
    }

    /**
     * Whether {@code value} is a FLOAT or DOUBLE NaN, which no {@code =}, {@code IN} or range
     * comparison matches.
     */
    public static boolean isNaN(Object value)
    {
        return Literals.isNaN(value);
    }

    /**
     * Whether {@code value} is a FLOAT or DOUBLE zero of either sign, which equals both zeros.
     */
    public static boolean isZero(Object value)
    {
        return (value instanceof Double doubleValue && doubleValue == 0.0) || (value instanceof Float floatValue && floatValue == 0.0f);
    }

    /**
     * The zero of the other sign, of the same class as {@code zero}.
     */
    public static Object otherZero(Object zero)
    {
        if (zero instanceof Double doubleValue && doubleValue == 0.0) {
            return Double.doubleToRawLongBits(doubleValue) == 0 ? -0.0 : 0.0;
        }
        if (zero instanceof Float floatValue && floatValue == 0.0f) {
            return Float.floatToRawIntBits(floatValue) == 0 ? -0.0f : 0.0f;
        }
        throw new IllegalArgumentException("Not a floating-point zero: " + zero);
    }

    /**
     * The SQL order of two non-NaN values: numeric for FLOAT / DOUBLE (-0.0 equals 0.0), else
     * {@link ValueComparator}'s.
     */
    static int order(DataType type, Object left, Object right)
    {
        if (isFloatingPoint(type)) {
            double leftValue = ((Number) left).doubleValue();
            double rightValue = ((Number) right).doubleValue();
            return leftValue < rightValue ? -1 : leftValue > rightValue ? 1 : 0;
        }
        return ValueComparator.compare(type, left, right);
    }

    private static double floatingValue(DataType type, Object value)
    {
        if (type.root() == TypeRoot.FLOAT && value instanceof Float floatValue) {
            return floatValue;
        }
        if (type.root() == TypeRoot.DOUBLE && value instanceof Double doubleValue) {
            return doubleValue;
        }
        throw new IllegalArgumentException("Value " + value + " is not of type " + type);
    }
}
