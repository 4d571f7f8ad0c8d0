package io.tarn.storage.binary;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

import static java.util.Objects.requireNonNull;

/**
 * Paimon's MurmurHash3 (x86, 32-bit) variant ({@code MurmurHashUtils.hashBytes}): little-endian
 * int32 words, then each tail byte mixed on its own (sign-extended), seed 42, finished with the
 * byte length and fmix32. It hashes {@code BinaryRow}s (bucket assignment) and
 * {@code BinaryString}s ({@code hashCode}).
 */
public final class MurmurHash
{
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final int SEED = 42;

    private MurmurHash() {}

    public static int hash(byte[] bytes)
    {
        requireNonNull(bytes, "bytes is null");
        int length = bytes.length;
        int aligned = length & ~3;
        int h = SEED;
        for (int i = 0; i < aligned; i += 4) {
            h = mixH1(h, mixK1((int) INT.get(bytes, i)));
        }
        for (int i = aligned; i < length; i++) {
            h = mixH1(h, mixK1(bytes[i]));
        }
        return fmix(h ^ length);
    }

    private static int mixK1(int k1)
    {
        k1 *= 0xcc9e2d51;
        k1 = Integer.rotateLeft(k1, 15);
        k1 *= 0x1b873593;
        return k1;
    }

    private static int mixH1(int h1, int k1)
    {
        h1 ^= k1;
        h1 = Integer.rotateLeft(h1, 13);
        h1 = h1 * 5 + 0xe6546b64;
        return h1;
    }

    private static int fmix(int h1)
    {
        h1 ^= h1 >>> 16;
        h1 *= 0x85ebca6b;
        h1 ^= h1 >>> 13;
        h1 *= 0xc2b2ae35;
        h1 ^= h1 >>> 16;
        return h1;
    }
}
