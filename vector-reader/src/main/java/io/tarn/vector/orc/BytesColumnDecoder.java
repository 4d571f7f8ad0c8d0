package io.tarn.vector.orc;

import io.tarn.vector.CorruptDataException;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;

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

    // CHAR(n): n, else 0
    private final int charLength;
    private IntegerDecoder lengths;
    private DecompressedStream data;
    private IntegerDecoder ids;
    private byte[] dictionary;
    private int[] dictionaryOffsets;
    private int dictionarySize;
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
        dictionary = blob == null ? new byte[0] : blob.readAll(MAX_DICTIONARY_BYTES);
        // the entries are distinct, so at most one is empty: more than that are not a dictionary
        if (size > dictionary.length + 1L) {
            throw new CorruptDataException("Column " + name + " has a dictionary of " + size + " entries in " + dictionary.length + " bytes");
        }
        dictionarySize = (int) size;
        dictionaryOffsets = new int[dictionarySize + 1];
        long end = 0;
        for (int i = 0; i < dictionarySize; i++) {
            end += lengths.next();
            if (end < 0 || end > dictionary.length) {
                throw new CorruptDataException("Column " + name + " dictionary entries run past its " + dictionary.length + " bytes");
            }
            dictionaryOffsets[i + 1] = (int) end;
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
            ids.next(scratch, 0, count);
            for (int i = 0; i < count; i++) {
                long id = scratch[i];
                if (id < 0 || id >= dictionarySize) {
                    throw new CorruptDataException("Column " + name + " refers to dictionary entry " + id + " of " + dictionarySize);
                }
                int start = dictionaryOffsets[(int) id];
                append(dictionary, start, dictionaryOffsets[(int) id + 1] - start, values + i);
            }
            return;
        }
        lengths.next(scratch, 0, count);
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
