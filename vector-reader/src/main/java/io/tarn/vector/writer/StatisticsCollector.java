package io.tarn.vector.writer;

import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.Timestamp;
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

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static java.util.Objects.requireNonNull;

/**
 * Min, max and null count of one top-level field, gathered from the Arrow values as they are
 * written, in Paimon's value order: numbers numerically, FLOAT and DOUBLE by
 * {@link Double#compare} (NaN largest), strings and binary by unsigned bytes. Nested fields only
 * count nulls.
 */
final class StatisticsCollector
{
    private enum Kind
    {
        NONE, BOOLEAN, LONG, FLOATING, BYTES, BIG_DECIMAL
    }

    private final DataField field;
    private final Kind kind;
    private long nullCount;
    private boolean hasValue;
    private long minLong;
    private long maxLong;
    private double minDouble;
    private double maxDouble;
    private byte[] minBytes;
    private byte[] maxBytes;
    private BigDecimal minDecimal;
    private BigDecimal maxDecimal;

    StatisticsCollector(DataField field)
    {
        this.field = requireNonNull(field, "field is null");
        this.kind = kind(field);
    }

    private static Kind kind(DataField field)
    {
        if (!(field.type() instanceof AtomicType type)) {
            return Kind.NONE;
        }
        return switch (type.root()) {
            case BOOLEAN -> Kind.BOOLEAN;
            case TINYINT, SMALLINT, INT, BIGINT, DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ -> Kind.LONG;
            case FLOAT, DOUBLE -> Kind.FLOATING;
            case CHAR, VARCHAR, BINARY, VARBINARY -> Kind.BYTES;
            case DECIMAL -> type.precision() <= 18 ? Kind.LONG : Kind.BIG_DECIMAL;
            default -> Kind.NONE;
        };
    }

    void update(FieldVector vector, int from, int to)
    {
        for (int row = from; row < to; row++) {
            if (vector.isNull(row)) {
                nullCount++;
                continue;
            }
            switch (kind) {
                case NONE -> {}
                case BOOLEAN -> updateLong(((BitVector) vector).get(row));
                case LONG -> updateLong(longValue(vector, row));
                case FLOATING -> updateDouble(vector instanceof Float4Vector floats ? floats.get(row) : ((Float8Vector) vector).get(row));
                case BYTES -> updateBytes(vector instanceof VarCharVector strings ? strings.get(row) : ((VarBinaryVector) vector).get(row));
                case BIG_DECIMAL -> updateDecimal(((DecimalVector) vector).getObject(row));
            }
        }
    }

    private static long longValue(FieldVector vector, int row)
    {
        if (vector instanceof TinyIntVector tinyints) {
            return tinyints.get(row);
        }
        if (vector instanceof SmallIntVector smallints) {
            return smallints.get(row);
        }
        if (vector instanceof IntVector ints) {
            return ints.get(row);
        }
        if (vector instanceof BigIntVector bigints) {
            return bigints.get(row);
        }
        if (vector instanceof DateDayVector dates) {
            return dates.get(row);
        }
        if (vector instanceof TimeMilliVector times) {
            return times.get(row);
        }
        if (vector instanceof TimeStampVector timestamps) {
            return timestamps.get(row);
        }
        if (vector instanceof DecimalVector decimals) {
            return decimals.getDataBuffer().getLong((long) row * DecimalVector.TYPE_WIDTH);
        }
        throw new IllegalArgumentException("Unexpected vector " + vector.getClass().getSimpleName() + " for " + vector.getField());
    }

    private void updateLong(long value)
    {
        if (!hasValue || value < minLong) {
            minLong = value;
        }
        if (!hasValue || value > maxLong) {
            maxLong = value;
        }
        hasValue = true;
    }

    private void updateDouble(double value)
    {
        if (!hasValue || Double.compare(value, minDouble) < 0) {
            minDouble = value;
        }
        if (!hasValue || Double.compare(value, maxDouble) > 0) {
            maxDouble = value;
        }
        hasValue = true;
    }

    private void updateBytes(byte[] value)
    {
        if (!hasValue || Arrays.compareUnsigned(value, minBytes) < 0) {
            minBytes = value;
        }
        if (!hasValue || Arrays.compareUnsigned(value, maxBytes) > 0) {
            maxBytes = value;
        }
        hasValue = true;
    }

    private void updateDecimal(BigDecimal value)
    {
        if (!hasValue || value.compareTo(minDecimal) < 0) {
            minDecimal = value;
        }
        if (!hasValue || value.compareTo(maxDecimal) > 0) {
            maxDecimal = value;
        }
        hasValue = true;
    }

    ColumnStatistics result()
    {
        if (!hasValue) {
            return new ColumnStatistics(field.id(), null, null, nullCount);
        }
        AtomicType type = (AtomicType) field.type();
        return new ColumnStatistics(field.id(), internal(type, true), internal(type, false), nullCount);
    }

    private Object internal(AtomicType type, boolean min)
    {
        long longValue = min ? minLong : maxLong;
        return switch (type.root()) {
            case BOOLEAN -> longValue != 0;
            case TINYINT -> (byte) longValue;
            case SMALLINT -> (short) longValue;
            case INT, DATE, TIME -> (int) longValue;
            case BIGINT -> longValue;
            case FLOAT -> (float) (min ? minDouble : maxDouble);
            case DOUBLE -> min ? minDouble : maxDouble;
            case CHAR, VARCHAR -> new String(min ? minBytes : maxBytes, StandardCharsets.UTF_8);
            case BINARY, VARBINARY -> (min ? minBytes : maxBytes).clone();
            case DECIMAL -> type.precision() <= 18
                    ? new BigDecimal(BigInteger.valueOf(longValue), type.scale())
                    : (min ? minDecimal : maxDecimal);
            case TIMESTAMP, TIMESTAMP_LTZ -> timestamp(longValue, type.precision());
            default -> throw new IllegalStateException("No statistics for " + type);
        };
    }

    private static Timestamp timestamp(long value, int precision)
    {
        if (precision <= 3) {
            return Timestamp.ofMillis(value);
        }
        if (precision <= 6) {
            return Timestamp.ofMicros(value);
        }
        return new Timestamp(Math.floorDiv(value, 1_000_000), (int) Math.floorMod(value, 1_000_000));
    }
}
