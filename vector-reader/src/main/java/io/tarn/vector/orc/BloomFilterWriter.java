package io.tarn.vector.orc;

import java.util.Arrays;

/**
 * Builds the Bloom filter of one column's row group, sized as orc-core sizes it, so that the
 * filters {@link OrcBloomFilter} reads (and any ORC reader) find every value that was added: for
 * {@code n} expected entries (the row index stride) and a false positive rate {@code p},
 * {@code -n ln p / (ln 2)^2} bits rounded up to the next whole 64-bit word, and
 * {@code round(bits / n * ln 2)} hash functions (at least one). A value's 64-bit hash
 * ({@link BloomFilterHash}) sets the bits {@link OrcBloomFilter#bit} gives it.
 */
final class BloomFilterWriter
{
    private final long[] words;
    private final int bits;
    private final int hashFunctions;

    BloomFilterWriter(long expectedEntries, double falsePositiveRate)
    {
        if (!(falsePositiveRate > 0 && falsePositiveRate < 1)) {
            throw new IllegalArgumentException("Bloom filter false positive rate must be between 0 and 1 (exclusive): " + falsePositiveRate);
        }
        long entries = Math.max(expectedEntries, 1);
        double log2 = Math.log(2);
        long optimalBits = (long) (-entries * Math.log(falsePositiveRate) / (log2 * log2));
        // orc-core always adds a word, even to a whole number of them
        long wholeBits = optimalBits + (64 - optimalBits % 64);
        if (wholeBits > OrcBloomFilter.MAX_BITS) {
            throw new IllegalArgumentException("A Bloom filter of %d entries at a false positive rate of %s needs %d bits, more than ORC allows".formatted(expectedEntries, falsePositiveRate, wholeBits));
        }
        this.bits = (int) wholeBits;
        this.words = new long[bits / 64];
        this.hashFunctions = Math.max(1, (int) Math.round((double) bits / entries * log2));
        if (hashFunctions > OrcBloomFilter.MAX_HASH_FUNCTIONS) {
            throw new IllegalArgumentException("A Bloom filter at a false positive rate of %s needs %d hash functions, more than %d".formatted(falsePositiveRate, hashFunctions, OrcBloomFilter.MAX_HASH_FUNCTIONS));
        }
    }

    void add(long hash)
    {
        for (int function = 1; function <= hashFunctions; function++) {
            int bit = OrcBloomFilter.bit(hash, function, bits);
            words[bit >>> 6] |= 1L << bit;
        }
    }

    /**
     * The filter as a {@code BloomFilter} message: the number of hash functions (field 1) and the
     * bits as little-endian 64-bit words ({@code utf8bitset}, field 3); then empties the filter
     * for the next row group.
     */
    ProtobufWriter finishRowGroup()
    {
        byte[] bitset = new byte[words.length * 8];
        for (int word = 0; word < words.length; word++) {
            long value = words[word];
            for (int i = 0; i < 8; i++) {
                bitset[word * 8 + i] = (byte) (value >>> (8 * i));
            }
        }
        Arrays.fill(words, 0);
        return new ProtobufWriter()
                .writeUnsigned(1, hashFunctions)
                .writeBytes(3, bitset);
    }
}
