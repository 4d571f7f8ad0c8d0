package io.tarn.vector.writer;

import io.tarn.types.ArrayType;
import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.MapType;
import io.tarn.types.MultisetType;
import io.tarn.types.RowType;
import io.tarn.types.Timestamp;
import io.tarn.vector.ArrowTypes;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
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
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Test helpers: rows in Tarn's internal representation, turned into an Arrow batch (the
 * writer's input) and into Paimon's internal rows (for Paimon's own writer), plus the mapping of
 * Tarn types to Paimon types.
 */
final class ArrowRows
{
    private ArrowRows() {}

    static VectorSchemaRoot toBatch(RowType rowType, List<List<Object>> rows, BufferAllocator allocator)
    {
        VectorSchemaRoot root = VectorSchemaRoot.create(ArrowTypes.toArrowSchema(rowType.fields()), allocator);
        root.allocateNew();
        for (int column = 0; column < rowType.size(); column++) {
            FieldVector vector = root.getVector(column);
            for (int row = 0; row < rows.size(); row++) {
                set(vector, row, rowType.fields().get(column).type(), rows.get(row).get(column));
            }
        }
        root.setRowCount(rows.size());
        return root;
    }

    @SuppressWarnings("unchecked")
    private static void set(FieldVector vector, int index, DataType type, Object value)
    {
        if (value == null) {
            setNull(vector, index);
            return;
        }
        if (type instanceof ArrayType array) {
            ListVector list = (ListVector) vector;
            List<Object> elements = (List<Object>) value;
            int start = list.startNewValue(index);
            for (int i = 0; i < elements.size(); i++) {
                set(list.getDataVector(), start + i, array.element(), elements.get(i));
            }
            list.endValue(index, elements.size());
            return;
        }
        if (type instanceof MultisetType multiset) {
            // in Arrow a multiset is a map of element to count; the test passes it as that map
            set(vector, index, new MapType(multiset.element(), new AtomicType(io.tarn.types.TypeRoot.INT, 0, 0, false), multiset.nullable()), value);
            return;
        }
        if (type instanceof MapType map) {
            MapVector mapVector = (MapVector) vector;
            Map<Object, Object> entries = (Map<Object, Object>) value;
            StructVector entryVector = (StructVector) mapVector.getDataVector();
            int start = mapVector.startNewValue(index);
            int i = 0;
            for (Map.Entry<Object, Object> entry : entries.entrySet()) {
                entryVector.setIndexDefined(start + i);
                set((FieldVector) entryVector.getChildByOrdinal(0), start + i, map.key(), entry.getKey());
                set((FieldVector) entryVector.getChildByOrdinal(1), start + i, map.value(), entry.getValue());
                i++;
            }
            mapVector.endValue(index, entries.size());
            return;
        }
        if (type instanceof RowType row) {
            StructVector struct = (StructVector) vector;
            List<Object> fields = (List<Object>) value;
            struct.setIndexDefined(index);
            for (int i = 0; i < row.size(); i++) {
                set((FieldVector) struct.getChildByOrdinal(i), index, row.fields().get(i).type(), fields.get(i));
            }
            return;
        }
        AtomicType atomic = (AtomicType) type;
        switch (atomic.root()) {
            case BOOLEAN -> ((BitVector) vector).setSafe(index, (Boolean) value ? 1 : 0);
            case TINYINT -> ((TinyIntVector) vector).setSafe(index, (Byte) value);
            case SMALLINT -> ((SmallIntVector) vector).setSafe(index, (Short) value);
            case INT -> ((IntVector) vector).setSafe(index, (Integer) value);
            case BIGINT -> ((BigIntVector) vector).setSafe(index, (Long) value);
            case FLOAT -> ((Float4Vector) vector).setSafe(index, (Float) value);
            case DOUBLE -> ((Float8Vector) vector).setSafe(index, (Double) value);
            case DECIMAL -> ((DecimalVector) vector).setSafe(index, (BigDecimal) value);
            case CHAR, VARCHAR -> ((VarCharVector) vector).setSafe(index, ((String) value).getBytes(StandardCharsets.UTF_8));
            case BINARY, VARBINARY -> ((VarBinaryVector) vector).setSafe(index, (byte[]) value);
            case DATE -> ((DateDayVector) vector).setSafe(index, (Integer) value);
            case TIME -> ((TimeMilliVector) vector).setSafe(index, (Integer) value);
            case TIMESTAMP, TIMESTAMP_LTZ -> {
                Timestamp timestamp = (Timestamp) value;
                long stored;
                if (atomic.precision() <= 3) {
                    stored = timestamp.epochMillis();
                }
                else if (atomic.precision() <= 6) {
                    stored = timestamp.epochMicros();
                }
                else {
                    stored = Math.addExact(Math.multiplyExact(timestamp.epochMillis(), 1_000_000L), timestamp.nanoOfMillisecond());
                }
                ((TimeStampVector) vector).setSafe(index, stored);
            }
            default -> throw new IllegalArgumentException("Unsupported test type " + type);
        }
    }

    private static void setNull(FieldVector vector, int index)
    {
        if (vector instanceof BaseFixedWidthVector fixed) {
            fixed.setNull(index);
        }
        else if (vector instanceof BaseVariableWidthVector variable) {
            variable.setNull(index);
        }
        else if (vector instanceof ListVector list) {
            list.setNull(index);
        }
        else if (vector instanceof StructVector struct) {
            struct.setNull(index);
        }
        else {
            throw new IllegalArgumentException("Cannot set null in " + vector.getClass().getSimpleName());
        }
    }

    static org.apache.paimon.types.RowType paimonRowType(RowType rowType)
    {
        return new org.apache.paimon.types.RowType(paimonFields(rowType.fields()));
    }

    private static List<org.apache.paimon.types.DataField> paimonFields(List<DataField> fields)
    {
        List<org.apache.paimon.types.DataField> result = new ArrayList<>();
        for (DataField field : fields) {
            result.add(new org.apache.paimon.types.DataField(field.id(), field.name(), paimonType(field.type())));
        }
        return result;
    }

    private static org.apache.paimon.types.DataType paimonType(DataType type)
    {
        org.apache.paimon.types.DataType result;
        if (type instanceof ArrayType array) {
            result = org.apache.paimon.types.DataTypes.ARRAY(paimonType(array.element()));
        }
        else if (type instanceof MapType map) {
            result = org.apache.paimon.types.DataTypes.MAP(paimonType(map.key()), paimonType(map.value()));
        }
        else if (type instanceof MultisetType multiset) {
            result = org.apache.paimon.types.DataTypes.MULTISET(paimonType(multiset.element()));
        }
        else if (type instanceof RowType row) {
            result = new org.apache.paimon.types.RowType(paimonFields(row.fields()));
        }
        else {
            AtomicType atomic = (AtomicType) type;
            result = switch (atomic.root()) {
                case BOOLEAN -> org.apache.paimon.types.DataTypes.BOOLEAN();
                case TINYINT -> org.apache.paimon.types.DataTypes.TINYINT();
                case SMALLINT -> org.apache.paimon.types.DataTypes.SMALLINT();
                case INT -> org.apache.paimon.types.DataTypes.INT();
                case BIGINT -> org.apache.paimon.types.DataTypes.BIGINT();
                case FLOAT -> org.apache.paimon.types.DataTypes.FLOAT();
                case DOUBLE -> org.apache.paimon.types.DataTypes.DOUBLE();
                case DECIMAL -> org.apache.paimon.types.DataTypes.DECIMAL(atomic.precision(), atomic.scale());
                case CHAR -> org.apache.paimon.types.DataTypes.CHAR(atomic.precision());
                case VARCHAR -> org.apache.paimon.types.DataTypes.VARCHAR(atomic.precision());
                case BINARY -> org.apache.paimon.types.DataTypes.BINARY(atomic.precision());
                case VARBINARY -> org.apache.paimon.types.DataTypes.VARBINARY(atomic.precision());
                case DATE -> org.apache.paimon.types.DataTypes.DATE();
                case TIME -> org.apache.paimon.types.DataTypes.TIME(atomic.precision());
                case TIMESTAMP -> org.apache.paimon.types.DataTypes.TIMESTAMP(atomic.precision());
                case TIMESTAMP_LTZ -> org.apache.paimon.types.DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(atomic.precision());
                default -> throw new IllegalArgumentException("Unsupported test type " + type);
            };
        }
        return type.nullable() ? result : result.notNull();
    }

    static GenericRow paimonRow(RowType rowType, List<Object> row)
    {
        Object[] values = new Object[rowType.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = paimonValue(rowType.fields().get(i).type(), row.get(i));
        }
        return GenericRow.of(values);
    }

    @SuppressWarnings("unchecked")
    private static Object paimonValue(DataType type, Object value)
    {
        if (value == null) {
            return null;
        }
        if (type instanceof ArrayType array) {
            List<Object> elements = (List<Object>) value;
            Object[] converted = new Object[elements.size()];
            for (int i = 0; i < converted.length; i++) {
                converted[i] = paimonValue(array.element(), elements.get(i));
            }
            return new GenericArray(converted);
        }
        if (type instanceof MapType map) {
            Map<Object, Object> converted = new LinkedHashMap<>();
            ((Map<Object, Object>) value).forEach((key, entry) -> converted.put(paimonValue(map.key(), key), paimonValue(map.value(), entry)));
            return new GenericMap(converted);
        }
        if (type instanceof MultisetType multiset) {
            Map<Object, Object> converted = new LinkedHashMap<>();
            ((Map<Object, Object>) value).forEach((element, count) -> converted.put(paimonValue(multiset.element(), element), count));
            return new GenericMap(converted);
        }
        if (type instanceof RowType row) {
            return paimonRow(row, (List<Object>) value);
        }
        AtomicType atomic = (AtomicType) type;
        return switch (atomic.root()) {
            case DECIMAL -> Decimal.fromBigDecimal((BigDecimal) value, atomic.precision(), atomic.scale());
            case CHAR, VARCHAR -> BinaryString.fromString((String) value);
            case TIMESTAMP, TIMESTAMP_LTZ -> org.apache.paimon.data.Timestamp.fromEpochMillis(((Timestamp) value).epochMillis(), ((Timestamp) value).nanoOfMillisecond());
            default -> value;
        };
    }
}
