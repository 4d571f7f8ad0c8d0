package io.tarn.vector.orc;

import io.tarn.vector.CorruptDataException;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * STRING, VARCHAR, CHAR and BINARY columns. Direct encodings keep the values' bytes back to back
 * in DATA and their lengths in LENGTH; dictionary encodings keep the distinct values in
 * DICTIONARY_DATA with their lengths in LENGTH, and a dictionary id per value in DATA. The
 * dictionary of a stripe is read whole when the stripe starts.
 * <p>
 * CHAR(n) values come out as ORC's reader gives them, which is what Paimon's ORC reader returns:
 * ORC's writer pads them with spaces to n characters, and its reader truncates them to n
 * characters and drops trailing spaces.
 */
final class BytesColumnDecoder
        extends ColumnDecoder
{
    // the most bytes a stripe's dictionary may hold
    private static final int MAX_DICTIONARY_BYTES = 1 << 30;
    private static final int WORD = 8;
    // the most bytes a piece of dictionary values reserves ahead of copying them
    private static final long MAX_RESERVED_BYTES = 1 << 24;
    private static final VarHandle WORDS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());

    // CHAR(n): n, else 0
    private final int charLength;
    private IntegerDecoder lengths;
    private DecompressedStream data;
    private IntegerDecoder ids;
    private byte[] dictionary;
    private int[] dictionaryOffsets;
    private int dictionarySize;
    private int longestEntry;
    // with entries of at most 8 bytes: each entry's bytes as a word, and its length; else null
    private long[] entryWords;
    private int[] entryLengths;
    private long[] scratch = new long[1024];
    private byte[] bytes = new byte[0];
    private int[] offsets = new int[1];

    BytesColumnDecoder(int column, String name, int charLength)
    {
        super(column, name);
        this.charLength = charLength;
    }

    @Override
    void startValues(StripeStreams stripe)
    {
        StripeFooter.Encoding encoding = stripe.encoding(column);
        boolean v2 = encoding.kind().isV2();
        lengths = IntegerDecoder.create(stripe.requiredStream(column, StripeFooter.Stream.LENGTH), false, v2);
        if (encoding.kind().isDictionary()) {
            data = null;
            ids = IntegerDecoder.create(stripe.requiredStream(column, StripeFooter.Stream.DATA), false, v2);
            readDictionary(stripe, encoding.dictionarySize());
        }
        else {
            ids = null;
            dictionary = null;
            data = stripe.requiredStream(column, StripeFooter.Stream.DATA);
        }
    }

    private void readDictionary(StripeStreams stripe, long size)
    {
        DecompressedStream blob = stripe.stream(column, StripeFooter.Stream.DICTIONARY_DATA);
        byte[] stored = blob == null ? new byte[0] : blob.readAll(MAX_DICTIONARY_BYTES);
        int dictionaryBytes = stored.length;
        // padded for the copies of a word at a time
        dictionary = Arrays.copyOf(stored, dictionaryBytes + WORD);
        // the entries are distinct, so at most one is empty: more than that are not a dictionary
        if (size > dictionaryBytes + 1L) {
            throw new CorruptDataException("Column " + name + " has a dictionary of " + size + " entries in " + dictionaryBytes + " bytes");
        }
        dictionarySize = (int) size;
        dictionaryOffsets = new int[dictionarySize + 1];
        longestEntry = 0;
        long end = 0;
        for (int i = 0; i < dictionarySize; i++) {
            end += lengths.next();
            if (end < 0 || end > dictionaryBytes) {
                throw new CorruptDataException("Column " + name + " dictionary entries run past its " + dictionaryBytes + " bytes");
            }
            dictionaryOffsets[i + 1] = (int) end;
            longestEntry = Math.max(longestEntry, dictionaryOffsets[i + 1] - dictionaryOffsets[i]);
        }
        entryWords = null;
        entryLengths = null;
        if (longestEntry <= WORD) {
            // every entry fits a word: a value is copied as the one word kept for its entry
            entryWords = new long[dictionarySize];
            entryLengths = new int[dictionarySize];
            for (int i = 0; i < dictionarySize; i++) {
                entryWords[i] = (long) WORDS.get(dictionary, dictionaryOffsets[i]);
                entryLengths[i] = dictionaryOffsets[i + 1] - dictionaryOffsets[i];
            }
        }
    }

    @Override
    void clearValues()
    {
        offsets[0] = 0;
    }

    @Override
    void readValues(int count)
    {
        if (offsets.length < values + count + 1) {
            offsets = Arrays.copyOf(offsets, grow(offsets.length, values + count + 1));
        }
        if (scratch.length < count) {
            scratch = new long[grow(scratch.length, count)];
        }
        if (ids != null) {
            readDictionaryValues(count);
            return;
        }
        lengths.next(scratch, 0, count);
        // the values' bytes lie back to back in DATA: their offsets first, then one read of them all
        long end = offsets[values];
        boolean bulk = charLength == 0;
        for (int i = 0; i < count && bulk; i++) {
            long length = scratch[i];
            end += length;
            // a broken length (or a batch past 2 GB) is left to the value-by-value path to report
            bulk = length >= 0 && length <= Integer.MAX_VALUE - 16 && end <= Integer.MAX_VALUE - 16;
            offsets[values + i + 1] = (int) end;
        }
        if (bulk) {
            readData(offsets[values], end - offsets[values]);
            return;
        }
        for (int i = 0; i < count; i++) {
            long length = scratch[i];
            if (length < 0 || length > Integer.MAX_VALUE - 16) {
                throw new CorruptDataException("Column " + name + " has a value of " + length + " bytes");
            }
            int position = offsets[values + i];
            readData(position, length);
            offsets[values + i + 1] = position + (charLength > 0 ? trimmedLength(bytes, position, (int) length) : (int) length);
        }
    }

    private void readDictionaryValues(int count)
    {
        ids.next(scratch, 0, count);
        if (charLength > 0) {
            for (int i = 0; i < count; i++) {
                int id = dictionaryId(scratch[i]);
                append(dictionary, dictionaryOffsets[id], dictionaryOffsets[id + 1] - dictionaryOffsets[id], values + i);
            }
            return;
        }
        long first = offsets[values];
        if ((long) count * longestEntry > MAX_RESERVED_BYTES) {
            // long entries: room for the longest per value would waste memory, so the values are
            // appended one by one (and a batch past 2 GB fails when it gets there)
            for (int i = 0; i < count; i++) {
                int id = dictionaryId(scratch[i]);
                append(dictionary, dictionaryOffsets[id], dictionaryOffsets[id + 1] - dictionaryOffsets[id], values + i);
            }
            return;
        }
        // entries are copied 8 bytes at a time: the dictionary has 8 bytes of padding, the batch's
        // bytes room for 8 more, and what a copy writes past its value the next one overwrites
        ensureBytes(first + (long) count * longestEntry + WORD);
        byte[] target = bytes;
        byte[] source = dictionary;
        int[] entryOffsets = dictionaryOffsets;
        int position = (int) first;
        if (entryWords != null) {
            long[] words = entryWords;
            int[] entryBytes = entryLengths;
            for (int i = 0; i < count; i++) {
                long id = scratch[i];
                if (id < 0 || id >= dictionarySize) {
                    throw new CorruptDataException("Column " + name + " refers to dictionary entry " + id + " of " + dictionarySize);
                }
                WORDS.set(target, position, words[(int) id]);
                position += entryBytes[(int) id];
                offsets[values + i + 1] = position;
            }
            return;
        }
        for (int i = 0; i < count; i++) {
            long id = scratch[i];
            if (id < 0 || id >= dictionarySize) {
                throw new CorruptDataException("Column " + name + " refers to dictionary entry " + id + " of " + dictionarySize);
            }
            int start = entryOffsets[(int) id];
            int length = entryOffsets[(int) id + 1] - start;
            WORDS.set(target, position, (long) WORDS.get(source, start));
            for (int k = WORD; k < length; k += WORD) {
                WORDS.set(target, position + k, (long) WORDS.get(source, start + k));
            }
            position += length;
            offsets[values + i + 1] = position;
        }
    }

    private int dictionaryId(long id)
    {
        if (id < 0 || id >= dictionarySize) {
            throw new CorruptDataException("Column " + name + " refers to dictionary entry " + id + " of " + dictionarySize);
        }
        return (int) id;
    }

    /**
     * Reads {@code length} bytes of DATA to {@code bytes[position...]}, growing the array only as
     * the bytes arrive: a broken length cannot allocate ahead of the stream.
     */
    private void readData(int position, long length)
    {
        long done = 0;
        while (done < length) {
            int piece = (int) Math.min(length - done, 1 << 20);
            ensureBytes(position + done + piece);
            data.readFully(bytes, (int) (position + done), piece);
            done += piece;
        }
    }

    private void append(byte[] source, int start, int length, int index)
    {
        int position = offsets[index];
        int kept = charLength > 0 ? trimmedLength(source, start, length) : length;
        ensureBytes((long) position + kept);
        System.arraycopy(source, start, bytes, position, kept);
        offsets[index + 1] = position + kept;
    }

    private void ensureBytes(long needed)
    {
        if (needed > Integer.MAX_VALUE - 16) {
            throw new OrcLimitException("Column " + name + " holds more than 2 GB in one batch");
        }
        if (bytes.length < needed) {
            bytes = Arrays.copyOf(bytes, grow(bytes.length, (int) needed));
        }
    }

    /**
     * The bytes of a CHAR value that ORC's reader keeps: the first {@code charLength}
     * characters, without the spaces that end them.
     */
    private int trimmedLength(byte[] value, int start, int length)
    {
        int end = start + length;
        int position = start;
        int characters = 0;
        int keep = 0;
        while (position < end && characters < charLength) {
            int b = value[position] & 0xFF;
            int width = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
            position = Math.min(end, position + width);
            characters++;
            if (b != ' ') {
                keep = position - start;
            }
        }
        return keep;
    }

    @Override
    void skipValues(long count)
    {
        if (ids != null) {
            ids.skip(count);
            return;
        }
        long total = 0;
        while (count > 0) {
            int n = (int) Math.min(count, scratch.length);
            lengths.next(scratch, 0, n);
            for (int i = 0; i < n; i++) {
                if (scratch[i] < 0) {
                    throw new CorruptDataException("Column " + name + " has a value of " + Long.toUnsignedString(scratch[i]) + " bytes");
                }
                total = Math.addExact(total, scratch[i]);
            }
            count -= n;
        }
        data.skip(total);
    }

    @Override
    void seekValues(PositionCursor positions, RowIndexes indexes, int group)
    {
        if (ids != null) {
            ids.seek(positions);
            return;
        }
        positions.seek(data);
        lengths.seek(positions);
    }

    @Override
    long batchBytes()
    {
        return offsets[values] + 4L * values + entries;
    }

    @Override
    void write(FieldVector vector, int slots, int[] slotOfEntry)
    {
        TextWrites.write((BaseVariableWidthVector) vector, slots, slotOfEntry, entries, presence, bytes, offsets, values);
    }
}
