package io.tarn.vector;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Little-endian primitive access to byte arrays; callers check bounds first.
 */
final class ByteArrays
{
    private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private ByteArrays() {}

    static int intLE(byte[] bytes, int offset)
    {
        return (int) INT_LE.get(bytes, offset);
    }

    static long longLE(byte[] bytes, int offset)
    {
        return (long) LONG_LE.get(bytes, offset);
    }
}
