package io.tarn.storage.binary;

import io.tarn.types.AtomicType;
import io.tarn.types.DataType;
import io.tarn.types.Timestamp;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * An immutable Paimon {@code BinaryRow}: the row format used for partitions, primary keys and
 * min/max statistics in manifests, and hashed to choose buckets.
 * <p>
 * Layout (little-endian, every unused byte zero):
 * <pre>
 * | header + null bits: W bytes | arity fixed 8-byte slots | variable part (8-byte aligned chunks) |
 * W = ((arity + 63 + 8) / 64) * 8
 * </pre>
 * Byte 0 is the RowKind (0 for every stored row). The null bit of field {@code i} is bit
 * {@code i + 8} counted from bit 0 of byte 0. Fixed-width values sit at the start of their slot;
 * strings and binaries of at most 7 bytes are inline with {@code 0x80 | length} in the slot's last
 * byte, longer ones live in the variable part and the slot holds {@code offset << 32 | length};
 * non-compact decimals (precision &gt; 18) and timestamps (precision &gt; 3) always use the
 * variable part.
 * <p>
 * Trust contract: the bytes may come from an untrusted file. Construction checks that the fixed
 * part fits; every access checks the position and every offset and length it follows, and throws
 * {@link MalformedBinaryException} when they point outside the row.
 */
public final class BinaryRow
{
    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle BIG_ENDIAN_INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    static final int HEADER_SIZE_IN_BITS = 8;
    static final int MAX_INLINE_LENGTH = 7;
    static final int MAX_COMPACT_DECIMAL_PRECISION = 18;
    static final int MAX_COMPACT_TIMESTAMP_PRECISION = 3;
    private static final long INLINE_MARK = 0x8000_0000_0000_0000L;

    /** The row with no fields: 8 zero bytes. Append tables use it for keys and partitions. */
    public static final BinaryRow EMPTY = new BinaryRow(0, new byte[8]);

    private final int arity;
    private final byte[] bytes;
    private final int fixedSize;

    private BinaryRow(int arity, byte[] bytes)
    {
        this.arity = arity;
        this.bytes = bytes;
        this.fixedSize = fixedPartSize(arity);
    }

    /**
     * Wraps a copy of {@code bytes} as a row of {@code arity} fields.
     *
     * @throws MalformedBinaryException if the arity is negative or the bytes are shorter than the fixed part
     */
    public static BinaryRow of(int arity, byte[] bytes)
    {
        requireNonNull(bytes, "bytes is null");
        return ofOwned(arity, bytes.clone());
    }

    static BinaryRow ofOwned(int arity, byte[] bytes)
    {
        if (arity < 0) {
            throw new MalformedBinaryException("Negative BinaryRow arity: " + arity);
        }
        long fixed = fixedPartSizeLong(arity);
        if (fixed > bytes.length) {
            throw new MalformedBinaryException("BinaryRow of arity " + arity + " needs at least " + fixed + " bytes, but has " + bytes.length);
        }
        return new BinaryRow(arity, bytes);
    }

    /**
     * Decodes the manifest form of a row: a 4-byte big-endian arity followed by the row bytes
     * (Paimon's {@code SerializationUtils.serializeBinaryRow}).
     *
     * @throws MalformedBinaryException if the bytes are too short for the arity they declare
     */
    public static BinaryRow fromSerialized(byte[] serialized)
    {
        requireNonNull(serialized, "serialized is null");
        if (serialized.length < 4) {
            throw new MalformedBinaryException("Serialized BinaryRow has " + serialized.length + " bytes, fewer than the 4-byte arity");
        }
        int arity = (int) BIG_ENDIAN_INT.get(serialized, 0);
        return ofOwned(arity, Arrays.copyOfRange(serialized, 4, serialized.length));
    }

    /** The manifest form: 4-byte big-endian arity followed by the row bytes. */
    public byte[] toSerialized()
    {
        byte[] result = new byte[4 + bytes.length];
        BIG_ENDIAN_INT.set(result, 0, arity);
        System.arraycopy(bytes, 0, result, 4, bytes.length);
        return result;
    }

    public int arity()
    {
        return arity;
    }

    public int sizeInBytes()
    {
        return bytes.length;
    }

    /** A copy of the row bytes. */
    public byte[] toBytes()
    {
        return bytes.clone();
    }

    /** The RowKind byte (0 = +I, 1 = -U, 2 = +U, 3 = -D). */
    public byte rowKind()
    {
        return bytes[0];
    }

    public boolean isNullAt(int position)
    {
        checkPosition(position);
        int bit = position + HEADER_SIZE_IN_BITS;
        return (bytes[bit >>> 3] & (1 << (bit & 7))) != 0;
    }

    /**
     * The value at {@code position} in the internal representation documented on {@link DataType},
     * or null. Nested types (ARRAY, MAP, MULTISET, ROW) and VARIANT are not supported.
     *
     * @throws MalformedBinaryException if an offset or length of this value points outside the row
     */
    public Object value(int position, DataType type)
    {
        requireNonNull(type, "type is null");
        if (isNullAt(position)) {
            return null;
        }
        int offset = slotOffset(position);
        return switch (type.root()) {
            case BOOLEAN -> bytes[offset] != 0;
            case TINYINT -> bytes[offset];
            case SMALLINT -> (short) SHORT.get(bytes, offset);
            case INT, DATE, TIME -> (int) INT.get(bytes, offset);
            case BIGINT -> (long) LONG.get(bytes, offset);
            case FLOAT -> Float.intBitsToFloat((int) INT.get(bytes, offset));
            case DOUBLE -> Double.longBitsToDouble((long) LONG.get(bytes, offset));
            case DECIMAL -> decimal(position, (AtomicType) type);
            case CHAR, VARCHAR -> new String(variableBytes(position), UTF_8);
            case BINARY, VARBINARY -> variableBytes(position);
            case TIMESTAMP, TIMESTAMP_LTZ -> timestamp(position, ((AtomicType) type).precision());
            case VARIANT, ARRAY, MULTISET, MAP, ROW -> throw new UnsupportedOperationException("Reading " + type.root() + " values from a BinaryRow is not supported");
        };
    }

