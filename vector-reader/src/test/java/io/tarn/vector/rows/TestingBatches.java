package io.tarn.vector.rows;

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
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Writes rows of internal values into Arrow vectors laid out by {@link ArrowTypes}, setting each
 * buffer through the vectors' own setters, independently of the code under test. A MULTISET value
 * is given as a {@link Map} of element to count.
 */
public final class TestingBatches
{
    private TestingBatches() {}

    public static VectorSchemaRoot batch(BufferAllocator allocator, List<DataField> fields, List<List<Object>> rows)
    {
        VectorSchemaRoot root = VectorSchemaRoot.create(ArrowTypes.toArrowSchema(fields), allocator);
        try {
            root.allocateNew();
            for (int row = 0; row < rows.size(); row++) {
                for (int column = 0; column < fields.size(); column++) {
                    set(root.getVector(column), row, fields.get(column).type(), rows.get(row).get(column));
                }
            }
            root.setRowCount(rows.size());
            return root;
        }
        catch (RuntimeException e) {
            root.close();
            throw e;
        }
    }

    @SuppressWarnings("unchecked")
    public static void set(FieldVector vector, int index, DataType type, Object value)
    {
        if (value == null) {
            if (vector instanceof ListVector list) {
                list.setNull(index);
            }
            else if (vector instanceof StructVector struct) {
                struct.setNull(index);
            }
            else if (vector instanceof BaseFixedWidthVector fixed) {
                fixed.setNull(index);
            }
            else {
                ((BaseVariableWidthVector) vector).setNull(index);
            }
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
            case TIMESTAMP, TIMESTAMP_LTZ -> ((TimeStampVector) vector).setSafe(index, inUnit((Timestamp) value, ((AtomicType) type).precision()));
            case ARRAY -> {
                ListVector list = (ListVector) vector;
                List<Object> elements = (List<Object>) value;
                int offset = list.startNewValue(index);
                for (int i = 0; i < elements.size(); i++) {
                    set(list.getDataVector(), offset + i, ((ArrayType) type).element(), elements.get(i));
                }
                list.endValue(index, elements.size());
            }
            case MAP, MULTISET -> {
                MapVector map = (MapVector) vector;
                DataType keyType = type instanceof MapType mapType ? mapType.key() : ((MultisetType) type).element();
                DataType valueType = type instanceof MapType mapType ? mapType.value() : io.tarn.types.DataTypes.integer();
                StructVector entries = (StructVector) map.getDataVector();
                int offset = map.startNewValue(index);
                int i = 0;
                for (Map.Entry<Object, Object> entry : ((Map<Object, Object>) value).entrySet()) {
                    entries.setIndexDefined(offset + i);
                    set(entries.getChildrenFromFields().get(0), offset + i, keyType, entry.getKey());
                    set(entries.getChildrenFromFields().get(1), offset + i, valueType, entry.getValue());
                    i++;
                }
                map.endValue(index, i);
            }
            case ROW -> {
                StructVector struct = (StructVector) vector;
                List<Object> values = (List<Object>) value;
                struct.setIndexDefined(index);
                List<DataField> fields = ((RowType) type).fields();
                for (int i = 0; i < fields.size(); i++) {
                    set(struct.getChildrenFromFields().get(i), index, fields.get(i).type(), values.get(i));
                }
            }
            default -> throw new IllegalArgumentException("Unsupported type " + type);
        }
    }

    private static long inUnit(Timestamp timestamp, int precision)
    {
        if (precision <= 3) {
            return timestamp.epochMillis();
        }
        if (precision <= 6) {
            return timestamp.epochMillis() * 1000 + timestamp.nanoOfMillisecond() / 1000;
        }
        return timestamp.epochMillis() * 1_000_000 + timestamp.nanoOfMillisecond();
    }
}
