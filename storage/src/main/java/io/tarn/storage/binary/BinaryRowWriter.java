package io.tarn.storage.binary;

import io.tarn.types.AtomicType;
import io.tarn.types.DataType;
import io.tarn.types.Timestamp;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * Encodes values into a {@link BinaryRow} byte-identical to what Paimon's {@code BinaryRowWriter}
 * produces for the same values (RowKind +I, zeroed padding), so that rows written by Tarn compare,
 * hash and bucket like Paimon's. Nested types and VARIANT are not supported.
 */
public final class BinaryRowWriter
{
    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final int nullBitsSize;
    private byte[] buffer;
    private int cursor;

    private BinaryRowWriter(int arity)
    {
        this.nullBitsSize = BinaryRow.nullBitsSizeInBytes(arity);
        this.cursor = BinaryRow.fixedPartSize(arity);
        this.buffer = new byte[cursor];
    }

    /**
     * Encodes {@code values} (internal representation, see {@link DataType}; nulls allowed) of the
     * given types into a new row.
     *
     * @throws IllegalArgumentException if the sizes differ or a value has the wrong class or does not fit its type
     * @throws UnsupportedOperationException for nested types and VARIANT
     */
    public static BinaryRow encode(List<? extends DataType> types, List<?> values)
    {
        requireNonNull(types, "types is null");
        requireNonNull(values, "values is null");
        if (types.size() != values.size()) {
            throw new IllegalArgumentException("Got " + types.size() + " types but " + values.size() + " values");
        }
        BinaryRowWriter writer = new BinaryRowWriter(types.size());
        for (int i = 0; i < types.size(); i++) {
            writer.write(i, requireNonNull(types.get(i), "type is null"), values.get(i));
        }
        return BinaryRow.ofOwned(types.size(), writer.cursor == writer.buffer.length ? writer.buffer : Arrays.copyOf(writer.buffer, writer.cursor));
    }

    private void write(int position, DataType type, Object value)
    {
        switch (type.root()) {
            case BOOLEAN -> {
                if (value != null) {
                    buffer[slotOffset(position)] = (byte) (cast(position, type, value, Boolean.class) ? 1 : 0);
                }
            }
            case TINYINT -> {
                if (value != null) {
                    buffer[slotOffset(position)] = cast(position, type, value, Byte.class);
                }
            }
            case SMALLINT -> {
                if (value != null) {
                    SHORT.set(buffer, slotOffset(position), (short) cast(position, type, value, Short.class));
                }
            }
            case INT, DATE, TIME -> {
                if (value != null) {
                    INT.set(buffer, slotOffset(position), (int) cast(position, type, value, Integer.class));
                }
            }
            case BIGINT -> {
                if (value != null) {
                    LONG.set(buffer, slotOffset(position), (long) cast(position, type, value, Long.class));
                }
            }
            case FLOAT -> {
                if (value != null) {
                    INT.set(buffer, slotOffset(position), Float.floatToRawIntBits(cast(position, type, value, Float.class)));
                }
            }
            case DOUBLE -> {
                if (value != null) {
                    LONG.set(buffer, slotOffset(position), Double.doubleToRawLongBits(cast(position, type, value, Double.class)));
                }
            }
            case CHAR, VARCHAR -> {
                if (value != null) {
                    writeBytes(position, cast(position, type, value, String.class).getBytes(UTF_8));
                }
            }
            case BINARY, VARBINARY -> {
                if (value != null) {
                    writeBytes(position, cast(position, type, value, byte[].class));
                }
            }
            case DECIMAL -> writeDecimal(position, (AtomicType) type, value);
            case TIMESTAMP, TIMESTAMP_LTZ -> writeTimestamp(position, (AtomicType) type, value);
            case VARIANT, ARRAY, MULTISET, MAP, ROW -> {
                // a NULL of a nested type is only its null bit (statistics rows hold such slots)
                if (value != null) {
                    throw new UnsupportedOperationException("Writing " + type.root() + " values into a BinaryRow is not supported");
                }
            }
        }
        if (value == null) {
            setNullBit(position);
        }
    }

