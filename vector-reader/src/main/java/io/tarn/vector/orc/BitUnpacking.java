package io.tarn.vector.orc;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Unpacks the bit-packed values of ORC's integer run-length encoding version 2: {@code width}
 * bits each, back to back, most significant bit first, the last byte padded with zeros. The
 * caller has the {@code ceil(count * width / 8)} bytes in one array (the decompressed chunk, or a
 * copy where a run straddles chunks), so the loops index the array without any stream calls;
 * widths that are whole bytes or divide a byte have loops of their own.
 */
final class BitUnpacking
{
    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private BitUnpacking() {}

    /**
     * The bytes {@code count} values of {@code width} bits take.
     */
    static int packedBytes(int count, int width)
    {
        return (int) (((long) count * width + 7) >>> 3);
    }

    /**
     * Unpacks {@code count} values of {@code width} bits (1 to 64) from
     * {@code source[offset, offset + packedBytes(count, width))} into
     * {@code values[valuesOffset, valuesOffset + count)}.
     */
    static void unpack(byte[] source, int offset, long[] values, int valuesOffset, int count, int width)
    {
        switch (width) {
            case 1 -> unpack1(source, offset, values, valuesOffset, count);
            case 2 -> unpack2(source, offset, values, valuesOffset, count);
            case 4 -> unpack4(source, offset, values, valuesOffset, count);
            case 8 -> unpack8(source, offset, values, valuesOffset, count);
            case 16 -> unpack16(source, offset, values, valuesOffset, count);
            case 24 -> unpack24(source, offset, values, valuesOffset, count);
            case 32 -> unpack32(source, offset, values, valuesOffset, count);
            case 40 -> unpack40(source, offset, values, valuesOffset, count);
            case 48 -> unpack48(source, offset, values, valuesOffset, count);
            case 56 -> unpack56(source, offset, values, valuesOffset, count);
            case 64 -> unpack64(source, offset, values, valuesOffset, count);
            default -> unpackGeneric(source, offset, values, valuesOffset, count, width);
        }
    }

    private static void unpack1(byte[] source, int offset, long[] values, int valuesOffset, int count)
    {
        int whole = count >>> 3;
        for (int i = 0; i < whole; i++) {
            int b = source[offset + i];
            int out = valuesOffset + 8 * i;
            values[out] = b >>> 7 & 1;
            values[out + 1] = b >>> 6 & 1;
            values[out + 2] = b >>> 5 & 1;
            values[out + 3] = b >>> 4 & 1;
            values[out + 4] = b >>> 3 & 1;
            values[out + 5] = b >>> 2 & 1;
            values[out + 6] = b >>> 1 & 1;
            values[out + 7] = b & 1;
        }
        unpackTail(source, offset + whole, values, valuesOffset + 8 * whole, count - 8 * whole, 1);
    }

    private static void unpack2(byte[] source, int offset, long[] values, int valuesOffset, int count)
    {
        int whole = count >>> 2;
        for (int i = 0; i < whole; i++) {
            int b = source[offset + i];
            int out = valuesOffset + 4 * i;
            values[out] = b >>> 6 & 3;
            values[out + 1] = b >>> 4 & 3;
            values[out + 2] = b >>> 2 & 3;
            values[out + 3] = b & 3;
        }
        unpackTail(source, offset + whole, values, valuesOffset + 4 * whole, count - 4 * whole, 2);
    }

    private static void unpack4(byte[] source, int offset, long[] values, int valuesOffset, int count)
    {
        int whole = count >>> 1;
        for (int i = 0; i < whole; i++) {
            int b = source[offset + i];
            int out = valuesOffset + 2 * i;
            values[out] = b >>> 4 & 15;
            values[out + 1] = b & 15;
        }
        unpackTail(source, offset + whole, values, valuesOffset + 2 * whole, count - 2 * whole, 4);
    }

    /**
     * The last {@code count} values of a width that divides a byte, fewer than a byte holds.
     */
    private static void unpackTail(byte[] source, int offset, long[] values, int valuesOffset, int count, int width)
    {
        if (count == 0) {
            return;
        }
        int b = source[offset] & 0xFF;
        int mask = (1 << width) - 1;
        for (int k = 0; k < count; k++) {
            values[valuesOffset + k] = b >>> (8 - width * (k + 1)) & mask;
        }
    }

