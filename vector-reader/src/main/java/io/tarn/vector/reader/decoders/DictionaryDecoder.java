package io.tarn.vector.reader.decoders;

import io.tarn.vector.CorruptDataException;
import org.apache.parquet.format.Type;

import java.util.Arrays;

/**
 * RLE_DICTIONARY / PLAIN_DICTIONARY data: one byte bit width, then RLE / bit-packed dictionary
 * ids. Run by run: an RLE run of one id becomes a fill of its value, a bit-packed run is unpacked
 * into a small id buffer and gathered from the decoded dictionary.
 * <p>
 * Internal to the vector-reader module: public only for the reader package.
 */
public final class DictionaryDecoder
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

    /**
     * Decodes the ids of all {@code count} values (cheap: bit unpacking) and gathers their
     * values without branching on the selection: the write position advances past selected
     * values only. Long binary values, whose copies cost more, are copied for the selected ids
     * alone.
     */
    @Override
    public void readSelected(ValueBuffer out, int count, long[] selected)
    {
        // every id is checked: the fused gathers look up the values of the others too
        int[] idArray = decodeIds(count);
        switch (type) {
            case BOOLEAN, INT32, FLOAT -> gatherSelectedInts(out, idArray, count, selected);
            case INT64, DOUBLE, INT96 -> gatherSelectedLongs(out, idArray, count, selected);
            case BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY -> {
                ShortValues shortValues = shortValues(count);
                if (shortValues != null) {
                    gatherSelectedShortBinary(out, idArray, count, selected, shortValues);
                }
                else {
                    gatherBinary(out, idArray, SelectionMasks.compact(idArray, 0, count, selected));
                }
            }
        }
    }

    /**
     * Looks up the value of every id but advances past it only when it is selected: no branch
     * on the selection (see SelectionMasks.compact).
     */
    private void gatherSelectedInts(ValueBuffer out, int[] idArray, int count, long[] selected)
    {
        int[] target = out.ints(count);
        int[] values = dictionary.ints;
        int write = out.count;
        for (int first = 0; first < count; first += 64) {
            long word = selected[first >>> 6];
            int n = Math.min(64, count - first);
            for (int i = 0; i < n; i++) {
                target[write] = values[idArray[first + i]];
                write += (int) (word >>> i) & 1;
            }
        }
        out.count = write;
    }

    private void gatherSelectedLongs(ValueBuffer out, int[] idArray, int count, long[] selected)
    {
        long[] target = out.longs(count);
        long[] values = dictionary.longs;
        int write = out.count;
        for (int first = 0; first < count; first += 64) {
            long word = selected[first >>> 6];
            int n = Math.min(64, count - first);
            for (int i = 0; i < n; i++) {
                target[write] = values[idArray[first + i]];
                write += (int) (word >>> i) & 1;
            }
        }
        out.count = write;
    }

    /**
     * {@link #gatherShortBinary} of the selected ids: the words of every value are written, and
     * the next value overwrites those of one not selected.
     */
    private static void gatherSelectedShortBinary(ValueBuffer out, int[] idArray, int count, long[] selected, ShortValues shorts)
    {
        int[] lengths = shorts.lengths;
        long[] words = shorts.words;
        int width = shorts.wordsPerValue;
        int[] offsets = out.offsets(count);
        byte[] target = out.bytes(checkedTotal((long) count * shorts.maxLength + (long) width * Long.BYTES));
        int index = out.count;
        int write = offsets[index];
        for (int first = 0; first < count; first += 64) {
            long word = selected[first >>> 6];
            int n = Math.min(64, count - first);
            for (int i = 0; i < n; i++) {
                int id = idArray[first + i];
                int bit = (int) (word >>> i) & 1;
                if (width == 1) {
                    ByteArrays.putLongLE(target, write, words[id]);
                }
                else {
                    for (int w = 0; w < width; w++) {
                        ByteArrays.putLongLE(target, write + w * Long.BYTES, words[id * width + w]);
                    }
                }
                write += lengths[id] & -bit;
                offsets[index + 1] = write;
                index += bit;
            }
        }
        out.count = index;
    }

    private void readInts(ValueBuffer out, int count)
    {
        int[] values = dictionary.ints;
        int size = dictionary.count;
        int left = count;
        while (left > 0) {
            int n = Math.min(left, ids.runLength());
            if (ids.isRle()) {
                int[] target = out.ints(n);
                int id = checkId(ids.rleValue(), size);
                Arrays.fill(target, out.count, out.count + n, values[id]);
                out.count += n;
                ids.consumeRle(n);
            }
            else {
                gatherInts(out, unpackIds(n, size), n);
            }
            left -= n;
        }
    }

    private void gatherInts(ValueBuffer out, int[] idArray, int n)
    {
        int[] target = out.ints(n);
        int[] values = dictionary.ints;
        int write = out.count;
        for (int i = 0; i < n; i++) {
            target[write + i] = values[idArray[i]];
        }
        out.count = write + n;
    }

    private void readLongs(ValueBuffer out, int count)
    {
        long[] values = dictionary.longs;
        int size = dictionary.count;
        int left = count;
        while (left > 0) {
            int n = Math.min(left, ids.runLength());
            if (ids.isRle()) {
                long[] target = out.longs(n);
                int id = checkId(ids.rleValue(), size);
                Arrays.fill(target, out.count, out.count + n, values[id]);
                out.count += n;
                ids.consumeRle(n);
            }
            else {
                gatherLongs(out, unpackIds(n, size), n);
            }
            left -= n;
        }
    }

    private void gatherLongs(ValueBuffer out, int[] idArray, int n)
    {
        long[] target = out.longs(n);
        long[] values = dictionary.longs;
        int write = out.count;
        for (int i = 0; i < n; i++) {
            target[write + i] = values[idArray[i]];
        }
        out.count = write + n;
    }

    /**
     * The dictionary as words when {@code count} values are worth building them for and its
     * values are short enough; otherwise null.
     */
    private ShortValues shortValues(int count)
    {
        // a few values at a time (sparse selections) are not worth building the words
        return words != null && count >= Words.MIN_COUNT ? words.shortValues() : null;
    }

    private void readBinary(ValueBuffer out, int count)
    {
        ShortValues shortValues = shortValues(count);
        int size = dictionary.count;
        int left = count;
        while (left > 0) {
            int n = Math.min(left, ids.runLength());
            if (ids.isRle()) {
                int id = checkId(ids.rleValue(), size);
                if (shortValues != null) {
                    repeatShortBinary(out, id, n, shortValues);
                }
                else {
                    repeatBinary(out, id, n);
                }
                ids.consumeRle(n);
            }
            else if (shortValues != null) {
                gatherShortBinary(out, unpackIds(n, size), n, shortValues);
            }
            else {
                gatherBinary(out, unpackIds(n, size), n);
            }
            left -= n;
        }
    }

    private void repeatBinary(ValueBuffer out, int id, int n)
    {
        int[] dictionaryOffsets = dictionary.offsets;
        int start = dictionaryOffsets[id];
        int length = dictionaryOffsets[id + 1] - start;
        int[] offsets = out.offsets(n);
        // out.bytes() measures from offsets[count]
        byte[] target = out.bytes(checkedTotal((long) length * n + ByteArrays.COPY_SLACK));
        byte[] source = dictionary.bytes;
        int index = out.count;
        int write = offsets[index];
        for (int i = 0; i < n; i++) {
            ByteArrays.copy(source, start, target, write, length);
            write += length;
            offsets[index + i + 1] = write;
        }
        out.count = index + n;
    }

    private void gatherBinary(ValueBuffer out, int[] idArray, int n)
    {
        gatherBinary(dictionary, out, idArray, n);
    }

    private static void gatherBinary(ValueBuffer dictionary, ValueBuffer out, int[] idArray, int n)
    {
        int[] dictionaryOffsets = dictionary.offsets;
        byte[] source = dictionary.bytes;
        int[] offsets = out.offsets(n);
        long total = 0;
        for (int i = 0; i < n; i++) {
            total += dictionaryOffsets[idArray[i] + 1] - dictionaryOffsets[idArray[i]];
        }
        byte[] target = out.bytes(checkedTotal(total + ByteArrays.COPY_SLACK));
        int index = out.count;
        int write = offsets[index];
        for (int i = 0; i < n; i++) {
            int id = idArray[i];
            int start = dictionaryOffsets[id];
            int length = dictionaryOffsets[id + 1] - start;
            ByteArrays.copy(source, start, target, write, length);
            write += length;
            offsets[index + i + 1] = write;
        }
        out.count = index + n;
    }

    /**
     * Binary values of at most 32 bytes: each is written as whole 8-byte words (the bytes past
     * its length are overwritten by the next value), its length taken from an array.
     */
    private static void repeatShortBinary(ValueBuffer out, int id, int n, ShortValues shorts)
    {
        int[] lengths = shorts.lengths;
        long[] words = shorts.words;
        int width = shorts.wordsPerValue;
        int[] offsets = out.offsets(n);
        // room for n values of the longest length and the whole words of the last one
        byte[] target = out.bytes(checkedTotal((long) n * shorts.maxLength + (long) width * Long.BYTES));
        int index = out.count;
        int write = offsets[index];
        for (int i = 0; i < n; i++) {
            for (int w = 0; w < width; w++) {
                ByteArrays.putLongLE(target, write + w * Long.BYTES, words[id * width + w]);
            }
            write += lengths[id];
            offsets[index + i + 1] = write;
        }
        out.count = index + n;
    }

    private static void gatherShortBinary(ValueBuffer out, int[] idArray, int n, ShortValues shorts)
    {
        int[] lengths = shorts.lengths;
        long[] words = shorts.words;
        int width = shorts.wordsPerValue;
        int[] offsets = out.offsets(n);
        byte[] target = out.bytes(checkedTotal((long) n * shorts.maxLength + (long) width * Long.BYTES));
        int index = out.count;
        int write = offsets[index];
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
        out.count = index + n;
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
        checkIds(idArray, n, size);
        return idArray;
    }

    private static void checkIds(int[] idArray, int n, int size)
    {
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
     * Each id's verdict comes from the dictionary's, computed once: the values are never
     * gathered.
     */
    @Override
    public void match(ValueMatcher matcher, int count, MatchBits out)
    {
        long[] verdicts = matcher.dictionaryVerdicts(dictionary);
        int[] idArray = decodeIds(count);
        long[] bits = out.reserve(count);
        int bit = out.count;
        for (int i = 0; i < count; i++) {
            int id = idArray[i];
            // without a branch: the verdicts of a selective filter are as unpredictable as its rows
            bits[bit >>> 6] |= ((verdicts[id >>> 6] >>> id) & 1L) << bit;
            bit++;
        }
        out.count = bit;
    }

    @Override
    public void matchSelected(ValueMatcher matcher, int count, long[] selected, MatchBits out)
    {
        long[] verdicts = matcher.dictionaryVerdicts(dictionary);
        int[] idArray = decodeIds(count);
        long[] bits = out.reserve(count);
        int bit = out.count;
        for (int i = 0; i < count; i++) {
            if ((selected[i >>> 6] & (1L << i)) != 0) {
                int id = idArray[i];
                bits[bit >>> 6] |= ((verdicts[id >>> 6] >>> id) & 1L) << bit;
                bit++;
            }
        }
        out.count = bit;
    }

    /**
     * {@link #read} of a binary column that also returns the ids of the {@code count} values (in
     * an array reused by the next call).
     */
    public int[] readBinaryWithIds(ValueBuffer out, int count)
    {
        int[] idArray = decodeIds(count);
        gatherIdsBinary(out, idArray, count);
        return idArray;
    }

    /**
     * {@link #readSelected} of a binary column that also returns the ids of the selected values,
     * first in an array reused by the next call.
     */
    public int[] readSelectedBinaryWithIds(ValueBuffer out, int count, long[] selected)
    {
        int[] idArray = decodeIds(count);
        gatherIdsBinary(out, idArray, SelectionMasks.compact(idArray, 0, count, selected));
        return idArray;
    }

    /**
     * The ids of the next {@code count} values of a binary column, whose values are not decoded
     * (in an array reused by the next call).
     */
    public int[] readIds(int count)
    {
        return decodeIds(count);
    }

    /**
     * The ids of the values that {@code selected} selects of the next {@code count}, first in an
     * array reused by the next call; the values are not decoded.
     */
    public int[] readSelectedIds(int count, long[] selected)
    {
        int[] idArray = decodeIds(count);
        SelectionMasks.compact(idArray, 0, count, selected);
        return idArray;
    }

    /**
     * Appends to {@code out} the values of binary {@code dictionary} that the first {@code n} of
     * {@code ids} name; the ids were checked when they were decoded.
     */
    public static void appendValues(ValueBuffer dictionary, int[] ids, int n, ValueBuffer out)
    {
        gatherBinary(dictionary, out, ids, n);
    }

    // the values of decoded ids, by whole words where the dictionary's values are short (the flag
    // columns of a TPC-H Q1 spent a tenth of its scan in the byte-wise gather)
    private void gatherIdsBinary(ValueBuffer out, int[] idArray, int n)
    {
        ShortValues shortValues = shortValues(n);
        if (shortValues != null) {
            gatherShortBinary(out, idArray, n, shortValues);
        }
        else {
            gatherBinary(out, idArray, n);
        }
    }

    private int[] decodeIds(int count)
    {
        if (scratch.length < count) {
            scratch = new int[ValueBuffer.grow(scratch.length, count)];
        }
        ids.read(scratch, 0, count);
        checkIds(scratch, count, dictionary.count);
        return scratch;
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
    public static final class Words
    {
        static final int MIN_COUNT = 16;

        private final ValueBuffer dictionary;
        private boolean built;
        private ShortValues shortValues;

        public Words(ValueBuffer dictionary)
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