    private void writeDecimal(int position, AtomicType type, Object value)
    {
        BigDecimal decimal = null;
        if (value != null) {
            decimal = cast(position, type, value, BigDecimal.class);
            try {
                decimal = decimal.setScale(type.scale(), RoundingMode.UNNECESSARY);
            }
            catch (ArithmeticException e) {
                throw new IllegalArgumentException("Value " + value + " of field " + position + " does not fit " + type.asSqlString(), e);
            }
            if (decimal.precision() > type.precision()) {
                throw new IllegalArgumentException("Value " + value + " of field " + position + " does not fit " + type.asSqlString());
            }
        }
        if (type.precision() <= BinaryRow.MAX_COMPACT_DECIMAL_PRECISION) {
            if (decimal != null) {
                LONG.set(buffer, slotOffset(position), decimal.unscaledValue().longValueExact());
            }
            return;
        }
        // Paimon reserves 16 bytes even for a null non-compact decimal, so that it can be updated in place.
        int offset = reserve(16);
        if (decimal == null) {
            setOffsetAndSize(position, offset, 0);
            return;
        }
        byte[] unscaled = decimal.unscaledValue().toByteArray();
        System.arraycopy(unscaled, 0, buffer, offset, unscaled.length);
        setOffsetAndSize(position, offset, unscaled.length);
    }

    private void writeTimestamp(int position, AtomicType type, Object value)
    {
        Timestamp timestamp = value == null ? null : cast(position, type, value, Timestamp.class);
        if (type.precision() <= BinaryRow.MAX_COMPACT_TIMESTAMP_PRECISION) {
            if (timestamp != null) {
                LONG.set(buffer, slotOffset(position), timestamp.epochMillis());
            }
            return;
        }
        int offset = reserve(8);
        if (timestamp == null) {
            setOffsetAndSize(position, offset, 0);
            return;
        }
        LONG.set(buffer, offset, timestamp.epochMillis());
        setOffsetAndSize(position, offset, timestamp.nanoOfMillisecond());
    }

    private void writeBytes(int position, byte[] value)
    {
        if (value.length <= BinaryRow.MAX_INLINE_LENGTH) {
            int slotOffset = slotOffset(position);
            System.arraycopy(value, 0, buffer, slotOffset, value.length);
            buffer[slotOffset + 7] = (byte) (0x80 | value.length);
            return;
        }
        int offset = reserve(roundToWord(value.length));
        System.arraycopy(value, 0, buffer, offset, value.length);
        setOffsetAndSize(position, offset, value.length);
    }

    /** Appends {@code size} zero bytes (a multiple of 8) to the variable part and returns their offset. */
    private int reserve(int size)
    {
        int offset = cursor;
        long end = (long) cursor + size;
        if (end > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("BinaryRow larger than 2 GB");
        }
        if (end > buffer.length) {
            buffer = Arrays.copyOf(buffer, (int) Math.max(end, Math.min(Integer.MAX_VALUE - 8L, buffer.length * 2L)));
        }
        cursor = (int) end;
        return offset;
    }

    private void setOffsetAndSize(int position, int offset, long size)
    {
        LONG.set(buffer, slotOffset(position), ((long) offset << 32) | size);
    }

    private void setNullBit(int position)
    {
        int bit = position + BinaryRow.HEADER_SIZE_IN_BITS;
        buffer[bit >>> 3] |= (byte) (1 << (bit & 7));
    }

    private int slotOffset(int position)
    {
        return nullBitsSize + 8 * position;
    }

    private static int roundToWord(int length)
    {
        return (length + 7) & ~7;
    }

    private static <T> T cast(int position, DataType type, Object value, Class<T> javaClass)
    {
        if (!javaClass.isInstance(value)) {
            throw new IllegalArgumentException("Field " + position + " of type " + type.asSqlString() + " needs a " + javaClass.getSimpleName()
                    + ", but got a " + value.getClass().getSimpleName());
        }
        return javaClass.cast(value);
    }
}
