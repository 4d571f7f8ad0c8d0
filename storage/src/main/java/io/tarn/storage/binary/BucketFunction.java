package io.tarn.storage.binary;

import io.tarn.types.DataType;
import io.tarn.types.TypeRoot;

import static java.util.Objects.requireNonNull;

/**
 * Paimon's bucket functions for fixed-bucket tables.
 * <p>
 * {@code default}: {@link MurmurHash} over the bucket-key {@link BinaryRow}'s bytes (Paimon's
 * {@code BinaryRow.hashCode()}); the bucket is {@code Math.abs(hash % numBuckets)}.
 * The hash covers the whole row, header byte and null bits included, so the key row must be
 * encoded exactly as Paimon does ({@link BinaryRowWriter}).
 * <p>
 * {@code mod}: for a single INT or BIGINT bucket key, {@code floorMod(value, numBuckets)}.
 */
public final class BucketFunction
{
    private BucketFunction() {}

    public static int hash(BinaryRow row)
    {
        requireNonNull(row, "row is null");
        // Rows Paimon writes are 8-byte aligned; a tail only occurs for hand-made rows.
        return MurmurHash.hash(row.bytes());
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
}
