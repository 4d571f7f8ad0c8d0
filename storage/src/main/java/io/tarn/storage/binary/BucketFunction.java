package io.tarn.storage.binary;

import io.tarn.types.DataType;
import io.tarn.types.TypeRoot;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

import static java.util.Objects.requireNonNull;

/**
 * Paimon's bucket functions for fixed-bucket tables.
 * <p>
 * {@code default}: a MurmurHash3 (x86, 32-bit) variant over the bucket-key {@link BinaryRow}'s
 * bytes, read as little-endian int32 words, seed 42, finished with the byte length and fmix32
 * (Paimon's {@code BinaryRow.hashCode()}); the bucket is {@code Math.abs(hash % numBuckets)}.
 * The hash covers the whole row, header byte and null bits included, so the key row must be
 * encoded exactly as Paimon does ({@link BinaryRowWriter}).
 * <p>
 * {@code mod}: for a single INT or BIGINT bucket key, {@code floorMod(value, numBuckets)}.
 */
public final class BucketFunction
{
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final int SEED = 42;

    private BucketFunction() {}

    public static int hash(BinaryRow row)
    {
        requireNonNull(row, "row is null");
        byte[] bytes = row.bytes();
        int length = bytes.length;
        int aligned = length & ~3;
        int h = SEED;
        for (int i = 0; i < aligned; i += 4) {
            h = mixH1(h, mixK1((int) INT.get(bytes, i)));
        }
        // Rows Paimon writes are 8-byte aligned; a tail only occurs for hand-made rows.
        for (int i = aligned; i < length; i++) {
            h = mixH1(h, mixK1(bytes[i]));
        }
        return fmix(h ^ length);
    }

    /**
     * The {@code default} bucket function.
     *
     * @throws IllegalArgumentException if {@code numBuckets} is not positive
     */
    public static int bucket(BinaryRow key, int numBuckets)
    {
        checkBuckets(numBuckets);
        return Math.abs(hash(key) % numBuckets);
    }

    /**
     * The {@code mod} bucket function: {@code key} has one field of type INT or BIGINT.
     * A null key reads as 0, like Paimon.
     *
     * @throws IllegalArgumentException if the key is not a single INT or BIGINT field or {@code numBuckets} is not positive
     */
    public static int modBucket(BinaryRow key, DataType keyType, int numBuckets)
    {
        requireNonNull(key, "key is null");
        requireNonNull(keyType, "keyType is null");
        checkBuckets(numBuckets);
        if (key.arity() != 1) {
            throw new IllegalArgumentException("The mod bucket function needs exactly one bucket key field, but the key has " + key.arity());
        }
        long slot = key.slot(0);
        if (keyType.root() == TypeRoot.INT) {
            return Math.floorMod((int) slot, numBuckets);
        }
        if (keyType.root() == TypeRoot.BIGINT) {
            return (int) Math.floorMod(slot, (long) numBuckets);
        }
        throw new IllegalArgumentException("The mod bucket function needs an INT or BIGINT bucket key, but got " + keyType.asSqlString());
    }

    private static void checkBuckets(int numBuckets)
    {
        if (numBuckets <= 0) {
            throw new IllegalArgumentException("Number of buckets must be positive: " + numBuckets);
        }
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
