package io.tarn.types;

import java.math.BigDecimal;
import java.util.Arrays;

/**
 * Orders internal values of orderable atomic types the way Paimon does: numbers numerically,
 * strings by unsigned UTF-8 bytes (equivalently, by code points), binary unsigned lexicographically.
 * FLOAT and DOUBLE take their total order ({@link Double#compare}: -0.0 below 0.0, NaN above
 * everything and equal to itself), which is right for sorting and for collecting statistics but
 * not for the truth of a SQL comparison: predicates compare them by IEEE 754 rules instead
 * ({@code io.tarn.index.predicate.SqlComparison}).
 */
public final class ValueComparator
{
    private ValueComparator() {}

    public static boolean isOrderable(DataType type)
    {
        return type.root().isAtomic() && type.root() != TypeRoot.VARIANT;
    }

    /**
     * Compares two non-null values of {@code type}.
     *
     * @throws IllegalArgumentException if the type has no order or a value is of the wrong class
     */
    public static int compare(DataType type, Object left, Object right)
    {
        try {
            return switch (type.root()) {
                case BOOLEAN -> Boolean.compare((Boolean) left, (Boolean) right);
                case TINYINT -> Byte.compare((Byte) left, (Byte) right);
                case SMALLINT -> Short.compare((Short) left, (Short) right);
                case INT, DATE, TIME -> Integer.compare((Integer) left, (Integer) right);
                case BIGINT -> Long.compare((Long) left, (Long) right);
                case FLOAT -> Float.compare((Float) left, (Float) right);
                case DOUBLE -> Double.compare((Double) left, (Double) right);
                case DECIMAL -> ((BigDecimal) left).compareTo((BigDecimal) right);
                case CHAR, VARCHAR -> compareCodePoints((String) left, (String) right);
                case BINARY, VARBINARY -> Arrays.compareUnsigned((byte[]) left, (byte[]) right);
                case TIMESTAMP, TIMESTAMP_LTZ -> ((Timestamp) left).compareTo((Timestamp) right);
                default -> throw new IllegalArgumentException("Type has no order: " + type);
            };
        }
        catch (ClassCastException e) {
            throw new IllegalArgumentException("Values " + left + " and " + right + " are not both of type " + type, e);
        }
    }

    /**
     * Code-point order equals UTF-8 byte order; {@link String#compareTo} (UTF-16 units) does not
     * for characters above U+FFFF against U+E000..U+FFFF.
     */
    public static int compareCodePoints(String left, String right)
    {
        int i = 0;
        int j = 0;
        while (i < left.length() && j < right.length()) {
            int a = left.codePointAt(i);
            int b = right.codePointAt(j);
            if (a != b) {
                return Integer.compare(a, b);
            }
            i += Character.charCount(a);
            j += Character.charCount(b);
        }
        return Boolean.compare(i < left.length(), j < right.length());
    }
}
