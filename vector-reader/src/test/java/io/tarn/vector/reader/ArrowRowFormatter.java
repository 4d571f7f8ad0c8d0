package io.tarn.vector.reader;

import io.tarn.testing.CanonicalValueFormatter;
import io.tarn.types.ArrayType;
import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.MapType;
import io.tarn.types.MultisetType;
import io.tarn.types.RowType;
import io.tarn.vector.ArrowTypes;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Formats Arrow batches into the canonical text of {@link CanonicalValueFormatter}, reading
 * every vector through Arrow's own accessors.
 */
public final class ArrowRowFormatter
{
    private ArrowRowFormatter() {}

    public static List<String> rows(VectorSchemaRoot root, List<DataField> fields)
    {
        List<String> rows = new ArrayList<>();
        for (int row = 0; row < root.getRowCount(); row++) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < fields.size(); i++) {
                if (i > 0) {
                    line.append('\t');
                }
                line.append(format(root.getVector(i), row, fields.get(i).type(), false));
            }
            rows.add(line.toString());
        }
        return rows;
    }

    static String format(FieldVector vector, int index, DataType type, boolean nested)
    {
        if (vector.isNull(index)) {
            return nested ? CanonicalValueFormatter.NESTED_NULL : CanonicalValueFormatter.TOP_LEVEL_NULL;
        }
        if (type instanceof AtomicType atomic) {
            return switch (atomic.root()) {
                case BOOLEAN -> Boolean.toString(((BitVector) vector).get(index) != 0);
                case TINYINT -> Byte.toString(((BaseFixedWidthVector) vector).getDataBuffer().getByte(index));
                case SMALLINT -> Short.toString(((BaseFixedWidthVector) vector).getDataBuffer().getShort(2L * index));
                case INT -> Integer.toString(((BaseFixedWidthVector) vector).getDataBuffer().getInt(4L * index));
                case BIGINT -> Long.toString(((BaseFixedWidthVector) vector).getDataBuffer().getLong(8L * index));
                case FLOAT -> Float.toString(((BaseFixedWidthVector) vector).getDataBuffer().getFloat(4L * index));
                case DOUBLE -> Double.toString(((BaseFixedWidthVector) vector).getDataBuffer().getDouble(8L * index));
                case DECIMAL -> CanonicalValueFormatter.formatDecimal(((DecimalVector) vector).getObject(index), atomic.scale());
                case CHAR, VARCHAR -> {
                    String text = new String(((VarCharVector) vector).get(index), StandardCharsets.UTF_8);
                    yield nested ? CanonicalValueFormatter.quoteNestedString(text) : CanonicalValueFormatter.escapeString(text);
                }
                case BINARY, VARBINARY -> CanonicalValueFormatter.formatBinary(((VarBinaryVector) vector).get(index));
                case DATE -> CanonicalValueFormatter.formatDate(((BaseFixedWidthVector) vector).getDataBuffer().getInt(4L * index));
                case TIME -> CanonicalValueFormatter.formatTime(((BaseFixedWidthVector) vector).getDataBuffer().getInt(4L * index));
                case TIMESTAMP, TIMESTAMP_LTZ -> {
                    long value = ((BaseFixedWidthVector) vector).getDataBuffer().getLong(8L * index);
                    long millis;
                    int nanos;
                    switch (ArrowTypes.timeUnit(atomic.precision())) {
                        case MILLISECOND -> {
                            millis = value;
                            nanos = 0;
                        }
                        case MICROSECOND -> {
                            millis = Math.floorDiv(value, 1000);
                            nanos = (int) Math.floorMod(value, 1000) * 1000;
                        }
                        default -> {
                            millis = Math.floorDiv(value, 1_000_000);
                            nanos = (int) Math.floorMod(value, 1_000_000);
                        }
                    }
                    yield atomic.root() == io.tarn.types.TypeRoot.TIMESTAMP
                            ? CanonicalValueFormatter.formatTimestamp(millis, nanos, atomic.precision())
                            : CanonicalValueFormatter.formatTimestampLtz(millis, nanos, atomic.precision());
                }
                default -> throw new IllegalArgumentException("Unsupported " + type);
            };
        }
        if (type instanceof ArrayType array) {
            ListVector list = (ListVector) vector;
            int start = list.getOffsetBuffer().getInt(4L * index);
            int end = list.getOffsetBuffer().getInt(4L * (index + 1));
            StringBuilder out = new StringBuilder("[");
            for (int i = start; i < end; i++) {
                if (i > start) {
                    out.append(',');
                }
                out.append(format(list.getDataVector(), i, array.element(), true));
            }
            return out.append(']').toString();
        }
        if (type instanceof MapType || type instanceof MultisetType) {
            DataType keyType = type instanceof MapType map ? map.key() : ((MultisetType) type).element();
            DataType valueType = type instanceof MapType map ? map.value() : new AtomicType(io.tarn.types.TypeRoot.INT, 0, 0, false);
            ListVector list = (ListVector) vector;
            StructVector entries = (StructVector) list.getDataVector();
            int start = list.getOffsetBuffer().getInt(4L * index);
            int end = list.getOffsetBuffer().getInt(4L * (index + 1));
            StringBuilder out = new StringBuilder("{");
            for (int i = start; i < end; i++) {
                if (i > start) {
                    out.append(',');
                }
                out.append(format(entries.getChildrenFromFields().get(0), i, keyType, true))
                        .append('=')
                        .append(format(entries.getChildrenFromFields().get(1), i, valueType, true));
            }
            return out.append('}').toString();
        }
        RowType row = (RowType) type;
        StructVector struct = (StructVector) vector;
        StringBuilder out = new StringBuilder("{");
        for (int i = 0; i < row.fields().size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            out.append(format(struct.getChildrenFromFields().get(i), index, row.fields().get(i).type(), true));
        }
        return out.append('}').toString();
    }
}
