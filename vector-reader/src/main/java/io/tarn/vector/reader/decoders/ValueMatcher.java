package io.tarn.vector.reader.decoders;

import java.util.Arrays;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Tests binary values for equality with a few literals where they lie, in a page or a decoded
 * dictionary, so that a column read only for an equality filter is never copied out. One
 * matcher serves one column of one file: it keeps the verdicts of the dictionary it saw last.
 * <p>
 * Internal to the vector-reader module: public only for the reader package.
 */
public final class ValueMatcher
{
    private final byte[][] literals;
    // per literal: its first eight bytes as a little-endian word, when it has eight; most values
    // differ from a literal of their length there, and one word compare is cheaper than a call
    private final long[] leadingWords;
    // decoders without an in-place match decode into this buffer first
    private final ValueBuffer scratch = new ValueBuffer();
    private ValueBuffer matchedDictionary;
    private long[] dictionaryVerdicts = new long[0];

    public ValueMatcher(List<byte[]> literals)
    {
        requireNonNull(literals, "literals is null");
        if (literals.isEmpty()) {
            throw new IllegalArgumentException("No literals to match");
        }
        this.literals = literals.toArray(new byte[0][]);
        this.leadingWords = new long[this.literals.length];
        for (int i = 0; i < this.literals.length; i++) {
            if (this.literals[i].length >= Long.BYTES) {
                leadingWords[i] = ByteArrays.longLE(this.literals[i], 0);
            }
        }
    }

    /**
     * Whether the {@code length} bytes of {@code data} at {@code offset} equal a literal.
     */
    boolean matches(byte[] data, int offset, int length)
    {
        if (literals.length == 1) {
            // the point lookup: one length test rejects most values, one word test nearly all others
            byte[] literal = literals[0];
            return literal.length == length
                    && (length < Long.BYTES || ByteArrays.longLE(data, offset) == leadingWords[0])
                    && Arrays.equals(literal, 0, length, data, offset, offset + length);
        }
        for (int i = 0; i < literals.length; i++) {
            byte[] literal = literals[i];
            if (literal.length != length) {
                continue;
            }
            if (length >= Long.BYTES && ByteArrays.longLE(data, offset) != leadingWords[i]) {
                continue;
            }
            if (Arrays.equals(literal, 0, length, data, offset, offset + length)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether value {@code index} of {@code values} (binary) matches.
     */
    boolean matches(ValueBuffer values, int index)
    {
        int start = values.offsets[index];
        return matches(values.bytes, start, values.offsets[index + 1] - start);
    }

    /**
     * A bit per value of the binary {@code dictionary}, set where it matches; computed once per
     * dictionary (a column chunk's pages share theirs).
     */
    public long[] dictionaryVerdicts(ValueBuffer dictionary)
    {
        if (dictionary != matchedDictionary) {
            long[] verdicts = new long[SelectionMasks.words(dictionary.count)];
            for (int id = 0; id < dictionary.count; id++) {
                if (matches(dictionary, id)) {
                    verdicts[id >>> 6] |= 1L << id;
                }
            }
            dictionaryVerdicts = verdicts;
            matchedDictionary = dictionary;
        }
        return dictionaryVerdicts;
    }

    ValueBuffer scratch()
    {
        scratch.reset();
        return scratch;
    }
}
