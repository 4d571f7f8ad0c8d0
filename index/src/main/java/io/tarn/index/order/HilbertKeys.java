package io.tarn.index.order;

import io.tarn.types.DataType;
import io.tarn.types.Timestamp;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Paimon's Hilbert value of a row's sort columns, byte for byte what Paimon's
 * {@code HilbertIndexer} computes: each column becomes a long, the point is placed on a Hilbert
 * curve of 63 bits per dimension (bit 63 of each long does not contribute), and the curve index,
 * as a minimal big-endian two's-complement number, is left-padded with zeros (or cut) to 63
 * bytes. Values compare as unsigned bytes.
 *
 * <p>Column longs (a null is {@link Long#MAX_VALUE}):
 * <ul>
 * <li>SMALLINT, INT, DATE, TIME, BIGINT: the value sign-extended; TINYINT: the unsigned byte;</li>
 * <li>TIMESTAMP, TIMESTAMP_LTZ: epoch milliseconds;</li>
 * <li>FLOAT, DOUBLE: the IEEE bits of the value as a double;</li>
 * <li>BOOLEAN: {@link Long#MAX_VALUE} for true, 0 for false;</li>
 * <li>DECIMAL: the integral part, cut to 64 bits;</li>
 * <li>CHAR, VARCHAR, BINARY, VARBINARY: the first 8 UTF-8 or raw bytes as a big-endian long;
 *     shorter values are right-aligned (left-padded with zeros).</li>
 * </ul>
 * The curve is Skilling's transposed Hilbert index ("Programming the Hilbert curve", 2004), the
 * algorithm of the library Paimon uses.
 */
public final class HilbertKeys
{
    private static final int BITS = 63;
    private static final int KEY_LENGTH = 63;
    private static final long NULL_VALUE = Long.MAX_VALUE;

    private final List<DataType> types;

    public HilbertKeys(List<? extends DataType> types)
    {
        this.types = List.copyOf(requireNonNull(types, "types is null"));
        if (this.types.size() < 2) {
            throw new IllegalArgumentException("Hilbert order needs at least two columns");
        }
        for (DataType type : this.types) {
            if (!ZOrderKeys.supports(type)) {
                throw new IllegalArgumentException("Hilbert order does not support columns of type " + type.asSqlString());
            }
        }
    }

    public int keyLength()
    {
        return KEY_LENGTH;
    }

    public byte[] key(List<?> values)
    {
        if (values.size() != types.size()) {
            throw new IllegalArgumentException("Expected " + types.size() + " sort values, got " + values.size());
        }
        long[] point = new long[types.size()];
        for (int i = 0; i < point.length; i++) {
            point[i] = coordinate(types.get(i), values.get(i));
        }
        byte[] index = new BigInteger(1, curveIndex(transpose(point))).toByteArray();
        if (index.length >= KEY_LENGTH) {
            return Arrays.copyOf(index, KEY_LENGTH);
        }
        byte[] padded = new byte[KEY_LENGTH];
        System.arraycopy(index, 0, padded, KEY_LENGTH - index.length, index.length);
        return padded;
    }

    static long coordinate(DataType type, Object value)
    {
        if (value == null) {
            return NULL_VALUE;
        }
        return switch (type.root()) {
            case BOOLEAN -> (Boolean) value ? NULL_VALUE : 0;
            case TINYINT -> ((Byte) value) & 0xFFL;
            case SMALLINT -> (Short) value;
            case INT, DATE, TIME -> (Integer) value;
            case BIGINT -> (Long) value;
            case TIMESTAMP, TIMESTAMP_LTZ -> ((Timestamp) value).epochMillis();
            case FLOAT -> Double.doubleToLongBits((Float) value);
            case DOUBLE -> Double.doubleToLongBits((Double) value);
            case DECIMAL -> ((BigDecimal) value).longValue();
            case CHAR, VARCHAR -> rightAlignedLong(((String) value).getBytes(StandardCharsets.UTF_8));
            case BINARY, VARBINARY -> rightAlignedLong((byte[]) value);
            default -> throw new IllegalArgumentException("Hilbert order does not support columns of type " + type.asSqlString());
        };
    }

    private static long rightAlignedLong(byte[] bytes)
    {
        long value = 0;
        for (int i = 0; i < Math.min(8, bytes.length); i++) {
            value = (value << 8) | (bytes[i] & 0xFF);
        }
        return value;
    }

    /**
     * Skilling's axes-to-transpose: undoes the rotations and reflections level by level from the
     * top bit down, then Gray-encodes, leaving the index's bits spread over the coordinates.
     */
    private static long[] transpose(long[] point)
    {
        long[] x = point.clone();
        int dimensions = x.length;
        long top = 1L << (BITS - 1);
        for (long level = top; level > 1; level >>= 1) {
            long lowerBits = level - 1;
            for (int i = 0; i < dimensions; i++) {
                if ((x[i] & level) != 0) {
                    x[0] ^= lowerBits;
                }
                else {
                    long swap = (x[0] ^ x[i]) & lowerBits;
                    x[0] ^= swap;
                    x[i] ^= swap;
                }
            }
        }
        for (int i = 1; i < dimensions; i++) {
            x[i] ^= x[i - 1];
        }
        long flip = 0;
        for (long level = top; level > 1; level >>= 1) {
            if ((x[dimensions - 1] & level) != 0) {
                flip ^= level - 1;
            }
        }
        for (int i = 0; i < dimensions; i++) {
            x[i] ^= flip;
        }
        return x;
    }

    /**
     * Reads the transposed index bit-level by bit-level (bit 62 of every coordinate, then bit 61,
     * ...) into one big-endian unsigned number of {@code 63 * dimensions} bits.
     */
    private static byte[] curveIndex(long[] transposed)
    {
        int totalBits = BITS * transposed.length;
        byte[] bytes = new byte[(totalBits + 7) / 8];
        int remaining = totalBits;
        for (long mask = 1L << (BITS - 1); mask != 0; mask >>>= 1) {
            for (long coordinate : transposed) {
                remaining--;
                if ((coordinate & mask) != 0) {
                    bytes[bytes.length - 1 - remaining / 8] |= (byte) (1 << (remaining % 8));
                }
            }
        }
        return bytes;
    }
}
