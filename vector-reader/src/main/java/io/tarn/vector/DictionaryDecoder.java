package io.tarn.vector;

import org.apache.parquet.format.Type;

import java.util.Arrays;

/**
 * RLE_DICTIONARY / PLAIN_DICTIONARY data: one byte bit width, then RLE / bit-packed dictionary
 * ids. Run by run: an RLE run of one id becomes a fill of its value, a bit-packed run is unpacked
 * into a small id buffer and gathered from the decoded dictionary.
 */
final class DictionaryDecoder
        implements ValuesDecoder
{
    private final ValueBuffer dictionary;
    private final Type type;
    private final RleBitPackedDecoder ids;
    private final Words words;
    private int[] scratch = new int[0];

    /**
     * {@code words}: for a binary dictionary, its values as words, built on first use by the
     * column chunk's pages; null for other types.
     */
    DictionaryDecoder(ValueBuffer dictionary, Words words, Type type, byte[] data, int offset, int end)
    {
        if (end <= offset) {
            throw new CorruptDataException("Dictionary-encoded page has no bit width");
        }
        this.dictionary = dictionary;
        this.words = words;
        this.type = type;
        this.ids = new RleBitPackedDecoder(data, offset + 1, end - offset - 1, data[offset] & 0xFF);
    }

    @Override
    public void read(ValueBuffer out, int count)
    {
        switch (type) {
            case BOOLEAN, INT32, FLOAT -> readInts(out, count);
            case INT64, DOUBLE, INT96 -> readLongs(out, count);
            case BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY -> readBinary(out, count);
        }
    }

    private void readInts(ValueBuffer out, int count)
    {
        int[] target = out.ints(count);
        int[] values = dictionary.ints;
        int size = dictionary.count;
        int write = out.count;
        int left = count;
        while (left > 0) {
            int n = Math.min(left, ids.runLength());
            if (ids.isRle()) {
                int id = checkId(ids.rleValue(), size);
                Arrays.fill(target, write, write + n, values[id]);
                ids.consumeRle(n);
            }
            else {
                int[] idArray = unpackIds(n, size);
                for (int i = 0; i < n; i++) {
                    target[write + i] = values[idArray[i]];
                }
            }
            write += n;
            left -= n;
        }
        out.count = write;
    }

    private void readLongs(ValueBuffer out, int count)
    {
        long[] target = out.longs(count);
        long[] values = dictionary.longs;
        int size = dictionary.count;
        int write = out.count;
        int left = count;
        while (left > 0) {
            int n = Math.min(left, ids.runLength());
            if (ids.isRle()) {
                int id = checkId(ids.rleValue(), size);
                Arrays.fill(target, write, write + n, values[id]);
                ids.consumeRle(n);
            }
            else {
                int[] idArray = unpackIds(n, size);
                for (int i = 0; i < n; i++) {
                    target[write + i] = values[idArray[i]];
                }
            }
            write += n;
            left -= n;
        }
        out.count = write;
    }

    private void readBinary(ValueBuffer out, int count)
    {
        // a few values at a time (sparse selections) are not worth building the words
        if (words != null && count >= Words.MIN_COUNT) {
            ShortValues shortValues = words.shortValues();
            if (shortValues != null) {
                readShortBinary(out, count, shortValues);
                return;
            }
        }
        int[] dictionaryOffsets = dictionary.offsets;
        byte[] source = dictionary.bytes;
        int size = dictionary.count;
        int[] offsets = out.offsets(count);
        int index = out.count;
        int left = count;
        while (left > 0) {
            int n = Math.min(left, ids.runLength());
            byte[] target;
            int write = offsets[index];
            if (ids.isRle()) {
                int id = checkId(ids.rleValue(), size);
                int start = dictionaryOffsets[id];
                int length = dictionaryOffsets[id + 1] - start;
                target = out.bytes(checkedTotal((long) length * n + ByteArrays.COPY_SLACK));
                for (int i = 0; i < n; i++) {
                    ByteArrays.copy(source, start, target, write, length);
                    write += length;
                    offsets[index + i + 1] = write;
                }
                ids.consumeRle(n);
            }
            else {
                int[] idArray = unpackIds(n, size);
                long total = 0;
                for (int i = 0; i < n; i++) {
                    total += dictionaryOffsets[idArray[i] + 1] - dictionaryOffsets[idArray[i]];
                }
                target = out.bytes(checkedTotal(total + ByteArrays.COPY_SLACK));
                for (int i = 0; i < n; i++) {
                    int id = idArray[i];
                    int start = dictionaryOffsets[id];
                    int length = dictionaryOffsets[id + 1] - start;
                    ByteArrays.copy(source, start, target, write, length);
                    write += length;
                    offsets[index + i + 1] = write;
                }
            }
            // out.bytes() measures from offsets[count]: advance the count run by run
            index += n;
            out.count = index;
            left -= n;
        }
    }

    /**
     * Binary values of at most 32 bytes: each is written as whole 8-byte words (the bytes past
     * its length are overwritten by the next value), its length taken from an array.
     */
    private void readShortBinary(ValueBuffer out, int count, ShortValues shorts)
    {
        int[] lengths = shorts.lengths;
        long[] words = shorts.words;
        int width = shorts.wordsPerValue;
        int size = dictionary.count;
        int[] offsets = out.offsets(count);
        int index = out.count;
        int left = count;
        while (left > 0) {
            int n = Math.min(left, ids.runLength());
            // room for n values of the longest length and the whole words of the last one
            byte[] target = out.bytes(checkedTotal((long) n * shorts.maxLength + (long) width * Long.BYTES));
            int write = offsets[index];
            if (ids.isRle()) {
                int id = checkId(ids.rleValue(), size);
                for (int i = 0; i < n; i++) {
                    for (int w = 0; w < width; w++) {
                        ByteArrays.putLongLE(target, write + w * Long.BYTES, words[id * width + w]);
                    }
                    write += lengths[id];
                    offsets[index + i + 1] = write;
                }
                ids.consumeRle(n);
            }
            else {
                int[] idArray = unpackIds(n, size);
                if (width == 1) {
                    for (int i = 0; i < n; i++) {
                        int id = idArray[i];
                        ByteArrays.putLongLE(target, write, words[id]);
                        write += lengths[id];
                        offsets[index + i + 1] = write;
                    }
                }
                else if (width == 2) {
                    for (int i = 0; i < n; i++) {
                        int id = idArray[i];
                        ByteArrays.putLongLE(target, write, words[2 * id]);
                        ByteArrays.putLongLE(target, write + Long.BYTES, words[2 * id + 1]);
                        write += lengths[id];
                        offsets[index + i + 1] = write;
                    }
                }
                else {
                    for (int i = 0; i < n; i++) {
                        int id = idArray[i];
                        for (int w = 0; w < width; w++) {
                            ByteArrays.putLongLE(target, write + w * Long.BYTES, words[id * width + w]);
                        }
                        write += lengths[id];
                        offsets[index + i + 1] = write;
                    }
                }
            }
            index += n;
            out.count = index;
            left -= n;
        }
    }

    /**
     * Unpacks the next {@code n} ids of the current bit-packed run and checks them.
     */
    private int[] unpackIds(int n, int size)
    {
        if (scratch.length < n) {
            scratch = new int[ValueBuffer.grow(scratch.length, n)];
        }
        int[] idArray = scratch;
        ids.read(idArray, 0, n);
        int invalid = 0;
        for (int i = 0; i < n; i++) {
            // negative when an id is negative or at least the size
            invalid |= idArray[i] | (size - 1 - idArray[i]);
        }
        if (invalid < 0) {
            for (int i = 0; i < n; i++) {
                checkId(idArray[i], size);
            }
        }
        return idArray;
    }

    private static int checkId(int id, int size)
    {
        if (Integer.compareUnsigned(id, size) >= 0) {
            throw new CorruptDataException("Dictionary id " + Integer.toUnsignedString(id) + " is outside the dictionary of " + size + " values");
        }
        return id;
    }

    private static int checkedTotal(long total)
    {
        if (total > Integer.MAX_VALUE - 16) {
            throw new CorruptDataException("Decoded binary values exceed 2 GB in one batch");
        }
        return (int) total;
    }

    @Override
    public void skip(int count)
    {
        ids.skip(count);
    }

    /**
     * The values of a binary dictionary of short values as little-endian words, zero-padded:
     * value {@code i} is {@code words[i * wordsPerValue, (i + 1) * wordsPerValue)}.
     */
    static final class ShortValues
    {
        static final int MAX_LENGTH = 32;
        // 128 KB of words: small enough to stay in the cache next to the dictionary itself
        static final int MAX_WORDS = 16 * 1024;

        final int[] lengths;
        final long[] words;
        final int wordsPerValue;
        final int maxLength;

        private ShortValues(int[] lengths, long[] words, int wordsPerValue, int maxLength)
        {
            this.lengths = lengths;
            this.words = words;
            this.wordsPerValue = wordsPerValue;
            this.maxLength = maxLength;
        }

        /**
         * The words of the decoded binary dictionary, or null when a value is longer than
         * {@link #MAX_LENGTH} bytes or the words would exceed {@link #MAX_WORDS}.
         */
        static ShortValues of(ValueBuffer dictionary)
        {
            int count = dictionary.count;
            int[] lengths = new int[count];
            int maxLength = 0;
            for (int i = 0; i < count; i++) {
                lengths[i] = dictionary.offsets[i + 1] - dictionary.offsets[i];
                maxLength = Math.max(maxLength, lengths[i]);
            }
            if (maxLength > MAX_LENGTH) {
                return null;
            }
            int width = Math.max(1, (maxLength + Long.BYTES - 1) / Long.BYTES);
            if ((long) count * width > MAX_WORDS) {
                // a large dictionary (unique values) gains nothing from a second copy of itself
                return null;
            }
            long[] words = new long[count * width];
            for (int i = 0; i < count; i++) {
                int start = dictionary.offsets[i];
                for (int k = 0; k < lengths[i]; k++) {
                    words[i * width + k / Long.BYTES] |= (dictionary.bytes[start + k] & 0xFFL) << (8 * (k % Long.BYTES));
                }
            }
            return new ShortValues(lengths, words, width, maxLength);
        }
    }

    /**
     * The {@link ShortValues} of one binary dictionary, built when a page first needs them.
     */
    static final class Words
    {
        static final int MIN_COUNT = 16;

        private final ValueBuffer dictionary;
        private boolean built;
        private ShortValues shortValues;

        Words(ValueBuffer dictionary)
        {
            this.dictionary = dictionary;
        }

        ShortValues shortValues()
        {
            if (!built) {
                shortValues = ShortValues.of(dictionary);
                built = true;
            }
            return shortValues;
        }
    }
}
