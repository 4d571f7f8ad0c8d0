package io.tarn.vector.reader.decoders;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Little-endian primitive access to byte arrays; callers check bounds first.
 * <p>
 * Internal to the vector-reader module: public only for the metadata package.
 */
public final class ByteArrays
{
    private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private ByteArrays() {}

    public static int intLE(byte[] bytes, int offset)
    {
        return (int) INT_LE.get(bytes, offset);
    }

    public static long longLE(byte[] bytes, int offset)
    {
        return (long) LONG_LE.get(bytes, offset);
    }

    static void putLongLE(byte[] bytes, int offset, long value)
    {
        LONG_LE.set(bytes, offset, value);
    }

    /**
     * Bytes a target array should have beyond the copied values for {@link #copy} to take its
     * word paths.
     */
    static final int COPY_SLACK = 4 * Long.BYTES;

    /**
     * {@code System.arraycopy} for short values between different arrays: copies 8-byte words
     * when both arrays extend far enough past the value, so the bytes after the copied value in
     * {@code target} may be overwritten with garbage (callers write values in ascending order,
     * each overwriting that tail). A value of at most 32 bytes is copied as four words whatever
     * its length: a copy loop whose trip count follows the lengths of the values mispredicts its
     * exit on most of them.
     */
    static void copy(byte[] source, int sourceOffset, byte[] target, int targetOffset, int length)
    {
        if (length <= 4 * Long.BYTES && sourceOffset <= source.length - 4 * Long.BYTES && targetOffset <= target.length - 4 * Long.BYTES) {
            LONG_LE.set(target, targetOffset, (long) LONG_LE.get(source, sourceOffset));
            LONG_LE.set(target, targetOffset + 8, (long) LONG_LE.get(source, sourceOffset + 8));
            LONG_LE.set(target, targetOffset + 16, (long) LONG_LE.get(source, sourceOffset + 16));
            LONG_LE.set(target, targetOffset + 24, (long) LONG_LE.get(source, sourceOffset + 24));
            return;
        }
        if (length <= 64 && sourceOffset <= source.length - length - Long.BYTES && targetOffset <= target.length - length - Long.BYTES) {
            for (int k = 0; k < length; k += Long.BYTES) {
                LONG_LE.set(target, targetOffset + k, (long) LONG_LE.get(source, sourceOffset + k));
            }
            return;
        }
        System.arraycopy(source, sourceOffset, target, targetOffset, length);
    }
}
