package io.tarn.vector.filter;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;

import static java.util.Objects.requireNonNull;

/**
 * A string or binary literal compared with the values in an Arrow data buffer eight bytes at a
 * time: the filter tests every row of a batch against it, and a byte-by-byte loop was the larger
 * part of a selective string lookup. Reads are unchecked: callers pass value ranges they have
 * checked against the buffer ({@link #checkedRange}), because ArrowBuf's own check per read
 * (reference count and bounds) cost as much as the comparison.
 */
final class ByteLiteral
{
    private final byte[] bytes;
    // the literal's bytes as little-endian words, as ArrowBuf.getLong reads the data
    private final long[] words;

    ByteLiteral(byte[] bytes)
    {
        this.bytes = requireNonNull(bytes, "bytes is null");
        this.words = new long[bytes.length / Long.BYTES];
        for (int word = 0; word < words.length; word++) {
            long value = 0;
            for (int i = Long.BYTES - 1; i >= 0; i--) {
                value = (value << Byte.SIZE) | (bytes[word * Long.BYTES + i] & 0xFF);
            }
            words[word] = value;
        }
    }

    int length()
    {
        return bytes.length;
    }

    /**
     * Checks that {@code [start, end)} lies in {@code data} and returns {@code end - start}.
     */
    static int checkedRange(ArrowBuf data, int start, int end)
    {
        if (start < 0 || end < start || end > data.capacity()) {
            throw new IllegalStateException("Value range [" + start + ", " + end + ") outside a data buffer of " + data.capacity() + " bytes");
        }
        return end - start;
    }

    /**
     * Whether the {@code length} bytes at {@code address} equal the literal.
     */
    boolean equalsAt(long address, int length)
    {
        if (length != bytes.length) {
            return false;
        }
        for (int word = 0; word < words.length; word++) {
            if (MemoryUtil.getLong(address + (long) word * Long.BYTES) != words[word]) {
                return false;
            }
        }
        for (int i = words.length * Long.BYTES; i < bytes.length; i++) {
            if (MemoryUtil.getByte(address + i) != bytes[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the value of {@code length} bytes at {@code address} begins with the literal.
     */
    boolean isPrefixAt(long address, int length)
    {
        return length >= bytes.length && equalsAt(address, bytes.length);
    }

    /**
     * The unsigned lexicographic order of the {@code length} bytes at {@code address} against the
     * literal.
     */
    int compareAt(long address, int length)
    {
        int common = Math.min(length, bytes.length);
        int fullWords = common / Long.BYTES;
        for (int word = 0; word < fullWords; word++) {
            long value = MemoryUtil.getLong(address + (long) word * Long.BYTES);
            if (value != words[word]) {
                // reversed, the first differing byte is the most significant
                return Long.compareUnsigned(Long.reverseBytes(value), Long.reverseBytes(words[word]));
            }
        }
        for (int i = fullWords * Long.BYTES; i < common; i++) {
            int order = Integer.compare(MemoryUtil.getByte(address + i) & 0xFF, bytes[i] & 0xFF);
            if (order != 0) {
                return order;
            }
        }
        return Integer.compare(length, bytes.length);
    }
}
