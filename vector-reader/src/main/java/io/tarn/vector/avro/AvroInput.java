package io.tarn.vector.avro;

import io.tarn.vector.CorruptDataException;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A cursor over Avro binary-encoded bytes: a decompressed block, or a window of the file while its
 * header and block headers are parsed. Ints and longs are zig-zag varints of at most 5 and 10
 * bytes, floats and doubles 4 and 8 little-endian bytes, strings and bytes a long length and the
 * bytes.
 * <p>
 * Trust contract: every read is checked against the limit, varints longer than their type allows
 * and lengths that are negative or run past the limit are rejected, so no value read here can
 * make a caller allocate more than the bytes it was given. Violations throw
 * {@link CorruptDataException}.
 */
final class AvroInput
{
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private byte[] buffer = new byte[0];
    private int position;
    private int limit;
    // the byte size an array or map block declared with its negative count, or -1
    private long blockBytes = -1;

    void reset(byte[] buffer, int offset, int length)
    {
        if (offset < 0 || length < 0 || offset > buffer.length - length) {
            throw new IllegalArgumentException("Range " + offset + "+" + length + " outside a buffer of " + buffer.length);
        }
        this.buffer = buffer;
        this.position = offset;
        this.limit = offset + length;
    }

    byte[] buffer()
    {
        return buffer;
    }

    int position()
    {
        return position;
    }

    void position(int position)
    {
        if (position < 0 || position > limit) {
            throw new IllegalArgumentException("Position " + position + " outside [0, " + limit + "]");
        }
        this.position = position;
    }

    int remaining()
    {
        return limit - position;
    }

    int readInt()
    {
        int value = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            if (position >= limit) {
                throw truncated("an int");
            }
            int next = buffer[position++];
            value |= (next & 0x7F) << shift;
            if (next >= 0) {
                if (shift == 28 && next > 0x0F) {
                    throw new CorruptDataException("Avro int varint overflows 32 bits");
                }
                return (value >>> 1) ^ -(value & 1);
            }
        }
        throw new CorruptDataException("Avro int varint longer than 5 bytes");
    }

    long readLong()
    {
        long value = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            if (position >= limit) {
                throw truncated("a long");
            }
            int next = buffer[position++];
            value |= (long) (next & 0x7F) << shift;
            if (next >= 0) {
                if (shift == 63 && next > 1) {
                    throw new CorruptDataException("Avro long varint overflows 64 bits");
                }
                return (value >>> 1) ^ -(value & 1);
            }
        }
        throw new CorruptDataException("Avro long varint longer than 10 bytes");
    }

    boolean readBoolean()
    {
        if (position >= limit) {
            throw truncated("a boolean");
        }
        int value = buffer[position++];
        if (value != 0 && value != 1) {
            throw new CorruptDataException("Avro boolean byte " + value + " is neither 0 nor 1");
        }
        return value == 1;
    }

    float readFloat()
    {
        return Float.intBitsToFloat(readFloatBits());
    }

    int readFloatBits()
    {
        require(4, "a float");
        int bits = (int) INTS.get(buffer, position);
        position += 4;
        return bits;
    }

    double readDouble()
    {
        return Double.longBitsToDouble(readDoubleBits());
    }

    long readDoubleBits()
    {
        require(8, "a double");
        long bits = (long) LONGS.get(buffer, position);
        position += 8;
        return bits;
    }

    /**
     * The length of a string or bytes value, checked to lie within the remaining bytes; the
     * value's bytes start at {@link #position()}.
     */
    int readLength()
    {
        long length = readLong();
        if (length < 0 || length > limit - position) {
            throw new CorruptDataException("Avro length " + length + " outside the " + (limit - position) + " remaining bytes");
        }
        return (int) length;
    }

    void skip(long bytes)
    {
        if (bytes < 0 || bytes > limit - position) {
            throw new CorruptDataException("Avro value of " + bytes + " bytes outside the " + (limit - position) + " remaining bytes");
        }
        position += (int) bytes;
    }

    void require(int bytes, String what)
    {
        if (limit - position < bytes) {
            throw truncated(what);
        }
    }

    /**
     * The item count of the next block of an array or map: 0 ends the value. A negative count
     * means its absolute value followed by the block's size in bytes, kept in
     * {@link #blockBytes()}. Since every item takes at least {@code minItemBytes} bytes (at least
     * 1 is assumed), a count larger than the remaining bytes allow is corrupt: no loop over the
     * items can run longer than the input.
     */
    long readBlockCount(int minItemBytes)
    {
        long count = readLong();
        blockBytes = -1;
        if (count < 0) {
            if (count == Long.MIN_VALUE) {
                throw new CorruptDataException("Avro block count " + count);
            }
            count = -count;
            long bytes = readLong();
            if (bytes < 0 || bytes > limit - position) {
                throw new CorruptDataException("Avro block of " + bytes + " bytes outside the " + (limit - position) + " remaining bytes");
            }
            blockBytes = bytes;
        }
        if (count > (limit - position) / Math.max(1, minItemBytes)) {
            throw new CorruptDataException("Avro block of " + count + " items in only " + (limit - position) + " remaining bytes");
        }
        return count;
    }

    /**
     * The byte size declared by the last block count, or -1 when the count was positive.
     */
    long blockBytes()
    {
        return blockBytes;
    }

    private CorruptDataException truncated(String what)
    {
        return new CorruptDataException("Avro data ends inside " + what);
    }
}
