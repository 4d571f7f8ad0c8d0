package io.tarn.vector.avro;

import io.tarn.types.ArrayType;
import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.MapType;
import io.tarn.types.MultisetType;
import io.tarn.types.RowType;
import io.tarn.types.Timestamp;
import io.tarn.types.TypeRoot;
import io.tarn.vector.rows.ArrowValues;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.avro.io.Encoder;

import java.io.IOException;
import java.math.BigDecimal;
import java.util.List;

/**
 * Encodes one value of an Arrow vector in Avro's binary encoding, as {@link AvroWriterSchema}
 * declares its type: a nullable value as the union branch (0 for null, 1 for the value) then the
 * value; numbers as Avro's zig-zag ints and longs; strings and binaries length-prefixed;
 * decimals as the unscaled value's big-endian two's complement bytes; timestamps as epoch
 * milliseconds or microseconds; arrays and maps as one block of items.
 */
final class AvroValueEncoder
{
    private static final AtomicType COUNT = new AtomicType(TypeRoot.INT, 0, 0, true);
    private static final int MAX_MILLIS_PRECISION = 3;

    private AvroValueEncoder() {}

    static void encode(Encoder out, FieldVector vector, int row, DataType type, String column)
            throws IOException
    {
        boolean isNull = vector.isNull(row);
        if (type.nullable()) {
            out.writeIndex(isNull ? 0 : 1);
            if (isNull) {
                return;
            }
        }
        else if (isNull) {
            throw new IllegalArgumentException("Column " + column + " is NOT NULL and holds a NULL");
        }
        if (type instanceof ArrayType array) {
            ListVector list = (ListVector) vector;
            int start = list.getElementStartIndex(row);
            int end = list.getElementEndIndex(row);
            out.writeArrayStart();
            out.setItemCount(end - start);
            for (int i = start; i < end; i++) {
                out.startItem();
                encode(out, list.getDataVector(), i, array.element(), column);
            }
            out.writeArrayEnd();
            return;
        }
        if (type instanceof MapType || type instanceof MultisetType) {
            encodeMap(out, (MapVector) vector, row, type, column);
            return;
        }
        if (type instanceof RowType rowType) {
            List<FieldVector> children = ((StructVector) vector).getChildrenFromFields();
            List<DataField> fields = rowType.fields();
            for (int i = 0; i < fields.size(); i++) {
                encode(out, children.get(i), row, fields.get(i).type(), column + "." + fields.get(i).name());
            }
            return;
        }
        encodeAtomic(out, vector, row, (AtomicType) type);
    }

    private static void encodeMap(Encoder out, MapVector map, int row, DataType type, String column)
            throws IOException
    {
        DataType keyType = type instanceof MapType mapType ? mapType.key() : ((MultisetType) type).element();
        DataType valueType = type instanceof MapType mapType ? mapType.value() : COUNT;
        StructVector entries = (StructVector) map.getDataVector();
        FieldVector keys = entries.getChildrenFromFields().get(0);
        FieldVector values = entries.getChildrenFromFields().get(1);
        int start = map.getElementStartIndex(row);
        int end = map.getElementEndIndex(row);
        boolean stringKeyed = AvroLayout.isStringKeyed(type);
        if (stringKeyed) {
            out.writeMapStart();
        }
        else {
            out.writeArrayStart();
        }
        out.setItemCount(end - start);
        for (int i = start; i < end; i++) {
            out.startItem();
            if (stringKeyed) {
                if (keys.isNull(i)) {
                    throw new IllegalArgumentException("Column " + column + " holds a map with a NULL key, which Avro maps cannot hold");
                }
                out.writeBytes(((BaseVariableWidthVector) keys).get(i));
            }
            else {
                encode(out, keys, i, keyType, column + ".key");
            }
            encode(out, values, i, valueType, column + ".value");
        }
        if (stringKeyed) {
            out.writeMapEnd();
        }
        else {
            out.writeArrayEnd();
        }
    }

    private static void encodeAtomic(Encoder out, FieldVector vector, int row, AtomicType type)
            throws IOException
    {
        Object value = ArrowValues.value(vector, row, type);
        switch (type.root()) {
            case BOOLEAN -> out.writeBoolean((Boolean) value);
            case TINYINT, SMALLINT, INT, DATE, TIME -> out.writeInt(((Number) value).intValue());
            case BIGINT -> out.writeLong((Long) value);
            case FLOAT -> out.writeFloat((Float) value);
            case DOUBLE -> out.writeDouble((Double) value);
            // Avro strings and bytes share one encoding: a length, then the bytes (UTF-8 for strings)
            case CHAR, VARCHAR, BINARY, VARBINARY -> out.writeBytes(((BaseVariableWidthVector) vector).get(row));
            case DECIMAL -> out.writeBytes(((BigDecimal) value).unscaledValue().toByteArray());
            case TIMESTAMP, TIMESTAMP_LTZ -> {
                Timestamp timestamp = (Timestamp) value;
                out.writeLong(type.precision() <= MAX_MILLIS_PRECISION ? timestamp.epochMillis() : timestamp.epochMicros());
            }
            default -> throw new IllegalArgumentException("Type " + type.asSqlString() + " is not written to Avro");
        }
    }
}
