package io.tarn.vector.avro;

import io.tarn.vector.io.DataFileInput;

import java.io.IOException;

import static java.util.Objects.requireNonNull;

/**
 * A window of a file read in large pieces, for parsing the many small structures spread through
 * an Avro file (the header, then every block's count and size and its sync marker): each read
 * fetches at least {@code windowSize} bytes, so that on an object store a file of small blocks
 * costs one request per window, not several per block, while the headers of blocks larger than
 * the window cost one read each.
 */
final class FileWindow
{
    private final DataFileInput input;
    private final long fileLength;
    private final int windowSize;
    private byte[] bytes = new byte[0];
    private long start;
    private int length;
    private long bytesRead;

    FileWindow(DataFileInput input, long fileLength, int windowSize)
    {
        this.input = requireNonNull(input, "input is null");
        this.fileLength = fileLength;
        this.windowSize = windowSize;
    }

    /**
     * Makes the window hold {@code [position, position + count)}, which must lie inside the file,
     * reading from {@code position} on when it does not already.
     */
    void ensure(long position, int count)
            throws IOException
    {
        if (position < 0 || count < 0 || position > fileLength - count) {
            throw new IllegalArgumentException("Range " + position + "+" + count + " outside a file of " + fileLength + " bytes");
        }
        if (position >= start && position + count <= start + length) {
            return;
        }
        int size = (int) Math.min(Math.max(count, windowSize), fileLength - position);
        if (bytes.length < size) {
            bytes = new byte[size];
        }
        input.readFully(position, bytes, 0, size);
        bytesRead += size;
        start = position;
        length = size;
    }

    /**
     * Points {@code cursor} at {@code position}, with the rest of the window as its limit.
     */
    void point(AvroInput cursor, long position)
    {
        if (position < start || position > start + length) {
            throw new IllegalArgumentException("Position " + position + " outside the window [" + start + ", " + (start + length) + ")");
        }
        int offset = (int) (position - start);
        cursor.reset(bytes, offset, length - offset);
    }

    /**
     * The file offset of {@code cursor}'s position, for a cursor {@link #point pointed} here.
     */
    long offsetOf(AvroInput cursor)
    {
        return start + cursor.position();
    }

    byte[] bytes()
    {
        return bytes;
    }

    long start()
    {
        return start;
    }

    int length()
    {
        return length;
    }

    long bytesRead()
    {
        return bytesRead;
    }
}
