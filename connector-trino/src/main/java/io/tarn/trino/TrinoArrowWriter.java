package io.tarn.trino;

import io.airlift.slice.Slice;
import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.MultisetType;
import io.tarn.types.TypeRoot;
import io.trino.spi.ErrorCodeSupplier;
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
import io.trino.spi.type.SqlDate;
import io.trino.spi.type.SqlTime;
import io.trino.spi.type.SqlTimestamp;
import io.trino.spi.type.SqlTimestampWithTimeZone;
import io.trino.spi.type.TimeType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TimeZoneKey;
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
import java.time.LocalDate;
import java.util.List;

import static io.trino.spi.StandardErrorCode.CONSTRAINT_VIOLATION;
import static io.trino.spi.StandardErrorCode.INVALID_ARGUMENTS;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.StandardErrorCode.NUMERIC_VALUE_OUT_OF_RANGE;
import static io.trino.spi.type.DateTimeEncoding.unpackMillisUtc;
import static io.trino.spi.type.DateTimeEncoding.unpackZoneKey;
import static java.util.Objects.requireNonNull;

/**
 * Writes a Trino block into an Arrow vector laid out by {@code io.tarn.vector.ArrowTypes}, for
 * the append writer: ARRAY into a list vector, MAP into a map vector of key/value entries, ROW
 * into a struct vector, nested to any depth. Value by value: writes are not the hot path yet.
 *
 * <p>Every value is written exactly or refused with a {@link TrinoException} that names the table,
 * the column and the value, before any file holding it can be committed:
 * <ul>
 * <li>DATE, TIMESTAMP and TIMESTAMP WITH TIME ZONE values must lie in the range of Paimon's types,
 * 0000-01-01 to 9999-12-31 (for zoned values, of the instant in UTC, which is what Paimon's
 * TIMESTAMP WITH LOCAL TIME ZONE keeps; the zone itself is not stored);</li>
 * <li>TIMESTAMP(7..9) values travel in Arrow as nanoseconds since the epoch, so they must also lie
 * between 1677-09-21 00:12:43.145224192 and 2262-04-11 23:47:16.854775807;</li>
 * <li>Paimon keeps TIME as milliseconds of the day, so a TIME value with a finer fraction is
 * refused rather than truncated;</li>
 * <li>Trino's VARBINARY has no length, so a value must fit the column's BINARY(n) (exactly n
 * bytes) or VARBINARY(n);</li>
 * <li>a null is refused where Paimon's type is NOT NULL (Trino checks only top-level columns).</li>
 * </ul>
 * Integers, floating point (NaN, infinities and -0.0 included), decimals and strings of the
 * column's Trino type always fit the mapped Paimon type.
 */
final class TrinoArrowWriter
{
    // Paimon documents DATE and TIMESTAMP as ranging from 0000-01-01 to 9999-12-31
    private static final int MIN_EPOCH_DAY = (int) LocalDate.of(0, 1, 1).toEpochDay();
    private static final int MAX_EPOCH_DAY = (int) LocalDate.of(9999, 12, 31).toEpochDay();
    private static final long MICROS_PER_DAY = 86_400_000_000L;
    private static final long MIN_EPOCH_MICROS = MIN_EPOCH_DAY * MICROS_PER_DAY;
    // exclusive: the first microsecond of 10000-01-01
    private static final long END_EPOCH_MICROS = (MAX_EPOCH_DAY + 1L) * MICROS_PER_DAY;
    private static final long PICOS_PER_MILLI = 1_000_000_000L;
    private static final DataType MULTISET_COUNT = new AtomicType(TypeRoot.INT, 0, 0, false);

    private TrinoArrowWriter() {}

    /**
     * Writes all positions of {@code block} into {@code vector}.
     *
     * @param target where the values go, for error messages: e.g. {@code column ts of table s.t}
     * @throws TrinoException when a value cannot be written exactly
     */
    static void write(Block block, Type type, DataType paimonType, FieldVector vector, String target)
    {
        requireNonNull(paimonType, "paimonType is null");
        requireNonNull(target, "target is null");
        int positions = block.getPositionCount();
        vector.setInitialCapacity(positions);
        vector.allocateNew();
        for (int position = 0; position < positions; position++) {
            write(block, position, type, paimonType, vector, position, target);
        }
        // list and struct vectors pass the count on to their children
        vector.setValueCount(positions);
    }

