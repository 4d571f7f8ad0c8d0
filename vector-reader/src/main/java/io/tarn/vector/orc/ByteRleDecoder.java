package io.tarn.vector.orc;

import io.tarn.vector.CorruptDataException;

import java.util.Arrays;

/**
 * ORC's byte run-length encoding: groups that start with a control byte, either 0..127 for a run
 * of {@code control + 3} copies of the next byte, or -128..-1 for {@code -control} literal bytes.
 */
final class ByteRleDecoder
{
    private final DecompressedStream input;
    private final byte[] literals = new byte[128];
    private boolean repeat;
    private byte repeated;
    private int size;
    private int used;

    ByteRleDecoder(DecompressedStream input)
    {
        this.input = input;
    }

    byte next()
    {
        if (used == size) {
            readGroup();
        }
        used++;
        return repeat ? repeated : literals[used - 1];
    }

    void next(byte[] values, int offset, int count)
    {
        while (count > 0) {
            if (used == size) {
                readGroup();
            }
            int n = Math.min(count, size - used);
            if (repeat) {
                Arrays.fill(values, offset, offset + n, repeated);
            }
            else {
                System.arraycopy(literals, used, values, offset, n);
            }
            used += n;
            offset += n;
            count -= n;
        }
    }

    void skip(long count)
    {
        while (count > 0) {
            if (used == size) {
                readGroup();
            }
            int n = (int) Math.min(count, size - used);
            used += n;
            count -= n;
        }
    }

    /**
     * Skips {@code count} bytes and returns how many bits were set in them, for skipping over
     * booleans packed into the bytes.
     */
    long skipCountingBits(long count)
    {
        long bits = 0;
        while (count > 0) {
            if (used == size) {
                readGroup();
            }
            int n = (int) Math.min(count, size - used);
            if (repeat) {
                bits += (long) n * Integer.bitCount(repeated & 0xFF);
            }
            else {
                for (int i = used; i < used + n; i++) {
                    bits += Integer.bitCount(literals[i] & 0xFF);
                }
            }
            used += n;
            count -= n;
        }
        return bits;
    }

    /**
     * Moves to a row index position: the stream's position (one or two numbers, taken by
     * {@code positions}), then the number of values to skip in the group found there.
     */
    void seek(PositionCursor positions)
    {
        positions.seek(input);
        size = 0;
        used = 0;
        long consumed = positions.next();
        if (consumed < 0) {
            throw new CorruptDataException("Row index position " + consumed + " in stream " + input.name());
        }
        // the writer may have emitted the values pending at the position as several runs
        while (consumed > 0) {
            readGroup();
            if (consumed <= size) {
                used = (int) consumed;
                break;
            }
            consumed -= size;
        }
    }

    private void readGroup()
    {
        int control = input.readByte();
        used = 0;
        if (control < 0x80) {
            repeat = true;
            size = control + 3;
            repeated = (byte) input.readByte();
        }
        else {
            repeat = false;
            size = 0x100 - control;
            input.readFully(literals, 0, size);
        }
    }
}