    private static void unpack8(byte[] source, int offset, long[] values, int valuesOffset, int count)
    {
        for (int i = 0; i < count; i++) {
            values[valuesOffset + i] = source[offset + i] & 0xFFL;
        }
    }

    private static void unpack16(byte[] source, int offset, long[] values, int valuesOffset, int count)
    {
        for (int i = 0; i < count; i++) {
            values[valuesOffset + i] = (short) SHORT.get(source, offset + 2 * i) & 0xFFFFL;
        }
    }

    private static void unpack24(byte[] source, int offset, long[] values, int valuesOffset, int count)
    {
        for (int i = 0, at = offset; i < count; i++, at += 3) {
            values[valuesOffset + i] = (source[at] & 0xFFL) << 16 | (source[at + 1] & 0xFFL) << 8 | (source[at + 2] & 0xFFL);
        }
    }

    private static void unpack32(byte[] source, int offset, long[] values, int valuesOffset, int count)
    {
        for (int i = 0; i < count; i++) {
            values[valuesOffset + i] = (int) INT.get(source, offset + 4 * i) & 0xFFFF_FFFFL;
        }
    }

    private static void unpack40(byte[] source, int offset, long[] values, int valuesOffset, int count)
    {
        for (int i = 0, at = offset; i < count; i++, at += 5) {
            values[valuesOffset + i] = ((int) INT.get(source, at) & 0xFFFF_FFFFL) << 8 | (source[at + 4] & 0xFFL);
        }
    }

    private static void unpack48(byte[] source, int offset, long[] values, int valuesOffset, int count)
    {
        for (int i = 0, at = offset; i < count; i++, at += 6) {
            values[valuesOffset + i] = ((int) INT.get(source, at) & 0xFFFF_FFFFL) << 16 | ((short) SHORT.get(source, at + 4) & 0xFFFFL);
        }
    }

    private static void unpack56(byte[] source, int offset, long[] values, int valuesOffset, int count)
    {
        for (int i = 0, at = offset; i < count; i++, at += 7) {
            values[valuesOffset + i] = ((int) INT.get(source, at) & 0xFFFF_FFFFL) << 24 | ((short) SHORT.get(source, at + 4) & 0xFFFFL) << 8 | (source[at + 6] & 0xFFL);
        }
    }

    private static void unpack64(byte[] source, int offset, long[] values, int valuesOffset, int count)
    {
        for (int i = 0; i < count; i++) {
            values[valuesOffset + i] = (long) LONG.get(source, offset + 8 * i);
        }
    }

    /**
     * Any width up to 56 bits: the bits not yet handed out stay in a 64-bit accumulator, which
     * takes a byte whenever it holds fewer than the next value needs (so never more than 63).
     */
    private static void unpackGeneric(byte[] source, int offset, long[] values, int valuesOffset, int count, int width)
    {
        if (width > 56) {
            unpackWide(source, offset, values, valuesOffset, count, width);
            return;
        }
        long mask = (1L << width) - 1;
        long buffer = 0;
        int bits = 0;
        int at = offset;
        for (int i = 0; i < count; i++) {
            while (bits < width) {
                buffer = buffer << 8 | (source[at++] & 0xFFL);
                bits += 8;
            }
            bits -= width;
            values[valuesOffset + i] = (buffer >>> bits) & mask;
        }
    }

    /**
     * Widths of 57 to 63 bits, which ORC's writer never uses (its widths above 56 are 64), bit by
     * bit.
     */
    private static void unpackWide(byte[] source, int offset, long[] values, int valuesOffset, int count, int width)
    {
        long bit = (long) offset * 8;
        for (int i = 0; i < count; i++) {
            long value = 0;
            for (int k = 0; k < width; k++, bit++) {
                value = value << 1 | ((source[(int) (bit >>> 3)] >>> (7 - (int) (bit & 7))) & 1);
            }
            values[valuesOffset + i] = value;
        }
    }
}