    /**
     * Writes the value at {@code position} of {@code block} (null or not) to {@code index} of
     * {@code vector}.
     */
    private static void write(Block block, int position, Type type, DataType paimonType, FieldVector vector, int index, String target)
    {
        if (block.isNull(position)) {
            if (!paimonType.nullable()) {
                // Trino checks NOT NULL columns; the types nested in them are Paimon's own
                throw new TrinoException(CONSTRAINT_VIOLATION, "Cannot write a null into %s: its type %s is NOT NULL".formatted(target, paimonType.asSqlString()));
            }
            setNull(vector, index);
            return;
        }
        switch (type) {
            case ArrayType array -> {
                Block elements = array.getObject(block, position);
                ListVector list = (ListVector) vector;
                int offset = list.startNewValue(index);
                for (int element = 0; element < elements.getPositionCount(); element++) {
                    write(elements, element, array.getElementType(), ((io.tarn.types.ArrayType) paimonType).element(), list.getDataVector(), offset + element, target);
                }
                list.endValue(index, elements.getPositionCount());
            }
            case MapType map -> {
                SqlMap entries = map.getObject(block, position);
                MapVector mapVector = (MapVector) vector;
                StructVector entryVector = (StructVector) mapVector.getDataVector();
                FieldVector keys = (FieldVector) entryVector.getChildByOrdinal(0);
                FieldVector values = (FieldVector) entryVector.getChildByOrdinal(1);
                DataType keyType = paimonType instanceof io.tarn.types.MapType paimonMap ? paimonMap.key() : ((MultisetType) paimonType).element();
                DataType valueType = paimonType instanceof io.tarn.types.MapType paimonMap ? paimonMap.value() : MULTISET_COUNT;
                int offset = mapVector.startNewValue(index);
                for (int entry = 0; entry < entries.getSize(); entry++) {
                    entryVector.setIndexDefined(offset + entry);
                    write(entries.getRawKeyBlock(), entries.getRawOffset() + entry, map.getKeyType(), keyType.withNullable(false), keys, offset + entry, target);
                    write(entries.getRawValueBlock(), entries.getRawOffset() + entry, map.getValueType(), valueType, values, offset + entry, target);
                }
                mapVector.endValue(index, entries.getSize());
            }
            case RowType row -> {
                SqlRow fields = row.getObject(block, position);
                List<DataField> paimonFields = ((io.tarn.types.RowType) paimonType).fields();
                StructVector struct = (StructVector) vector;
                struct.setIndexDefined(index);
                for (int field = 0; field < fields.getFieldCount(); field++) {
                    write(fields.getRawFieldBlock(field), fields.getRawIndex(), row.getFields().get(field).getType(), paimonFields.get(field).type(), (FieldVector) struct.getChildByOrdinal(field), index, target);
                }
            }
            default -> writeValue(block, position, type, (AtomicType) paimonType, vector, index, target);
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

    private static void writeValue(Block block, int position, Type type, AtomicType paimonType, FieldVector vector, int index, String target)
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
                // Trino's VARBINARY has no length; Paimon's BINARY(n) holds n bytes, VARBINARY(n) up to n
                boolean fits = paimonType.root() == TypeRoot.BINARY ? slice.length() == paimonType.precision() : slice.length() <= paimonType.precision();
                if (!fits) {
                    throw new TrinoException(INVALID_ARGUMENTS, "Cannot write a varbinary value of %s bytes into %s: its type is %s".formatted(slice.length(), target, paimonType.asSqlString()));
                }
                ((VarBinaryVector) vector).setSafe(index, slice.getBytes());
            }
            case DateType _ -> {
                long days = DateType.DATE.getLong(block, position);
                if (days < MIN_EPOCH_DAY || days > MAX_EPOCH_DAY) {
                    throw refused(NUMERIC_VALUE_OUT_OF_RANGE, type, new SqlDate((int) days), target, "Paimon's DATE ranges from 0000-01-01 to 9999-12-31");
                }
                ((DateDayVector) vector).setSafe(index, (int) days);
            }
            case TimeType time -> {
                long picos = time.getLong(block, position);
                if (picos % PICOS_PER_MILLI != 0) {
                    throw refused(INVALID_ARGUMENTS, type, SqlTime.newInstance(time.getPrecision(), picos), target,
                            "Paimon keeps TIME values as milliseconds of the day, and this value has a finer fraction");
                }
                ((TimeMilliVector) vector).setSafe(index, (int) (picos / PICOS_PER_MILLI));
            }
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
                Object shown = SqlTimestamp.newInstance(timestamp.getPrecision(), micros, picosOfMicro);
                writeTimestamp((TimeStampVector) vector, index, micros, picosOfMicro, type, shown, target, "Paimon's TIMESTAMP");
            }
            case TimestampWithTimeZoneType zoned -> {
                long millis;
                int picosOfMilli = 0;
                TimeZoneKey zone;
                if (zoned.isShort()) {
                    long packed = zoned.getLong(block, position);
                    millis = unpackMillisUtc(packed);
                    zone = unpackZoneKey(packed);
                }
                else {
                    LongTimestampWithTimeZone value = (LongTimestampWithTimeZone) zoned.getObject(block, position);
                    millis = value.getEpochMillis();
                    picosOfMilli = value.getPicosOfMilli();
                    zone = TimeZoneKey.getTimeZoneKey(value.getTimeZoneKey());
                }
                Object shown = SqlTimestampWithTimeZone.newInstance(zoned.getPrecision(), millis, picosOfMilli, zone);
                // the instant is stored; Paimon's TIMESTAMP WITH LOCAL TIME ZONE has no zone of its own
                long micros = Math.multiplyExact(millis, 1000L) + picosOfMilli / 1_000_000;
                writeTimestamp((TimeStampVector) vector, index, micros, picosOfMilli % 1_000_000, type, shown, target, "Paimon's TIMESTAMP WITH LOCAL TIME ZONE, in UTC,");
            }
            default -> throw new TrinoException(NOT_SUPPORTED, "Writing values of type " + type + " is not supported yet");
        }
    }

    /**
     * Writes the instant {@code epochMicros} + {@code picosOfMicro} in the vector's unit, or
     * refuses it when Paimon's type or the unit cannot hold it exactly.
     */
    private static void writeTimestamp(TimeStampVector vector, int position, long epochMicros, int picosOfMicro, Type type, Object shown, String target, String paimonType)
    {
        if (epochMicros < MIN_EPOCH_MICROS || epochMicros >= END_EPOCH_MICROS) {
            throw refused(NUMERIC_VALUE_OUT_OF_RANGE, type, shown, target, paimonType + " ranges from 0000-01-01 00:00:00 to 9999-12-31 23:59:59.999999999");
        }
        TimeUnit unit = ((ArrowType.Timestamp) vector.getField().getType()).getUnit();
        long value = switch (unit) {
            case MILLISECOND -> {
                if (Math.floorMod(epochMicros, 1000) != 0 || picosOfMicro != 0) {
                    throw refused(INVALID_ARGUMENTS, type, shown, target, "the column keeps milliseconds");
                }
                yield Math.floorDiv(epochMicros, 1000);
            }
            case MICROSECOND -> {
                if (picosOfMicro != 0) {
                    throw refused(INVALID_ARGUMENTS, type, shown, target, "the column keeps microseconds");
                }
                yield epochMicros;
            }
            case NANOSECOND -> {
                if (picosOfMicro % 1000 != 0) {
                    throw refused(INVALID_ARGUMENTS, type, shown, target, "the column keeps nanoseconds");
                }
                try {
                    // before 1970 count from the next microsecond down, so that the earliest
                    // nanosecond does not overflow on the way (its microsecond times 1000 would)
                    yield epochMicros < 0
                            ? Math.addExact(Math.multiplyExact(epochMicros + 1, 1000L), picosOfMicro / 1000 - 1000)
                            : Math.addExact(Math.multiplyExact(epochMicros, 1000L), picosOfMicro / 1000);
                }
                catch (ArithmeticException e) {
                    throw new TrinoException(NUMERIC_VALUE_OUT_OF_RANGE, message(type, shown, target,
                            "Tarn carries TIMESTAMP(7) to TIMESTAMP(9) values as nanoseconds since 1970-01-01, which reach from 1677-09-21 00:12:43.145224192 to 2262-04-11 23:47:16.854775807"), e);
                }
            }
            case SECOND -> throw new IllegalStateException("Tarn maps no timestamp to seconds: " + vector.getField());
        };
        vector.setSafe(position, value);
    }

    private static TrinoException refused(ErrorCodeSupplier code, Type type, Object shown, String target, String reason)
    {
        return new TrinoException(code, message(type, shown, target, reason));
    }

    private static String message(Type type, Object shown, String target, String reason)
    {
        return "Cannot write %s value %s into %s: %s".formatted(type.getDisplayName(), shown, target, reason);
    }
}
