package io.tarn.vector.orc;

/**
 * The 64-bit hashes Apache ORC's Java writer puts into its Bloom filters
 * ({@code org.apache.orc.util.BloomFilter}): the 64-bit variant of Murmur3 (the first half of
 * Murmur3's 128-bit hash, seed 104729) of a value's bytes for strings and binaries, and Thomas
 * Wang's 64-bit integer mix of the value for integers, dates and the bits of doubles. A probe
 * must hash exactly as the writer did, or a present value would be reported absent.
 */
final class BloomFilterHash
{
    private static final long C1 = 0x87c37b91114253d5L;
    private static final long C2 = 0x4cf5ad432745937fL;
    private static final int SEED = 104729;

    private BloomFilterHash() {}

    static long bytes(byte[] data)
    {
        return bytes(data, 0, data.length);
    }

    /**
     * The hash of bytes {@code [offset, offset + length)} of {@code data}.
     */
    static long bytes(byte[] data, int offset, int length)
    {
        long hash = SEED;
        int blocks = length >> 3;
        for (int block = 0; block < blocks; block++) {
            long k = littleEndianLong(data, offset + (block << 3), 8);
            hash ^= mixK1(k);
            hash = Long.rotateLeft(hash, 27) * 5 + 0x52dce729;
        }
        int tail = length & 7;
        if (tail > 0) {
            hash ^= mixK1(littleEndianLong(data, offset + (blocks << 3), tail));
        }
        hash ^= length;
        return finalMix(hash);
    }

    /**
     * Thomas Wang's 64-bit mix, with arithmetic (sign-extending) right shifts as ORC's writer has.
     */
    static long integer(long key)
    {
        key = ~key + (key << 21);
        key = key ^ (key >> 24);
        key = key + (key << 3) + (key << 8);
        key = key ^ (key >> 14);
        key = key + (key << 2) + (key << 4);
        key = key ^ (key >> 28);
        key = key + (key << 31);
        return key;
    }

    /**
     * The hash of a FLOAT or DOUBLE value: ORC's writer widens a float to a double and hashes the
     * double's bits with NaN collapsed to one pattern ({@link Double#doubleToLongBits}).
     */
    static long floating(double value)
    {
        return integer(Double.doubleToLongBits(value));
    }

    private static long littleEndianLong(byte[] data, int offset, int length)
    {
        long value = 0;
        for (int i = length - 1; i >= 0; i--) {
            value = (value << 8) | (data[offset + i] & 0xFFL);
        }
        return value;
    }

    private static long mixK1(long k)
    {
        k *= C1;
        k = Long.rotateLeft(k, 31);
        return k * C2;
    }

    private static long finalMix(long hash)
    {
        hash ^= hash >>> 33;
        hash *= 0xff51afd7ed558ccdL;
        hash ^= hash >>> 33;
        hash *= 0xc4ceb9fe1a85ec53L;
        hash ^= hash >>> 33;
        return hash;
    }
}
