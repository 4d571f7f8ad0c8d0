package io.tarn.testing;

import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.InternalArray;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.IntType;
import org.apache.paimon.types.LocalZonedTimestampType;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.MultisetType;
import org.apache.paimon.types.RowType;
import org.apache.paimon.types.TimestampType;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Formats Paimon internal values into the canonical text that every Tarn test compares.
 *
 * <p>Top level (one column of a line): NULL is {@code \N}; BOOLEAN {@code true}/{@code false};
 * TINYINT..BIGINT decimal; FLOAT {@link Float#toString(float)}; DOUBLE {@link Double#toString(double)};
 * DECIMAL {@link BigDecimal#toPlainString()} at the type's scale; strings as text with backslash,
 * TAB, LF and CR written {@code \\ \t \n \r}; binary {@code 0x} + lowercase hex; DATE
 * {@code yyyy-MM-dd}; TIME {@link LocalTime#toString()}; TIMESTAMP(p) {@code yyyy-MM-ddTHH:mm:ss}
 * plus, when p &gt; 0, {@code .} and exactly p fraction digits (truncated); TIMESTAMP_LTZ(p) the
 * same in UTC followed by {@code Z}.
 *
 * <p>Nested (inside ARRAY {@code [a,b]}, MAP {@code {k=v,...}} in stored order, ROW {@code {a,b}}):
 * NULL is {@code null}; strings are double-quoted with {@code " \ TAB LF CR} escaped as
 * {@code \" \\ \t \n \r}; all other values as at top level. MULTISET is formatted as its map of
 * element to count.
 *
 * <p>The per-kind helpers ({@link #formatTimestamp}, {@link #formatDate}, ...) take plain Java
 * values so that code producing the same text from another representation can share them.
 */
public final class CanonicalValueFormatter
{
    public static final String TOP_LEVEL_NULL = "\\N";
    public static final String NESTED_NULL = "null";

    private CanonicalValueFormatter() {}

    /**
     * Formats one row: its fields in {@code rowType} order, each formatted at top level, joined by TAB.
     * The row kind is ignored.
     */
    public static String formatRow(InternalRow row, RowType rowType)
    {
        requireNonNull(row, "row is null");
        requireNonNull(rowType, "rowType is null");
        List<DataType> types = rowType.getFieldTypes();
        if (row.getFieldCount() < types.size()) {
            throw new IllegalArgumentException("Row has " + row.getFieldCount() + " fields but the row type has " + types.size());
        }
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < types.size(); i++) {
            if (i > 0) {
                line.append('\t');
            }
            Object value = InternalRow.createFieldGetter(types.get(i), i).getFieldOrNull(row);
            line.append(formatValue(value, types.get(i)));
        }
        return line.toString();
    }

    /**
     * Formats one Paimon internal value (BinaryString, Decimal, Timestamp, byte[], boxed
     * primitives, InternalArray, InternalMap, InternalRow) as a top-level column.
     */
    public static String formatValue(Object value, DataType type)
    {
        requireNonNull(type, "type is null");
        if (value == null) {
            return TOP_LEVEL_NULL;
        }
        return switch (type.getTypeRoot()) {
            case CHAR, VARCHAR -> escapeString(stringValue(value));
            default -> formatNonString(value, type);
        };
    }

    /**
     * Formats one Paimon internal value as it appears inside an ARRAY, MAP or ROW.
     */
    public static String formatNestedValue(Object value, DataType type)
    {
        requireNonNull(type, "type is null");
        if (value == null) {
            return NESTED_NULL;
        }
        return switch (type.getTypeRoot()) {
            case CHAR, VARCHAR -> quoteNestedString(stringValue(value));
            default -> formatNonString(value, type);
        };
    }

    private static String formatNonString(Object value, DataType type)
    {
        return switch (type.getTypeRoot()) {
            case BOOLEAN -> Boolean.toString((Boolean) value);
            case TINYINT -> Byte.toString((Byte) value);
            case SMALLINT -> Short.toString((Short) value);
            case INTEGER -> Integer.toString((Integer) value);
            case BIGINT -> Long.toString((Long) value);
            case FLOAT -> Float.toString((Float) value);
            case DOUBLE -> Double.toString((Double) value);
            case DECIMAL -> formatDecimal(((Decimal) value).toBigDecimal(), ((DecimalType) type).getScale());
            case BINARY, VARBINARY -> formatBinary((byte[]) value);
            case DATE -> formatDate((Integer) value);
            case TIME_WITHOUT_TIME_ZONE -> formatTime((Integer) value);
            case TIMESTAMP_WITHOUT_TIME_ZONE -> {
                Timestamp timestamp = (Timestamp) value;
                yield formatTimestamp(timestamp.getMillisecond(), timestamp.getNanoOfMillisecond(), ((TimestampType) type).getPrecision());
            }
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> {
                Timestamp timestamp = (Timestamp) value;
                yield formatTimestampLtz(timestamp.getMillisecond(), timestamp.getNanoOfMillisecond(), ((LocalZonedTimestampType) type).getPrecision());
            }
            case ARRAY -> formatArray((InternalArray) value, ((ArrayType) type).getElementType());
            case MAP -> formatMap((InternalMap) value, ((MapType) type).getKeyType(), ((MapType) type).getValueType());
            case MULTISET -> formatMap((InternalMap) value, ((MultisetType) type).getElementType(), new IntType(false));
            case ROW -> formatNestedRow((InternalRow) value, (RowType) type);
            default -> throw new IllegalArgumentException("Unsupported type for canonical formatting: " + type);
        };
    }

    private static String stringValue(Object value)
    {
        if (value instanceof BinaryString binaryString) {
            return binaryString.toString();
        }
        return (String) value;
    }

    private static String formatArray(InternalArray array, DataType elementType)
    {
        InternalArray.ElementGetter getter = InternalArray.createElementGetter(elementType);
        StringBuilder out = new StringBuilder("[");
        for (int i = 0; i < array.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            out.append(formatNestedValue(getter.getElementOrNull(array, i), elementType));
        }
        return out.append(']').toString();
    }

    private static String formatMap(InternalMap map, DataType keyType, DataType valueType)
    {
        InternalArray keys = map.keyArray();
        InternalArray values = map.valueArray();
        InternalArray.ElementGetter keyGetter = InternalArray.createElementGetter(keyType);
        InternalArray.ElementGetter valueGetter = InternalArray.createElementGetter(valueType);
        StringBuilder out = new StringBuilder("{");
        for (int i = 0; i < map.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            out.append(formatNestedValue(keyGetter.getElementOrNull(keys, i), keyType))
                    .append('=')
                    .append(formatNestedValue(valueGetter.getElementOrNull(values, i), valueType));
        }
        return out.append('}').toString();
    }

    private static String formatNestedRow(InternalRow row, RowType rowType)
    {
        List<DataType> types = rowType.getFieldTypes();
        StringBuilder out = new StringBuilder("{");
        for (int i = 0; i < types.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            out.append(formatNestedValue(InternalRow.createFieldGetter(types.get(i), i).getFieldOrNull(row), types.get(i)));
        }
        return out.append('}').toString();
    }

    /**
     * A top-level string: backslash, TAB, LF and CR escaped, nothing else.
     */
    public static String escapeString(String value)
    {
        StringBuilder out = new StringBuilder(value.length() + 8);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\t' -> out.append("\\t");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * A nested string: double-quoted, with quote, backslash, TAB, LF and CR escaped.
     */
    public static String quoteNestedString(String value)
    {
        StringBuilder out = new StringBuilder(value.length() + 10);
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\t' -> out.append("\\t");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                default -> out.append(c);
            }
        }
        return out.append('"').toString();
    }

    public static String formatDecimal(BigDecimal value, int scale)
    {
        // setScale without rounding: a value that does not fit the declared scale is a bug to surface
        return value.setScale(scale).toPlainString();
    }

    public static String formatBinary(byte[] value)
    {
        StringBuilder out = new StringBuilder(2 + value.length * 2).append("0x");
        for (byte b : value) {
            out.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
        }
        return out.toString();
    }

    public static String formatDate(int epochDay)
    {
        return LocalDate.ofEpochDay(epochDay).toString();
    }

    /**
     * TIME as {@link LocalTime#toString()}: note that this omits zero seconds ({@code 12:30}) and
     * prints only as many fraction digits as needed in groups of three.
     */
    public static String formatTime(int millisOfDay)
    {
        return LocalTime.ofNanoOfDay(millisOfDay * 1_000_000L).toString();
    }

    public static String formatTimestamp(long epochMillis, int nanoOfMillisecond, int precision)
    {
        if (precision < 0 || precision > 9) {
            throw new IllegalArgumentException("Invalid timestamp precision: " + precision);
        }
        long epochSecond = Math.floorDiv(epochMillis, 1000);
        long nanoOfSecond = Math.floorMod(epochMillis, 1000) * 1_000_000L + nanoOfMillisecond;
        long epochDay = Math.floorDiv(epochSecond, 86_400);
        long secondOfDay = Math.floorMod(epochSecond, 86_400);
        StringBuilder out = new StringBuilder(32);
        out.append(LocalDate.ofEpochDay(epochDay)).append('T');
        appendTwoDigits(out, (int) (secondOfDay / 3600));
        out.append(':');
        appendTwoDigits(out, (int) (secondOfDay / 60 % 60));
        out.append(':');
        appendTwoDigits(out, (int) (secondOfDay % 60));
        if (precision > 0) {
            String nanos = Long.toString(1_000_000_000L + nanoOfSecond).substring(1);
            out.append('.').append(nanos, 0, precision);
        }
        return out.toString();
    }

    public static String formatTimestampLtz(long epochMillis, int nanoOfMillisecond, int precision)
    {
        return formatTimestamp(epochMillis, nanoOfMillisecond, precision) + "Z";
    }

    private static void appendTwoDigits(StringBuilder out, int value)
    {
        if (value < 10) {
            out.append('0');
        }
        out.append(value);
    }
}
