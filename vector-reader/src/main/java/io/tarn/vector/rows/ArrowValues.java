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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Reads one value of an Arrow vector laid out by {@link io.tarn.vector.ArrowTypes} into Tarn's
 * internal Java representation (see {@link DataType}): the form that predicates, comparators and
 * row-at-a-time code work on. This boxes and allocates; it is for slow paths and tests, not for
 * inner loops over whole batches.
 */
public final class ArrowValues
{
    private ArrowValues() {}

    /**
     * The value at {@code row}, or null when the slot is NULL. ARRAY and MULTISET become a
     * {@link List} (a MULTISET lists each element as often as its count says), MAP a
     * {@link LinkedHashMap} in stored order (a later duplicate key replaces the earlier value), ROW
     * a {@link List} of its field values.
     *
     * @throws IllegalArgumentException if the vector is not the one {@link io.tarn.vector.ArrowTypes}
     * maps {@code type} to
     */
    public static Object value(FieldVector vector, int row, DataType type)
    {
        requireNonNull(vector, "vector is null");
        requireNonNull(type, "type is null");
        if (row < 0 || row >= vector.getValueCount()) {
            throw new IndexOutOfBoundsException("Row " + row + " is outside vector " + vector.getName() + " of " + vector.getValueCount() + " values");
        }
        if (vector.isNull(row)) {
            return null;
        }
        return switch (type.root()) {
            case BOOLEAN -> as(vector, BitVector.class, type).get(row) != 0;
            case TINYINT -> as(vector, TinyIntVector.class, type).get(row);
            case SMALLINT -> as(vector, SmallIntVector.class, type).get(row);
            case INT -> as(vector, IntVector.class, type).get(row);
            case BIGINT -> as(vector, BigIntVector.class, type).get(row);
            case FLOAT -> as(vector, Float4Vector.class, type).get(row);
            case DOUBLE -> as(vector, Float8Vector.class, type).get(row);
            case DECIMAL -> decimal(as(vector, DecimalVector.class, type), row, (AtomicType) type);
            case CHAR, VARCHAR -> new String(as(vector, BaseVariableWidthVector.class, type).get(row), StandardCharsets.UTF_8);
            case BINARY, VARBINARY -> as(vector, BaseVariableWidthVector.class, type).get(row);
            case DATE -> as(vector, DateDayVector.class, type).get(row);
            case TIME -> as(vector, TimeMilliVector.class, type).get(row);
            case TIMESTAMP, TIMESTAMP_LTZ -> timestamp(as(vector, TimeStampVector.class, type), row);
            case ARRAY -> array(as(vector, ListVector.class, type), row, ((ArrayType) type).element());
            case MULTISET -> multiset(as(vector, MapVector.class, type), row, ((MultisetType) type).element());
            case MAP -> map(as(vector, MapVector.class, type), row, (MapType) type);
            case ROW -> struct(as(vector, StructVector.class, type), row, (RowType) type);
            case VARIANT -> throw new IllegalArgumentException("VARIANT has no Arrow mapping yet");
        };
    }

    /**
     * The {@link Timestamp} of a timestamp vector's raw value, in the vector's unit.
     */
    public static Timestamp timestamp(TimeStampVector vector, int row)
    {
        long raw = vector.get(row);
        return switch (timeUnit(vector)) {
            case SECOND -> Timestamp.ofMillis(Math.multiplyExact(raw, 1000L));
            case MILLISECOND -> Timestamp.ofMillis(raw);
            case MICROSECOND -> Timestamp.ofMicros(raw);
            case NANOSECOND -> new Timestamp(Math.floorDiv(raw, 1_000_000L), (int) Math.floorMod(raw, 1_000_000L));
        };
    }

    static TimeUnit timeUnit(TimeStampVector vector)
    {
        return ((ArrowType.Timestamp) vector.getField().getType()).getUnit();
    }

    private static BigDecimal decimal(DecimalVector vector, int row, AtomicType type)
    {
        // the vector's scale is the type's when the batch came from ArrowTypes; setScale makes a mismatch fail loudly
        return vector.getObject(row).setScale(type.scale());
    }

    private static List<Object> array(ListVector vector, int row, DataType elementType)
    {
        FieldVector elements = vector.getDataVector();
        int start = vector.getElementStartIndex(row);
        int end = vector.getElementEndIndex(row);
        List<Object> values = new ArrayList<>(end - start);
        for (int i = start; i < end; i++) {
            values.add(value(elements, i, elementType));
        }
        return values;
    }

    private static List<Object> multiset(MapVector vector, int row, DataType elementType)
    {
        StructVector entries = (StructVector) vector.getDataVector();
        FieldVector keys = entries.getChildrenFromFields().get(0);
        FieldVector counts = entries.getChildrenFromFields().get(1);
        List<Object> values = new ArrayList<>();
        for (int i = vector.getElementStartIndex(row); i < vector.getElementEndIndex(row); i++) {
            Object element = value(keys, i, elementType);
            Object count = value(counts, i, new AtomicType(TypeRoot.INT, 0, 0, true));
            for (int n = 0; count != null && n < (Integer) count; n++) {
                values.add(element);
            }
        }
        return values;
    }

    private static Map<Object, Object> map(MapVector vector, int row, MapType type)
    {
        StructVector entries = (StructVector) vector.getDataVector();
        FieldVector keys = entries.getChildrenFromFields().get(0);
        FieldVector values = entries.getChildrenFromFields().get(1);
        Map<Object, Object> map = new LinkedHashMap<>();
        for (int i = vector.getElementStartIndex(row); i < vector.getElementEndIndex(row); i++) {
            map.put(value(keys, i, type.key()), value(values, i, type.value()));
        }
        return map;
    }

    private static List<Object> struct(StructVector vector, int row, RowType type)
    {
        List<FieldVector> children = vector.getChildrenFromFields();
        if (children.size() != type.size()) {
            throw new IllegalArgumentException("Vector " + vector.getName() + " has " + children.size() + " children but type " + type.asSqlString() + " has " + type.size() + " fields");
        }
        List<Object> values = new ArrayList<>(children.size());
        List<DataField> fields = type.fields();
        for (int i = 0; i < children.size(); i++) {
            values.add(value(children.get(i), row, fields.get(i).type()));
        }
        return values;
    }

    static <T> T as(FieldVector vector, Class<T> expected, DataType type)
    {
        if (!expected.isInstance(vector)) {
            throw new IllegalArgumentException("Vector " + vector.getName() + " of type " + vector.getField().getType() + " (" + vector.getClass().getSimpleName() +
                    ") does not hold values of type " + type.asSqlString());
        }
        return expected.cast(vector);
    }
}
