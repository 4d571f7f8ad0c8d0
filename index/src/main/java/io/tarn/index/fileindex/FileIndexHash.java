package io.tarn.index.fileindex;

import io.tarn.types.AtomicType;
import io.tarn.types.DataType;
import io.tarn.types.Timestamp;

import java.nio.charset.StandardCharsets;

/**
 * The 64-bit hashes Paimon's Bloom filter index stores values under ({@code FastHash}):
 * strings hash their UTF-8 bytes and binary values their bytes with XXH64 (seed 0); integer,
 * date, time and floating types hash their value, sign-extended to 64 bits (floating types by
 * their IEEE bits), through Thomas Wang's 64-bit mix; timestamps hash epoch millis (precision up
 * to 3) or epoch micros the same way. Other types have no hash.
 */
public final class FileIndexHash
{
    private static final long PRIME_1 = 0x9E3779B185EBCA87L;
    private static final long PRIME_2 = 0xC2B2AE3D27D4EB4FL;
    private static final long PRIME_3 = 0x165667B19E3779F9L;
    private static final long PRIME_4 = 0x85EBCA77C2B2AE63L;
    private static final long PRIME_5 = 0x27D4EB2F165667C5L;

    private FileIndexHash() {}

    /**
     * Whether values of {@code type} can be hashed, which is whether a Bloom filter index over
     * them can exist.
     */
    public static boolean supports(DataType type)
    {
        return switch (type.root()) {
            case CHAR, VARCHAR, BINARY, VARBINARY, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ -> true;
            default -> false;
        };
    }

    /**
     * The hash of a non-null value in the internal representation of {@code type}.
     *
     * @throws IllegalArgumentException if the type has no hash
     */
    public static long hash(DataType type, Object value)
    {
        return switch (type.root()) {
            case CHAR, VARCHAR -> xxh64(((String) value).getBytes(StandardCharsets.UTF_8));
            case BINARY, VARBINARY -> xxh64((byte[]) value);
            case TINYINT -> mix((Byte) value);
            case SMALLINT -> mix((Short) value);
            case INT, DATE, TIME -> mix((Integer) value);
            case BIGINT -> mix((Long) value);
            case FLOAT -> mix(Float.floatToIntBits((Float) value));
            case DOUBLE -> mix(Double.doubleToLongBits((Double) value));
            case TIMESTAMP, TIMESTAMP_LTZ -> mix(timestampValue((AtomicType) type, (Timestamp) value));
            default -> throw new IllegalArgumentException("Bloom filter indexes do not support type " + type.asSqlString());
        };
    }

    /**
     * The long a timestamp is indexed as: epoch millis for precision up to 3, else epoch micros.
     */
    static long timestampValue(AtomicType type, Timestamp value)
    {
        return type.precision() <= 3 ? value.epochMillis() : value.epochMicros();
    }

    /**
     * Thomas Wang's 64-bit integer mix, with arithmetic shifts as Paimon computes it.
     */
    static long mix(long key)
    {
        key = ~key + (key << 21);
        key ^= key >> 24;
        key = key + (key << 3) + (key << 8);
        key ^= key >> 14;
        key = key + (key << 2) + (key << 4);
        key ^= key >> 28;
        key += key << 31;
        return key;
    }

    /**
     * XXH64 with seed 0.
     */
    static long xxh64(byte[] data)
    {
        int length = data.length;
        int position = 0;
        long hash;
        if (length >= 32) {
            long v1 = PRIME_1 + PRIME_2;
            long v2 = PRIME_2;
            long v3 = 0;
            long v4 = -PRIME_1;
            int limit = length - 32;
            do {
                v1 = round(v1, littleEndianLong(data, position));
                v2 = round(v2, littleEndianLong(data, position + 8));
                v3 = round(v3, littleEndianLong(data, position + 16));
                v4 = round(v4, littleEndianLong(data, position + 24));
                position += 32;
            }
            while (position <= limit);
            hash = Long.rotateLeft(v1, 1) + Long.rotateLeft(v2, 7) + Long.rotateLeft(v3, 12) + Long.rotateLeft(v4, 18);
            hash = mergeRound(hash, v1);
            hash = mergeRound(hash, v2);
            hash = mergeRound(hash, v3);
            hash = mergeRound(hash, v4);
        }
        else {
            hash = PRIME_5;
        }
        hash += length;
        while (position + 8 <= length) {
            hash ^= round(0, littleEndianLong(data, position));
            hash = Long.rotateLeft(hash, 27) * PRIME_1 + PRIME_4;
            position += 8;
        }
        if (position + 4 <= length) {
            hash ^= (littleEndianInt(data, position) & 0xFFFF_FFFFL) * PRIME_1;
            hash = Long.rotateLeft(hash, 23) * PRIME_2 + PRIME_3;
            position += 4;
        }
        while (position < length) {
            hash ^= (data[position] & 0xFFL) * PRIME_5;
            hash = Long.rotateLeft(hash, 11) * PRIME_1;
            position++;
        }
        hash ^= hash >>> 33;
        hash *= PRIME_2;
        hash ^= hash >>> 29;
        hash *= PRIME_3;
        hash ^= hash >>> 32;
        return hash;
    }

    private static long round(long accumulator, long input)
    {
        return Long.rotateLeft(accumulator + input * PRIME_2, 31) * PRIME_1;
    }

    private static long mergeRound(long accumulator, long value)
    {
        return (accumulator ^ round(0, value)) * PRIME_1 + PRIME_4;
    }

    private static long littleEndianLong(byte[] data, int offset)
    {
        return (littleEndianInt(data, offset) & 0xFFFF_FFFFL) | ((long) littleEndianInt(data, offset + 4) << 32);
    }

    private static int littleEndianInt(byte[] data, int offset)
    {
        return (data[offset] & 0xFF) | (data[offset + 1] & 0xFF) << 8 | (data[offset + 2] & 0xFF) << 16 | (data[offset + 3] & 0xFF) << 24;
    }
}
