package io.tarn.trino;

import io.airlift.slice.Slice;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.block.SqlMap;
import io.trino.spi.block.SqlRow;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.CharType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.LongTimestamp;
import io.trino.spi.type.LongTimestampWithTimeZone;
import io.trino.spi.type.MapType;
import io.trino.spi.type.RealType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TimeType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TimestampWithTimeZoneType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarbinaryType;
import io.trino.spi.type.VarcharType;
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
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

import java.math.BigDecimal;

import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.type.DateTimeEncoding.unpackMillisUtc;

/**
 * Writes a Trino block into an Arrow vector laid out by {@code io.tarn.vector.ArrowTypes}, for
 * the append writer: ARRAY into a list vector, MAP into a map vector of key/value entries, ROW
 * into a struct vector, nested to any depth. Value by value: writes are not the hot path yet.
 */
final class TrinoArrowWriter
{
    private TrinoArrowWriter() {}

    static void write(Block block, Type type, FieldVector vector)
    {
        int positions = block.getPositionCount();
        vector.setInitialCapacity(positions);
        vector.allocateNew();
        for (int position = 0; position < positions; position++) {
            write(block, position, type, vector, position);
        }
        // list and struct vectors pass the count on to their children
        vector.setValueCount(positions);
    }

    /**
     * Writes the value at {@code position} of {@code block} (null or not) to {@code index} of
     * {@code vector}.
     */
    private static void write(Block block, int position, Type type, FieldVector vector, int index)
    {
        if (block.isNull(position)) {
            setNull(vector, index);
            return;
        }
        switch (type) {
            case ArrayType array -> {
                Block elements = array.getObject(block, position);
                ListVector list = (ListVector) vector;
                int offset = list.startNewValue(index);
                for (int element = 0; element < elements.getPositionCount(); element++) {
                    write(elements, element, array.getElementType(), list.getDataVector(), offset + element);
                }
                list.endValue(index, elements.getPositionCount());
            }
            case MapType map -> {
                SqlMap entries = map.getObject(block, position);
                MapVector mapVector = (MapVector) vector;
                StructVector entryVector = (StructVector) mapVector.getDataVector();
                FieldVector keys = (FieldVector) entryVector.getChildByOrdinal(0);
                FieldVector values = (FieldVector) entryVector.getChildByOrdinal(1);
                int offset = mapVector.startNewValue(index);
                for (int entry = 0; entry < entries.getSize(); entry++) {
                    entryVector.setIndexDefined(offset + entry);
                    write(entries.getRawKeyBlock(), entries.getRawOffset() + entry, map.getKeyType(), keys, offset + entry);
                    write(entries.getRawValueBlock(), entries.getRawOffset() + entry, map.getValueType(), values, offset + entry);
                }
                mapVector.endValue(index, entries.getSize());
            }
            case RowType row -> {
                SqlRow fields = row.getObject(block, position);
                StructVector struct = (StructVector) vector;
                struct.setIndexDefined(index);
                for (int field = 0; field < fields.getFieldCount(); field++) {
                    write(fields.getRawFieldBlock(field), fields.getRawIndex(), row.getFields().get(field).getType(), (FieldVector) struct.getChildByOrdinal(field), index);
                }
            }
            default -> writeValue(block, position, type, vector, index);
        }
    }

    private static void setNull(FieldVector vector, int index)
    {
        if (vector instanceof StructVector struct) {
            // the children of a null struct are null too, so that every vector covers the index
            struct.setNull(index);
            for (int field = 0; field < struct.size(); field++) {
                setNull((FieldVector) struct.getChildByOrdinal(field), index);
            }
            return;
        }
        vector.setNull(index);
    }

    private static void writeValue(Block block, int position, Type type, FieldVector vector, int index)
    {
        switch (type) {
            case BooleanType _ -> ((BitVector) vector).setSafe(index, BooleanType.BOOLEAN.getBoolean(block, position) ? 1 : 0);
            case TinyintType _ -> ((TinyIntVector) vector).setSafe(index, (byte) TinyintType.TINYINT.getLong(block, position));
            case SmallintType _ -> ((SmallIntVector) vector).setSafe(index, (short) SmallintType.SMALLINT.getLong(block, position));
            case IntegerType _ -> ((IntVector) vector).setSafe(index, (int) IntegerType.INTEGER.getLong(block, position));
            case BigintType _ -> ((BigIntVector) vector).setSafe(index, BigintType.BIGINT.getLong(block, position));
            case RealType _ -> ((Float4Vector) vector).setSafe(index, RealType.REAL.getFloat(block, position));
            case DoubleType _ -> ((Float8Vector) vector).setSafe(index, DoubleType.DOUBLE.getDouble(block, position));
            case DecimalType decimal -> {
                Object value = decimal.isShort() ? decimal.getLong(block, position) : decimal.getObject(block, position);
                BigDecimal number = TarnPredicates.decimal(value, decimal);
                ((DecimalVector) vector).setSafe(index, number);
            }
            case CharType charType -> ((VarCharVector) vector).setSafe(index, charType.getSlice(block, position).getBytes());
            case VarcharType varchar -> ((VarCharVector) vector).setSafe(index, varchar.getSlice(block, position).getBytes());
            case VarbinaryType varbinary -> {
                Slice slice = varbinary.getSlice(block, position);
                ((VarBinaryVector) vector).setSafe(index, slice.getBytes());
            }
            case DateType _ -> ((DateDayVector) vector).setSafe(index, (int) DateType.DATE.getLong(block, position));
            case TimeType time -> ((TimeMilliVector) vector).setSafe(index, (int) (time.getLong(block, position) / 1_000_000_000L));
            case TimestampType timestamp -> {
                long micros;
                int picosOfMicro = 0;
                if (timestamp.isShort()) {
                    micros = timestamp.getLong(block, position);
                }
                else {
                    LongTimestamp value = (LongTimestamp) timestamp.getObject(block, position);
                    micros = value.getEpochMicros();
                    picosOfMicro = value.getPicosOfMicro();
                }
                writeTimestamp((TimeStampVector) vector, index, Math.floorDiv(micros, 1000), (int) (Math.floorMod(micros, 1000) * 1000 + picosOfMicro / 1000));
            }
            case TimestampWithTimeZoneType zoned -> {
                long millis;
                int nanosOfMilli = 0;
                if (zoned.isShort()) {
                    millis = unpackMillisUtc(zoned.getLong(block, position));
                }
                else {
                    LongTimestampWithTimeZone value = (LongTimestampWithTimeZone) zoned.getObject(block, position);
                    millis = value.getEpochMillis();
                    nanosOfMilli = value.getPicosOfMilli() / 1000;
                }
                writeTimestamp((TimeStampVector) vector, index, millis, nanosOfMilli);
            }
            default -> throw new TrinoException(NOT_SUPPORTED, "Writing values of type " + type + " is not supported yet");
        }
    }

    private static void writeTimestamp(TimeStampVector vector, int position, long millis, int nanosOfMilli)
    {
        TimeUnit unit = ((ArrowType.Timestamp) vector.getField().getType()).getUnit();
        long value = switch (unit) {
            case MILLISECOND -> millis;
            case MICROSECOND -> millis * 1000 + nanosOfMilli / 1000;
            case NANOSECOND -> millis * 1_000_000 + nanosOfMilli;
            case SECOND -> Math.floorDiv(millis, 1000);
        };
        vector.setSafe(position, value);
    }
}
