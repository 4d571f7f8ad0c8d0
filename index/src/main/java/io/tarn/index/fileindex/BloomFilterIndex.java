package io.tarn.index.fileindex;

import io.tarn.types.DataType;

import java.io.IOException;
import java.nio.ByteBuffer;

import static java.util.Objects.requireNonNull;

/**
 * Paimon's Bloom filter index ({@code bloom-filter}, {@code BloomFilter64}): the payload is an
 * int32 big-endian number of hash functions k followed by the bit set, bit {@code i} in byte
 * {@code i >>> 3} under mask {@code 1 << (i & 7)}. A value with 64-bit hash h
 * ({@link FileIndexHash}) sets, for i = 1..k, bit {@code c % bits} where
 * {@code c = (int) h + i * (int) (h >>> 32)} in 32-bit arithmetic, complemented when negative.
 * Null values are not inserted. The filter answers only whether a value may be present.
 */
public final class BloomFilterIndex
{
    public static final String TYPE = "bloom-filter";
    public static final int DEFAULT_ITEMS = 1_000_000;
    public static final double DEFAULT_FPP = 0.1;

    // no sane writer uses more; a larger count marks a corrupt payload
    private static final int MAX_HASH_FUNCTIONS = 64;

    private final DataType type;
    private final int hashFunctions;
    private final BitSetBytes bits;
    private final int bitCount;

    private BloomFilterIndex(DataType type, int hashFunctions, BitSetBytes bits, int bitSetBytes)
    {
        this.type = type;
        this.hashFunctions = hashFunctions;
        this.bits = bits;
        this.bitCount = bitSetBytes * Byte.SIZE;
    }

    /**
     * The bytes of the bit set, by index.
     */
    @FunctionalInterface
    private interface BitSetBytes
    {
        byte byteAt(int index)
                throws IOException;
    }

    /**
     * Reads a payload for values of {@code type}.
     */
    public static BloomFilterIndex read(DataType type, ByteBuffer payload)
            throws CorruptIndexException
    {
        requireNonNull(type, "type is null");
        checkType(type);
        // a payload too short for the count is refused by checkHeader, whatever count is passed
        int hashFunctions = checkHeader(payload.remaining(), payload.remaining() >= 4 ? payload.getInt(payload.position()) : 0);
        ByteBuffer bits = payload.slice();
        bits.position(4);
        ByteBuffer bitSet = bits.slice();
        return new BloomFilterIndex(type, hashFunctions, bitSet::get, bitSet.remaining());
    }

    /**
     * Reads only the payload's head now, and then for each probe the one byte that holds the
     * probed bit: a lookup of one value in a filter of a few hundred kilobytes reads a few bytes.
     */
    public static BloomFilterIndex probing(DataType type, FileIndexFile container, FileIndexFile.Index index)
            throws IOException
    {
        requireNonNull(type, "type is null");
        requireNonNull(container, "container is null");
        checkType(type);
        byte[] head = new byte[4];
        if (index.length() >= head.length) {
            container.readPayload(index, 0, head, 0, head.length);
        }
        int hashFunctions = checkHeader(index.length(), ByteBuffer.wrap(head).getInt());
        byte[] probe = new byte[1];
        BitSetBytes bits = byteIndex -> {
            container.readPayload(index, 4 + byteIndex, probe, 0, 1);
            return probe[0];
        };
        return new BloomFilterIndex(type, hashFunctions, bits, index.length() - 4);
    }

    private static void checkType(DataType type)
            throws CorruptIndexException
    {
        if (!FileIndexHash.supports(type)) {
            throw new CorruptIndexException("Bloom filter index over a column of type " + type.asSqlString() + ", which has no Bloom filter hash");
        }
    }

    private static int checkHeader(int payloadLength, int hashFunctions)
            throws CorruptIndexException
    {
        if (payloadLength < 5) {
            throw new CorruptIndexException("Bloom filter index of " + payloadLength + " bytes is too short");
        }
        if (hashFunctions < 1 || hashFunctions > MAX_HASH_FUNCTIONS) {
            throw new CorruptIndexException("Bloom filter index has " + hashFunctions + " hash functions");
        }
        if ((long) (payloadLength - 4) * Byte.SIZE > Integer.MAX_VALUE) {
            throw new CorruptIndexException("Bloom filter index of " + payloadLength + " bytes is larger than 2^31 bits");
        }
        return hashFunctions;
    }

    /**
     * Whether a non-null value of the index's type may be among the inserted values.
     */
    public boolean mightContain(Object value)
            throws IOException
    {
        long hash = FileIndexHash.hash(type, value);
        int hash1 = (int) hash;
        int hash2 = (int) (hash >>> 32);
        for (int i = 1; i <= hashFunctions; i++) {
            int bit = position(hash1, hash2, i, bitCount);
            if ((bits.byteAt(bit >>> 3) & (1 << (bit & 7))) == 0) {
                return false;
            }
        }
        return true;
    }

    private static int position(int hash1, int hash2, int function, int bitCount)
    {
        int combined = hash1 + function * hash2;
        if (combined < 0) {
            combined = ~combined;
        }
        return combined % bitCount;
    }

    /**
     * Builds a filter for about {@code items} values at false-positive rate {@code fpp}, sized as
     * Paimon sizes it.
     */
    public static final class Writer
            implements FileIndexWriter
    {
        private final DataType type;
        private final int hashFunctions;
        private final int bitCount;
        private final byte[] bits;

        public Writer(DataType type, int items, double fpp)
        {
            this.type = requireNonNull(type, "type is null");
            if (!FileIndexHash.supports(type)) {
                throw new IllegalArgumentException("Bloom filter indexes do not support type " + type.asSqlString());
            }
            if (items <= 0 || !(fpp > 0 && fpp < 1)) {
                throw new IllegalArgumentException("Bloom filter needs items > 0 and 0 < fpp < 1, got items=" + items + ", fpp=" + fpp);
            }
            int bitsNeeded = (int) (-items * Math.log(fpp) / (Math.log(2) * Math.log(2)));
            // Paimon always rounds up, adding a whole byte when already a multiple of 8
            this.bitCount = bitsNeeded + (Byte.SIZE - bitsNeeded % Byte.SIZE);
            this.hashFunctions = Math.max(1, (int) Math.round((double) bitCount / items * Math.log(2)));
            this.bits = new byte[bitCount / Byte.SIZE];
        }

        @Override
        public void add(Object value)
        {
            if (value == null) {
                return;
            }
            long hash = FileIndexHash.hash(type, value);
            int hash1 = (int) hash;
            int hash2 = (int) (hash >>> 32);
            for (int i = 1; i <= hashFunctions; i++) {
                int bit = position(hash1, hash2, i, bitCount);
                bits[bit >>> 3] |= (byte) (1 << (bit & 7));
            }
        }

        @Override
        public byte[] serialize()
        {
            return ByteBuffer.allocate(4 + bits.length).putInt(hashFunctions).put(bits).array();
        }
    }
}
