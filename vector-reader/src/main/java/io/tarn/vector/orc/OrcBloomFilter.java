package io.tarn.vector.orc;

import io.tarn.vector.CorruptDataException;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One row group's Bloom filter of one column, from the column's {@code BLOOM_FILTER_UTF8}
 * stream: a {@code BloomFilterIndex} message whose field 1 repeats a {@code BloomFilter} per row
 * group, each with the number of hash functions (field 1) and the bit set as little-endian 64-bit
 * words (field 3, {@code utf8bitset}). A value's 64-bit hash sets, for i = 1..k, bit
 * {@code h1 + i * h2} (32-bit arithmetic, all bits flipped when negative) modulo the number of
 * bits, where h1 and h2 are the hash's low and high halves; bit n lives in word n / 64 at
 * position n % 64.
 * <p>
 * Trust contract: a filter with no bits, a bit set that is not whole words, or a number of hash
 * functions outside 1..{@value #MAX_HASH_FUNCTIONS} is not used; a filter may only ever say that
 * a value is absent, so any doubt about it means the rows are read.
 */
final class OrcBloomFilter
{
    // ORC's writer uses log2(1 / fpp) functions: 64 covers any false positive rate above 1e-19
    static final int MAX_HASH_FUNCTIONS = 64;
    // a bit index must fit an int
    private static final int MAX_WORDS = Integer.MAX_VALUE / 64;
    static final long MAX_BITS = MAX_WORDS * 64L;

    private final long[] words;
    private final int bits;
    private final int hashFunctions;

    private OrcBloomFilter(long[] words, int hashFunctions)
    {
        this.words = words;
        this.bits = words.length * 64;
        this.hashFunctions = hashFunctions;
    }

    /**
     * The filters of a {@code BLOOM_FILTER_UTF8} stream's index, one per row group, or empty when
     * one of them is not a filter this reader can use.
     *
     * @throws CorruptDataException when the message does not parse
     */
    static Optional<List<OrcBloomFilter>> parseIndex(ProtobufReader message)
    {
        List<OrcBloomFilter> filters = new ArrayList<>();
        for (int field = message.nextField(); field >= 0; field = message.nextField()) {
            if (field == 1) {
                Optional<OrcBloomFilter> filter = parse(message.readMessage());
                if (filter.isEmpty()) {
                    return Optional.empty();
                }
                filters.add(filter.get());
            }
            else {
                message.skip();
            }
        }
        return Optional.of(filters);
    }

    private static Optional<OrcBloomFilter> parse(ProtobufReader message)
    {
        long hashFunctions = 0;
        byte[] bitset = null;
        for (int field = message.nextField(); field >= 0; field = message.nextField()) {
            switch (field) {
                case 1 -> hashFunctions = message.readUnsigned();
                case 3 -> bitset = message.readBytes();
                // field 2 holds the bits of the legacy BLOOM_FILTER stream, not read here
                default -> message.skip();
            }
        }
        if (hashFunctions < 1 || hashFunctions > MAX_HASH_FUNCTIONS || bitset == null || bitset.length == 0 || bitset.length % 8 != 0 || bitset.length / 8 > MAX_WORDS) {
            return Optional.empty();
        }
        long[] words = new long[bitset.length / 8];
        for (int word = 0; word < words.length; word++) {
            long value = 0;
            for (int i = 7; i >= 0; i--) {
                value = (value << 8) | (bitset[word * 8 + i] & 0xFFL);
            }
            words[word] = value;
        }
        return Optional.of(new OrcBloomFilter(words, (int) hashFunctions));
    }

    /**
     * False when no value with this 64-bit hash was added to the filter.
     */
    boolean mightContain(long hash)
    {
        for (int function = 1; function <= hashFunctions; function++) {
            int bit = bit(hash, function, bits);
            if ((words[bit >>> 6] & (1L << bit)) == 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * The bit that hash function {@code function} (1 to k) gives a value's 64-bit hash in a
     * filter of {@code bits} bits: {@code h1 + function * h2} in 32-bit arithmetic, all bits
     * flipped when negative, modulo the number of bits. The writer sets exactly these bits.
     */
    static int bit(long hash, int function, int bits)
    {
        int combined = (int) hash + function * (int) (hash >>> 32);
        if (combined < 0) {
            combined = ~combined;
        }
        return combined % bits;
    }
}