    /**
     * All values of the row; {@code types} must have one type per field.
     *
     * @return a list that may contain nulls
     */
    public List<Object> values(List<DataType> types)
    {
        requireNonNull(types, "types is null");
        if (types.size() != arity) {
            throw new IllegalArgumentException("BinaryRow has " + arity + " fields, but " + types.size() + " types were given");
        }
        List<Object> values = new ArrayList<>(arity);
        for (int i = 0; i < arity; i++) {
            values.add(value(i, types.get(i)));
        }
        return Collections.unmodifiableList(values);
    }

    /** The raw 8-byte slot of a field, as a little-endian long; 0 for a null fixed-width field. */
    long slot(int position)
    {
        checkPosition(position);
        return (long) LONG.get(bytes, slotOffset(position));
    }

    /** The bytes backing this row; callers must not modify them. */
    byte[] bytes()
    {
        return bytes;
    }

    private BigDecimal decimal(int position, AtomicType type)
    {
        long slot = (long) LONG.get(bytes, slotOffset(position));
        if (type.precision() <= MAX_COMPACT_DECIMAL_PRECISION) {
            return BigDecimal.valueOf(slot, type.scale());
        }
        int offset = (int) (slot >>> 32);
        int length = (int) slot;
        if (length < 1 || length > 16) {
            throw new MalformedBinaryException("Decimal field " + position + " has invalid byte length " + length);
        }
        checkVariableRange(position, offset, length);
        return new BigDecimal(new BigInteger(Arrays.copyOfRange(bytes, offset, offset + length)), type.scale());
    }

    private Timestamp timestamp(int position, int precision)
    {
        long slot = (long) LONG.get(bytes, slotOffset(position));
        if (precision <= MAX_COMPACT_TIMESTAMP_PRECISION) {
            return Timestamp.ofMillis(slot);
        }
        int offset = (int) (slot >>> 32);
        int nanoOfMillisecond = (int) slot;
        if (nanoOfMillisecond < 0 || nanoOfMillisecond > 999_999) {
            throw new MalformedBinaryException("Timestamp field " + position + " has invalid nano-of-millisecond " + nanoOfMillisecond);
        }
        checkVariableRange(position, offset, 8);
        return new Timestamp((long) LONG.get(bytes, offset), nanoOfMillisecond);
    }

    private byte[] variableBytes(int position)
    {
        int slotOffset = slotOffset(position);
        long slot = (long) LONG.get(bytes, slotOffset);
        if ((slot & INLINE_MARK) != 0) {
            int length = (int) ((slot >>> 56) & 0x7F);
            if (length > MAX_INLINE_LENGTH) {
                throw new MalformedBinaryException("Inline field " + position + " has invalid length " + length);
            }
            return Arrays.copyOfRange(bytes, slotOffset, slotOffset + length);
        }
        int offset = (int) (slot >>> 32);
        int length = (int) slot;
        checkVariableRange(position, offset, length);
        return Arrays.copyOfRange(bytes, offset, offset + length);
    }

    private void checkVariableRange(int position, int offset, int length)
    {
        if (length < 0 || offset < fixedSize || (long) offset + length > bytes.length) {
            throw new MalformedBinaryException("Field " + position + " points to bytes [" + offset + ", " + ((long) offset + length)
                    + ") outside the variable part [" + fixedSize + ", " + bytes.length + ") of the BinaryRow");
        }
    }

    private void checkPosition(int position)
    {
        if (position < 0 || position >= arity) {
            throw new IndexOutOfBoundsException("Field position " + position + " out of range for BinaryRow of arity " + arity);
        }
    }

    private int slotOffset(int position)
    {
        return nullBitsSizeInBytes(arity) + 8 * position;
    }

    static int nullBitsSizeInBytes(int arity)
    {
        return ((arity + 63 + HEADER_SIZE_IN_BITS) / 64) * 8;
    }

    static int fixedPartSize(int arity)
    {
        return nullBitsSizeInBytes(arity) + 8 * arity;
    }

    private static long fixedPartSizeLong(int arity)
    {
        return ((arity + 63L + HEADER_SIZE_IN_BITS) / 64) * 8 + 8L * arity;
    }

    @Override
    public boolean equals(Object other)
    {
        if (this == other) {
            return true;
        }
        return other instanceof BinaryRow that && arity == that.arity && Arrays.equals(bytes, that.bytes);
    }

    /** Paimon's hash of the row bytes, the same as {@link BucketFunction#hash(BinaryRow)}. */
    @Override
    public int hashCode()
    {
        return BucketFunction.hash(this);
    }

    @Override
    public String toString()
    {
        return "BinaryRow{arity=" + arity + ", bytes=" + HexFormat.of().formatHex(bytes) + "}";
    }
}
