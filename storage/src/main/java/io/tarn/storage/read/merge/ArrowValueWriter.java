package io.tarn.storage.read.merge;

import io.tarn.types.ArrayType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.MapType;
import io.tarn.types.MultisetType;
import io.tarn.types.RowType;
import io.tarn.types.Timestamp;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Writes one internal value (the representation {@link DataType} fixes, as
 * {@code io.tarn.vector.rows.ArrowValues} reads it) into an Arrow vector laid out by
 * {@code io.tarn.vector.ArrowTypes}: the inverse of {@code ArrowValues.value}. Row at a time; the
 * merge path builds its output batches with it.
 */
final class ArrowValueWriter
{
    private ArrowValueWriter() {}

    /**
     * Sets slot {@code index} of {@code vector} to {@code value} (null writes NULL), growing the
     * vector as needed. Callers set the value count when the batch is complete.
     */
    static void write(FieldVector vector, int index, Object value, DataType type)
    {
        if (value == null) {
            writeNull(vector, index);
            return;
        }
        switch (type.root()) {
            case BOOLEAN -> ((BitVector) vector).setSafe(index, (Boolean) value ? 1 : 0);
            case TINYINT -> ((TinyIntVector) vector).setSafe(index, (Byte) value);
            case SMALLINT -> ((SmallIntVector) vector).setSafe(index, (Short) value);
            case INT -> ((IntVector) vector).setSafe(index, (Integer) value);
            case BIGINT -> ((BigIntVector) vector).setSafe(index, (Long) value);
            case FLOAT -> ((Float4Vector) vector).setSafe(index, (Float) value);
            case DOUBLE -> ((Float8Vector) vector).setSafe(index, (Double) value);
            case DECIMAL -> ((DecimalVector) vector).setSafe(index, (BigDecimal) value);
            case CHAR, VARCHAR -> ((BaseVariableWidthVector) vector).setSafe(index, ((String) value).getBytes(StandardCharsets.UTF_8));
            case BINARY, VARBINARY -> ((BaseVariableWidthVector) vector).setSafe(index, (byte[]) value);
            case DATE -> ((DateDayVector) vector).setSafe(index, (Integer) value);
            case TIME -> ((TimeMilliVector) vector).setSafe(index, (Integer) value);
            case TIMESTAMP, TIMESTAMP_LTZ -> writeTimestamp((TimeStampVector) vector, index, (Timestamp) value);
            case ARRAY -> writeList((ListVector) vector, index, (List<?>) value, ((ArrayType) type).element());
            case MULTISET -> writeMultiset((MapVector) vector, index, (List<?>) value, ((MultisetType) type).element());
            case MAP -> writeMap((MapVector) vector, index, (Map<?, ?>) value, (MapType) type);
            case ROW -> writeRow((StructVector) vector, index, (List<?>) value, (RowType) type);
            case VARIANT -> throw new IllegalArgumentException("VARIANT has no Arrow mapping yet");
        }
    }

    private static void writeNull(FieldVector vector, int index)
    {
        // grow first: setNull does not reallocate
        while (index >= vector.getValueCapacity()) {
            vector.reAlloc();
        }
        if (vector instanceof StructVector struct) {
            struct.setNull(index);
        }
        else if (vector instanceof ListVector list) {
            list.setNull(index);
        }
        else {
            vector.setNull(index);
        }
    }

    private static void writeTimestamp(TimeStampVector vector, int index, Timestamp value)
    {
        TimeUnit unit = ((ArrowType.Timestamp) vector.getField().getType()).getUnit();
        long raw = switch (unit) {
            case SECOND -> Math.floorDiv(value.epochMillis(), 1000L);
            case MILLISECOND -> value.epochMillis();
            case MICROSECOND -> value.epochMicros();
            case NANOSECOND -> Math.addExact(Math.multiplyExact(value.epochMillis(), 1_000_000L), value.nanoOfMillisecond());
        };
        vector.setSafe(index, raw);
    }

    private static void writeList(ListVector vector, int index, List<?> elements, DataType elementType)
    {
        int start = vector.startNewValue(index);
        FieldVector data = vector.getDataVector();
        for (int i = 0; i < elements.size(); i++) {
            write(data, start + i, elements.get(i), elementType);
        }
        vector.endValue(index, elements.size());
    }

    private static void writeMap(MapVector vector, int index, Map<?, ?> entries, MapType type)
    {
        int start = vector.startNewValue(index);
        StructVector struct = (StructVector) vector.getDataVector();
        FieldVector keys = struct.getChildrenFromFields().get(0);
        FieldVector values = struct.getChildrenFromFields().get(1);
        int i = start;
        for (Map.Entry<?, ?> entry : entries.entrySet()) {
            defineStruct(struct, i);
            write(keys, i, entry.getKey(), type.key());
            write(values, i, entry.getValue(), type.value());
            i++;
        }
        vector.endValue(index, entries.size());
    }

    private static void writeMultiset(MapVector vector, int index, List<?> elements, DataType elementType)
    {
        // a multiset is read as each element repeated by its count: count equal elements back together
        List<Object> distinct = new ArrayList<>();
        List<Integer> counts = new ArrayList<>();
        for (Object element : elements) {
            int found = -1;
            for (int i = 0; i < distinct.size(); i++) {
                if (sameValue(distinct.get(i), element)) {
                    found = i;
                    break;
                }
            }
            if (found < 0) {
                distinct.add(element);
                counts.add(1);
            }
            else {
                counts.set(found, counts.get(found) + 1);
            }
        }
        int start = vector.startNewValue(index);
        StructVector struct = (StructVector) vector.getDataVector();
        FieldVector keys = struct.getChildrenFromFields().get(0);
        IntVector countVector = (IntVector) struct.getChildrenFromFields().get(1);
        for (int i = 0; i < distinct.size(); i++) {
            defineStruct(struct, start + i);
            write(keys, start + i, distinct.get(i), elementType);
            countVector.setSafe(start + i, counts.get(i));
        }
        vector.endValue(index, distinct.size());
    }

    private static boolean sameValue(Object left, Object right)
    {
        if (left instanceof byte[] a && right instanceof byte[] b) {
            return Arrays.equals(a, b);
        }
        return left == null ? right == null : left.equals(right);
    }

    private static void defineStruct(StructVector vector, int index)
    {
        while (index >= vector.getValueCapacity()) {
            vector.reAlloc();
        }
        vector.setIndexDefined(index);
    }

    private static void writeRow(StructVector vector, int index, List<?> values, RowType type)
    {
        List<FieldVector> children = vector.getChildrenFromFields();
        List<DataField> fields = type.fields();
        if (values.size() != fields.size() || children.size() != fields.size()) {
            throw new IllegalArgumentException("Row value of " + values.size() + " fields does not match type " + type.asSqlString());
        }
        defineStruct(vector, index);
        for (int i = 0; i < fields.size(); i++) {
            write(children.get(i), index, values.get(i), fields.get(i).type());
        }
    }
}
