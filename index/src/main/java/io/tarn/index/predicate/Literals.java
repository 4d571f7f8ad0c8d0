package io.tarn.index.predicate;

import io.tarn.types.AtomicType;
import io.tarn.types.DataType;
import io.tarn.types.Timestamp;
import io.tarn.types.TypeRoot;
import io.tarn.types.ValueComparator;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Locale;

import static java.util.Objects.requireNonNull;

/**
 * Literal values of predicates. A literal is carried in the internal Java representation of its
 * field's type (see {@link DataType}); predicates accept nothing else, so an {@code Integer} for a
 * BIGINT column is an error rather than a silent conversion. {@link #coerce} is the explicit way
 * to turn a convenient Java value into the internal representation.
 */
public final class Literals
{
    private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    private static final DateTimeFormatter TIME_FORMAT = new DateTimeFormatterBuilder()
            .appendPattern("HH:mm:ss")
            .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
            .toFormatter(Locale.ROOT);
    private static final DateTimeFormatter TIMESTAMP_FORMAT = new DateTimeFormatterBuilder()
            .appendPattern("uuuu-MM-dd ")
            .append(TIME_FORMAT)
            .toFormatter(Locale.ROOT);

    private Literals() {}

    /**
     * Converts {@code value} to the internal representation of {@code type} when that is exact:
     * integral numbers between the integer types, DECIMAL and the floating types when no digit is
     * lost; {@link LocalDate} to DATE; {@link LocalTime} to TIME (whole milliseconds);
     * {@link LocalDateTime} to TIMESTAMP; {@link Instant} to TIMESTAMP_LTZ. A value already in the
     * internal representation is returned unchanged.
     *
     * @throws IllegalArgumentException if the value is null, cannot be converted, or would change
     */
    public static Object coerce(DataType type, Object value)
    {
        requireNonNull(type, "type is null");
        if (value == null) {
            throw new IllegalArgumentException("Literal for type " + type.asSqlString() + " is null");
        }
        if (hasInternalClass(type, value)) {
            return value;
        }
        try {
            Object result = convert(type, value);
            if (result != null) {
                return result;
            }
        }
        catch (ArithmeticException | DateTimeException e) {
            throw new IllegalArgumentException(cannotCoerce(type, value), e);
        }
        throw new IllegalArgumentException(cannotCoerce(type, value));
    }

    private static Object convert(DataType type, Object value)
    {
        TypeRoot root = type.root();
        BigInteger integral = integralValue(value);
        switch (root) {
            case TINYINT -> {
                return integral == null ? null : integral.byteValueExact();
            }
            case SMALLINT -> {
                return integral == null ? null : integral.shortValueExact();
            }
            case INT -> {
                return integral == null ? null : integral.intValueExact();
            }
            case BIGINT -> {
                return integral == null ? null : integral.longValueExact();
            }
            case FLOAT -> {
                if (value instanceof Double doubleValue) {
                    float narrowed = doubleValue.floatValue();
                    return Double.isNaN(doubleValue) || narrowed == doubleValue ? narrowed : null;
                }
                if (integral != null) {
                    float converted = integral.floatValue();
                    return new BigDecimal(converted).toBigIntegerExact().equals(integral) ? converted : null;
                }
                return null;
            }
            case DOUBLE -> {
                if (value instanceof Float floatValue) {
                    return floatValue.doubleValue();
                }
                if (integral != null) {
                    double converted = integral.doubleValue();
                    return new BigDecimal(converted).toBigIntegerExact().equals(integral) ? converted : null;
                }
                return null;
            }
            case DECIMAL -> {
                BigDecimal decimal = null;
                if (integral != null) {
                    decimal = new BigDecimal(integral);
                }
                else if (value instanceof Double doubleValue && Double.isFinite(doubleValue)) {
                    decimal = new BigDecimal(Double.toString(doubleValue));
                }
                else if (value instanceof Float floatValue && Float.isFinite(floatValue)) {
                    // the shortest decimal that reads back as this float, which is what the caller wrote
                    decimal = new BigDecimal(Float.toString(floatValue));
                }
                if (decimal == null) {
                    return null;
                }
                // setScale without a rounding mode throws ArithmeticException when digits would be lost
                decimal = decimal.setScale(((AtomicType) type).scale());
                if (decimal.precision() > ((AtomicType) type).precision()) {
                    throw new ArithmeticException("Too many digits for " + type.asSqlString());
                }
                return decimal;
            }
            case DATE -> {
                return value instanceof LocalDate date ? Math.toIntExact(date.toEpochDay()) : null;
            }
            case TIME -> {
                if (value instanceof LocalTime time) {
                    long nanos = time.toNanoOfDay();
                    if (nanos % 1_000_000 != 0) {
                        throw new ArithmeticException("TIME keeps whole milliseconds only");
                    }
                    return (int) (nanos / 1_000_000);
                }
                return null;
            }
            case TIMESTAMP -> {
                return value instanceof LocalDateTime dateTime ? Timestamp.of(dateTime) : null;
            }
            case TIMESTAMP_LTZ -> {
                return value instanceof Instant instant ? Timestamp.of(instant) : null;
            }
            default -> {
                return null;
            }
        }
    }

