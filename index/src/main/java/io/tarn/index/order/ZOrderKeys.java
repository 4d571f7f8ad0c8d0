package io.tarn.index.order;

import io.tarn.types.DataType;
import io.tarn.types.Timestamp;
import io.tarn.types.TypeRoot;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Paimon's z-value of a row's sort columns: each column becomes an order-preserving byte string
 * of a fixed width, and the z-value interleaves their bits, most significant first, one bit of
 * each column in turn. Byte for byte what Paimon's {@code ZIndexer} computes, so that files
 * sorted by Tarn and by Paimon cluster the same way; z-values compare as unsigned bytes.
 *
 * <p>Column encodings (8 bytes unless noted; a null is all zero bytes of the column's width):
 * <ul>
 * <li>TINYINT, SMALLINT, INT, DATE, TIME, BIGINT: the value widened to a long with its sign bit
 *     flipped, big-endian;</li>
 * <li>TIMESTAMP, TIMESTAMP_LTZ: the epoch milliseconds likewise (sub-millisecond digits do not
 *     contribute);</li>
 * <li>FLOAT, DOUBLE: the IEEE bits {@code b} of the value as a double, XORed with
 *     {@code (b >> 31) | Long.MIN_VALUE} (Paimon, after Iceberg, shifts by 31 where 63 would give
 *     a total order; the sign still orders negatives before positives);</li>
 * <li>BOOLEAN: 0x81 then zeros for true, zeros for false;</li>
 * <li>DECIMAL: the unscaled value's minimal two's-complement bytes, cut or zero-padded on the
 *     right to 8 (not order-preserving across lengths; Paimon's choice);</li>
 * <li>CHAR, VARCHAR, BINARY, VARBINARY: the first {@code varLengthContribution} UTF-8 or raw
 *     bytes, zero-padded on the right to that width.</li>
 * </ul>
 * Composite and VARIANT columns have no z-value.
 */
public final class ZOrderKeys
{
    static final int PRIMITIVE_WIDTH = 8;

    private final List<DataType> types;
    private final int varLengthContribution;
    private final int[] widths;
    private final int keyLength;

    /**
     * @param types the types of the sort columns, in sort order
     * @param varLengthContribution bytes a string or binary column contributes (Paimon's
     * {@code zorder.var-length-contribution}, default 8)
     */
    public ZOrderKeys(List<? extends DataType> types, int varLengthContribution)
    {
        this.types = List.copyOf(requireNonNull(types, "types is null"));
        if (this.types.isEmpty()) {
            throw new IllegalArgumentException("Z-order needs at least one column");
        }
        if (varLengthContribution <= 0) {
            throw new IllegalArgumentException("zorder.var-length-contribution must be positive: " + varLengthContribution);
        }
        this.varLengthContribution = varLengthContribution;
        this.widths = new int[this.types.size()];
        int length = 0;
        for (int i = 0; i < widths.length; i++) {
            DataType type = this.types.get(i);
            if (!supports(type)) {
                throw new IllegalArgumentException("Z-order does not support columns of type " + type.asSqlString());
            }
            widths[i] = isVariableLength(type.root()) ? varLengthContribution : PRIMITIVE_WIDTH;
            length += widths[i];
        }
        this.keyLength = length;
    }

    public static boolean supports(DataType type)
    {
        return type.root().isAtomic() && type.root() != TypeRoot.VARIANT;
    }

    public int keyLength()
    {
        return keyLength;
    }

    public int varLengthContribution()
    {
        return varLengthContribution;
    }

    /**
     * The z-value of one row's sort column values (internal representations, nulls allowed).
     */
    public byte[] key(List<?> values)
    {
        if (values.size() != types.size()) {
            throw new IllegalArgumentException("Expected " + types.size() + " sort values, got " + values.size());
        }
        byte[][] columns = new byte[types.size()][];
        for (int i = 0; i < columns.length; i++) {
            columns[i] = encode(types.get(i), values.get(i), widths[i]);
        }
        if (columns.length == 2 && widths[0] == PRIMITIVE_WIDTH && widths[1] == PRIMITIVE_WIDTH) {
            return interleaveTwoLongs(bigEndianLong(columns[0]), bigEndianLong(columns[1]));
        }
        return interleave(columns, keyLength);
    }

    /**
     * The common two-column case of {@link #interleave} without a loop per bit: each half of each
     * column has its bits spread to every other position, the first column's one place higher.
     */
    static byte[] interleaveTwoLongs(long first, long second)
    {
        long high = (spreadBits(first >>> 32) << 1) | spreadBits(second >>> 32);
        long low = (spreadBits(first & 0xFFFF_FFFFL) << 1) | spreadBits(second & 0xFFFF_FFFFL);
        byte[] result = new byte[16];
        System.arraycopy(bigEndian(high), 0, result, 0, 8);
        System.arraycopy(bigEndian(low), 0, result, 8, 8);
        return result;
    }

    /**
     * Moves bit k of a 32-bit value to bit 2k.
     */
    private static long spreadBits(long value)
    {
        long x = value & 0xFFFF_FFFFL;
        x = (x | (x << 16)) & 0x0000_FFFF_0000_FFFFL;
        x = (x | (x << 8)) & 0x00FF_00FF_00FF_00FFL;
        x = (x | (x << 4)) & 0x0F0F_0F0F_0F0F_0F0FL;
        x = (x | (x << 2)) & 0x3333_3333_3333_3333L;
        x = (x | (x << 1)) & 0x5555_5555_5555_5555L;
        return x;
    }

    private static long bigEndianLong(byte[] bytes)
    {
        long value = 0;
        for (int i = 0; i < 8; i++) {
            value = (value << 8) | (bytes[i] & 0xFF);
        }
        return value;
    }

    /**
     * Interleaves the bits of the columns into {@code length} bytes: bit 0 (the most significant)
     * of every column in column order, then bit 1 of every column, and so on; a column whose
     * bytes are used up drops out of the rotation.
     */
    public static byte[] interleave(byte[][] columns, int length)
    {
        byte[] result = new byte[length];
        long outputBits = (long) length * 8;
        long written = 0;
        for (long sourceBit = 0; written < outputBits; sourceBit++) {
            boolean any = false;
            for (int column = 0; column < columns.length && written < outputBits; column++) {
                if (columns[column].length * 8L <= sourceBit) {
                    continue;
                }
                any = true;
                int bit = (columns[column][(int) (sourceBit >>> 3)] >>> (7 - (int) (sourceBit & 7))) & 1;
                if (bit != 0) {
                    result[(int) (written >>> 3)] |= (byte) (0x80 >>> (int) (written & 7));
                }
                written++;
            }
            if (!any) {
                // the columns have fewer bits than the output: the rest stays zero
                break;
            }
        }
        return result;
    }

    static byte[] encode(DataType type, Object value, int width)
    {
        if (value == null) {
            return new byte[width];
        }
        return switch (type.root()) {
            case BOOLEAN -> {
                byte[] bytes = new byte[PRIMITIVE_WIDTH];
                bytes[0] = (Boolean) value ? (byte) 0x81 : 0;
                yield bytes;
            }
            case TINYINT -> orderedLong((Byte) value);
            case SMALLINT -> orderedLong((Short) value);
            case INT, DATE, TIME -> orderedLong((Integer) value);
            case BIGINT -> orderedLong((Long) value);
            case TIMESTAMP, TIMESTAMP_LTZ -> orderedLong(((Timestamp) value).epochMillis());
            case FLOAT -> orderedDouble((Float) value);
            case DOUBLE -> orderedDouble((Double) value);
            case DECIMAL -> truncateOrPad(((BigDecimal) value).unscaledValue().toByteArray(), PRIMITIVE_WIDTH);
            case CHAR, VARCHAR -> truncateOrPad(((String) value).getBytes(StandardCharsets.UTF_8), width);
            case BINARY, VARBINARY -> truncateOrPad((byte[]) value, width);
            default -> throw new IllegalArgumentException("Z-order does not support columns of type " + type.asSqlString());
        };
    }

    private static byte[] orderedLong(long value)
    {
        return bigEndian(value ^ Long.MIN_VALUE);
    }

    private static byte[] orderedDouble(double value)
    {
        long bits = Double.doubleToLongBits(value);
        // shift by 31 as Paimon (and Iceberg before it) does; by 63 would flip every bit of a negative number
        bits ^= (bits >> 31) | Long.MIN_VALUE;
        return bigEndian(bits);
    }

    static byte[] bigEndian(long value)
    {
        byte[] bytes = new byte[8];
        for (int i = 7; i >= 0; i--) {
            bytes[i] = (byte) value;
            value >>>= 8;
        }
        return bytes;
    }

    private static byte[] truncateOrPad(byte[] bytes, int width)
    {
        return bytes.length == width ? bytes : Arrays.copyOf(bytes, width);
    }

    private static boolean isVariableLength(TypeRoot root)
    {
        return root.isCharacterString() || root.isBinaryString();
    }
}
