package io.tarn.vector.rows;

import io.tarn.types.ArrayType;
import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.MapType;
import io.tarn.types.MultisetType;
import io.tarn.types.RowType;
import io.tarn.types.Timestamp;
import io.tarn.types.TypeRoot;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.HexFormat;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Formats rows of an Arrow batch into Tarn's canonical text, the form {@code tarn dump} prints and
 * that tests compare byte for byte with Apache Paimon's rows.
 *
 * <p>A line holds the columns in table-schema order separated by TAB. At top level NULL is
 * {@code \N}; BOOLEAN {@code true}/{@code false}; TINYINT..BIGINT decimal; FLOAT
 * {@link Float#toString(float)}; DOUBLE {@link Double#toString(double)}; DECIMAL
 * {@link BigDecimal#toPlainString()} at the type's scale; CHAR/VARCHAR the text with backslash, TAB,
 * LF and CR written {@code \\ \t \n \r}; BINARY/VARBINARY {@code 0x} and lowercase hex; DATE
 * {@code yyyy-MM-dd}; TIME {@link LocalTime#toString()}; TIMESTAMP(p) {@code yyyy-MM-ddTHH:mm:ss},
 * then for p &gt; 0 a dot and exactly p fraction digits (truncated); TIMESTAMP_LTZ(p) the same in
 * UTC followed by {@code Z}.
 *
 * <p>Inside ARRAY {@code [a,b]}, MAP {@code {k=v,...}} (stored order), MULTISET (its map of element
 * to count) and ROW {@code {a,b}}, NULL is {@code null} and strings are double-quoted with
 * {@code " \ TAB LF CR} written {@code \" \\ \t \n \r}; everything else is formatted as at top level.
 */
public final class CanonicalRowFormatter
{
    private static final String TOP_LEVEL_NULL = "\\N";
    private static final String NESTED_NULL = "null";
    private static final AtomicType MULTISET_COUNT = new AtomicType(TypeRoot.INT, 0, 0, false);

    private CanonicalRowFormatter() {}

    /**
     * Formats row {@code row} of {@code root}, whose vectors are the columns of {@code fields} in
     * the same order.
     */
    public static String formatRow(VectorSchemaRoot root, int row, List<DataField> fields)
    {
        requireNonNull(root, "root is null");
        requireNonNull(fields, "fields is null");
        checkColumns(root, fields);
        if (row < 0 || row >= root.getRowCount()) {
            throw new IndexOutOfBoundsException("Row " + row + " is outside a batch of " + root.getRowCount() + " rows");
        }
        return formatRow(root.getFieldVectors(), row, fields, new StringBuilder());
    }

    /**
     * Appends one line per row of {@code root} to {@code out}, in batch order.
     */
    public static void appendLines(VectorSchemaRoot root, List<DataField> fields, List<String> out)
    {
        requireNonNull(root, "root is null");
        requireNonNull(fields, "fields is null");
        requireNonNull(out, "out is null");
        checkColumns(root, fields);
        List<FieldVector> vectors = root.getFieldVectors();
        StringBuilder line = new StringBuilder();
        for (int row = 0; row < root.getRowCount(); row++) {
            out.add(formatRow(vectors, row, fields, line));
        }
    }

    private static void checkColumns(VectorSchemaRoot root, List<DataField> fields)
    {
        if (root.getFieldVectors().size() != fields.size()) {
            throw new IllegalArgumentException("Batch has " + root.getFieldVectors().size() + " columns but " + fields.size() + " fields were given");
        }
    }

    private static String formatRow(List<FieldVector> vectors, int row, List<DataField> fields, StringBuilder line)
    {
        line.setLength(0);
        for (int column = 0; column < fields.size(); column++) {
            if (column > 0) {
                line.append('\t');
            }
            append(line, vectors.get(column), row, fields.get(column).type(), false);
        }
        return line.toString();
    }

    private static void append(StringBuilder out, FieldVector vector, int row, DataType type, boolean nested)
    {
        if (vector.isNull(row)) {
            out.append(nested ? NESTED_NULL : TOP_LEVEL_NULL);
            return;
        }
        switch (type.root()) {
            case CHAR, VARCHAR -> {
                String value = (String) ArrowValues.value(vector, row, type);
                if (nested) {
                    appendQuoted(out, value);
                }
                else {
                    appendEscaped(out, value);
                }
            }
            case ARRAY -> appendArray(out, ArrowValues.as(vector, ListVector.class, type), row, ((ArrayType) type).element());
            case MAP -> appendMap(out, ArrowValues.as(vector, MapVector.class, type), row, ((MapType) type).key(), ((MapType) type).value());
            case MULTISET -> appendMap(out, ArrowValues.as(vector, MapVector.class, type), row, ((MultisetType) type).element(), MULTISET_COUNT);
            case ROW -> appendRow(out, ArrowValues.as(vector, StructVector.class, type), row, (RowType) type);
            default -> appendAtomic(out, ArrowValues.value(vector, row, type), (AtomicType) type);
        }
    }

    private static void appendAtomic(StringBuilder out, Object value, AtomicType type)
    {
        switch (type.root()) {
            case BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE -> out.append(value);
            case DECIMAL -> out.append(((BigDecimal) value).setScale(type.scale()).toPlainString());
            case BINARY, VARBINARY -> out.append("0x").append(HexFormat.of().formatHex((byte[]) value));
            case DATE -> out.append(LocalDate.ofEpochDay((Integer) value));
            case TIME -> out.append(LocalTime.ofNanoOfDay((Integer) value * 1_000_000L));
            case TIMESTAMP -> appendTimestamp(out, (Timestamp) value, type.precision());
            case TIMESTAMP_LTZ -> appendTimestamp(out, (Timestamp) value, type.precision()).append('Z');
            default -> throw new IllegalArgumentException("Type has no canonical form: " + type.asSqlString());
        }
    }

    static StringBuilder appendTimestamp(StringBuilder out, Timestamp timestamp, int precision)
    {
        long epochSecond = Math.floorDiv(timestamp.epochMillis(), 1000L);
        int nanoOfSecond = Math.floorMod(timestamp.epochMillis(), 1000) * 1_000_000 + timestamp.nanoOfMillisecond();
        int secondOfDay = Math.floorMod(epochSecond, 86_400);
        out.append(LocalDate.ofEpochDay(Math.floorDiv(epochSecond, 86_400L))).append('T');
        appendPadded(out, secondOfDay / 3600, 2);
        out.append(':');
        appendPadded(out, secondOfDay / 60 % 60, 2);
        out.append(':');
        appendPadded(out, secondOfDay % 60, 2);
        if (precision > 0) {
            // truncate: digits beyond the precision are not part of the value's type
            int divisor = 1;
            for (int i = precision; i < 9; i++) {
                divisor *= 10;
            }
            out.append('.');
            appendPadded(out, nanoOfSecond / divisor, precision);
        }
        return out;
    }

    private static void appendPadded(StringBuilder out, int value, int width)
    {
        String digits = Integer.toString(value);
        for (int i = digits.length(); i < width; i++) {
            out.append('0');
        }
        out.append(digits);
    }

    private static void appendArray(StringBuilder out, ListVector vector, int row, DataType elementType)
    {
        FieldVector elements = vector.getDataVector();
        out.append('[');
        for (int i = vector.getElementStartIndex(row); i < vector.getElementEndIndex(row); i++) {
            if (i > vector.getElementStartIndex(row)) {
                out.append(',');
            }
            append(out, elements, i, elementType, true);
        }
        out.append(']');
    }

    private static void appendMap(StringBuilder out, MapVector vector, int row, DataType keyType, DataType valueType)
    {
        StructVector entries = (StructVector) vector.getDataVector();
        FieldVector keys = entries.getChildrenFromFields().get(0);
        FieldVector values = entries.getChildrenFromFields().get(1);
        out.append('{');
        for (int i = vector.getElementStartIndex(row); i < vector.getElementEndIndex(row); i++) {
            if (i > vector.getElementStartIndex(row)) {
                out.append(',');
            }
            append(out, keys, i, keyType, true);
            out.append('=');
            append(out, values, i, valueType, true);
        }
        out.append('}');
    }

    private static void appendRow(StringBuilder out, StructVector vector, int row, RowType type)
    {
        List<FieldVector> children = vector.getChildrenFromFields();
        if (children.size() != type.size()) {
            throw new IllegalArgumentException("Vector " + vector.getName() + " has " + children.size() + " children but type " + type.asSqlString() + " has " + type.size() + " fields");
        }
        out.append('{');
        for (int i = 0; i < children.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            append(out, children.get(i), row, type.fields().get(i).type(), true);
        }
        out.append('}');
    }

    private static void appendEscaped(StringBuilder out, String value)
    {
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
    }

    private static void appendQuoted(StringBuilder out, String value)
    {
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"') {
                out.append("\\\"");
            }
            else {
                switch (c) {
                    case '\\' -> out.append("\\\\");
                    case '\t' -> out.append("\\t");
                    case '\n' -> out.append("\\n");
                    case '\r' -> out.append("\\r");
                    default -> out.append(c);
                }
            }
        }
        out.append('"');
    }
}