    private static BigInteger integralValue(Object value)
    {
        if (value instanceof Byte || value instanceof Short || value instanceof Integer || value instanceof Long) {
            return BigInteger.valueOf(((Number) value).longValue());
        }
        if (value instanceof BigInteger bigInteger && bigInteger.compareTo(LONG_MIN) >= 0 && bigInteger.compareTo(LONG_MAX) <= 0) {
            return bigInteger;
        }
        return null;
    }

    private static String cannotCoerce(DataType type, Object value)
    {
        return "Cannot convert literal " + value + " of class " + value.getClass().getName() + " exactly to type " + type.asSqlString();
    }

    /**
     * The Java class of the internal representation of atomic, ordered {@code root}s, or null for
     * types that predicates cannot compare (VARIANT and composite types).
     */
    static Class<?> internalClass(TypeRoot root)
    {
        return switch (root) {
            case BOOLEAN -> Boolean.class;
            case TINYINT -> Byte.class;
            case SMALLINT -> Short.class;
            case INT, DATE, TIME -> Integer.class;
            case BIGINT -> Long.class;
            case FLOAT -> Float.class;
            case DOUBLE -> Double.class;
            case DECIMAL -> BigDecimal.class;
            case CHAR, VARCHAR -> String.class;
            case BINARY, VARBINARY -> byte[].class;
            case TIMESTAMP, TIMESTAMP_LTZ -> Timestamp.class;
            default -> null;
        };
    }

    static boolean hasInternalClass(DataType type, Object value)
    {
        Class<?> expected = internalClass(type.root());
        return expected != null && expected.isInstance(value);
    }

    /**
     * Checks a literal for a comparison, IN or starts_with against {@code field} and returns the
     * value to store (a copy for {@code byte[]}, so the predicate stays immutable).
     */
    static Object checkLiteral(FieldRef field, Object value)
    {
        Class<?> expected = internalClass(field.type().root());
        if (expected == null || !ValueComparator.isOrderable(field.type())) {
            throw new IllegalArgumentException("Column " + field.name() + " of type " + field.type().asSqlString() + " cannot be compared with a literal");
        }
        if (value == null) {
            throw new IllegalArgumentException("Literal for column " + field.name() + " is null; use IS NULL to test for null");
        }
        if (!expected.isInstance(value)) {
            throw new IllegalArgumentException("Literal " + value + " of class " + value.getClass().getName() + " does not match column " + field.name() +
                    " of type " + field.type().asSqlString() + ", which takes " + expected.getSimpleName() + " (see Literals.coerce)");
        }
        if (value instanceof byte[] bytes) {
            return bytes.clone();
        }
        return value;
    }

    static boolean isNaN(Object value)
    {
        return (value instanceof Double doubleValue && doubleValue.isNaN()) || (value instanceof Float floatValue && floatValue.isNaN());
    }

    static boolean literalEquals(Object left, Object right)
    {
        return Arrays.deepEquals(new Object[] {left}, new Object[] {right});
    }

    static int literalHash(Object value)
    {
        return Arrays.deepHashCode(new Object[] {value});
    }

    /**
     * Renders a literal as a SQL literal of its type, for messages and {@link Predicate#toString()}.
     */
    static String format(DataType type, Object value)
    {
        if (value instanceof String string) {
            return "'" + string.replace("'", "''") + "'";
        }
        if (value instanceof byte[] bytes) {
            return "X'" + HexFormat.of().withUpperCase().formatHex(bytes) + "'";
        }
        if (value instanceof BigDecimal decimal) {
            return decimal.toPlainString();
        }
        if (value instanceof Boolean bool) {
            return bool ? "TRUE" : "FALSE";
        }
        try {
            switch (type.root()) {
                case DATE -> {
                    if (value instanceof Integer days) {
                        return "DATE '" + LocalDate.ofEpochDay(days) + "'";
                    }
                }
                case TIME -> {
                    if (value instanceof Integer millis) {
                        return "TIME '" + TIME_FORMAT.format(LocalTime.ofNanoOfDay(millis * 1_000_000L)) + "'";
                    }
                }
                case TIMESTAMP -> {
                    if (value instanceof Timestamp timestamp) {
                        return "TIMESTAMP '" + TIMESTAMP_FORMAT.format(timestamp.toLocalDateTime()) + "'";
                    }
                }
                case TIMESTAMP_LTZ -> {
                    if (value instanceof Timestamp timestamp) {
                        return "TIMESTAMP '" + TIMESTAMP_FORMAT.format(timestamp.toLocalDateTime()) + " UTC'";
                    }
                }
                default -> {
                }
            }
        }
        catch (DateTimeException e) {
            // out of java.time's range: fall back to the raw internal value
        }
        return String.valueOf(value);
    }
}
