package io.tarn.vector.orc;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * The bytes of one ORC stream (or metadata section) of a stripe being written. Without
 * compression they are kept as written. With compression they are cut into chunks of at most the
 * compression block size, each stored behind a 3-byte little-endian header
 * {@code length << 1 | original}: compressed, or as it is (original) when compressing does not
 * make it smaller.
 * <p>
 * A position in the stream, as a row index records it, is the byte offset without compression;
 * with compression, the offset of the chunk holding it and the offset inside the uncompressed
 * chunk.
 */
final class OrcOutputBuffer
{
    private static final int INITIAL_CHUNK = 1024;

    // null without compression
    private final ChunkCompressor compressor;
    private final ByteArrayOutputStream stored = new ByteArrayOutputStream();
    private final int blockSize;
    // grows up to the block size, so that a column with few values holds little memory
    private byte[] chunk = new byte[0];
    private int chunkSize;

    OrcOutputBuffer(ChunkCompressor compressor, int blockSize)
    {
        this.compressor = compressor;
        this.blockSize = blockSize;
    }

    void write(int value)
    {
        if (compressor == null) {
            stored.write(value);
            return;
        }
        if (chunkSize == chunk.length) {
            makeRoom();
        }
        chunk[chunkSize++] = (byte) value;
    }

    void write(byte[] values, int offset, int length)
    {
        if (compressor == null) {
            stored.write(values, offset, length);
            return;
        }
        while (length > 0) {
            if (chunkSize == chunk.length) {
                makeRoom();
            }
            int part = Math.min(length, chunk.length - chunkSize);
            System.arraycopy(values, offset, chunk, chunkSize, part);
            chunkSize += part;
            offset += part;
            length -= part;
        }
    }

    void recordPosition(PositionList positions)
    {
        positions.add(stored.size());
        if (compressor != null) {
            positions.add(chunkSize);
        }
    }

    /**
     * The number of positions {@link #recordPosition} adds.
     */
    int positionCount()
    {
        return compressor == null ? 1 : 2;
    }

    /**
     * The bytes held so far, stored and still to be compressed.
     */
    long size()
    {
        return stored.size() + chunkSize;
    }

    /**
     * Stores the last, partial chunk; call before {@link #storedSize()} and
     * {@link #writeTo(OutputStream)}.
     */
    void finish()
    {
        if (chunkSize > 0) {
            flushChunk();
        }
    }

    long storedSize()
    {
        return stored.size();
    }

    void writeTo(OutputStream out)
            throws IOException
    {
        stored.writeTo(out);
    }

    byte[] toByteArray()
    {
        finish();
        return stored.toByteArray();
    }

    void reset()
    {
        stored.reset();
        chunkSize = 0;
    }

    private void makeRoom()
    {
        if (chunk.length < blockSize) {
            chunk = Arrays.copyOf(chunk, Math.min(blockSize, Math.max(INITIAL_CHUNK, chunk.length * 2)));
        }
        else {
            flushChunk();
        }
    }

    private void flushChunk()
    {
        int compressed = compressor.compress(chunk, 0, chunkSize);
        if (compressed < 0) {
            header(chunkSize, true);
            stored.write(chunk, 0, chunkSize);
        }
        else {
            header(compressed, false);
            stored.write(compressor.output(), 0, compressed);
        }
        chunkSize = 0;
    }

    private void header(int length, boolean original)
    {
        int header = length << 1 | (original ? 1 : 0);
        stored.write(header);
        stored.write(header >>> 8);
        stored.write(header >>> 16);
    }

    /**
     * Positions of one row index entry, as they are recorded.
     */
    static final class PositionList
    {
        private long[] values = new long[8];
        private int size;

        void add(long value)
        {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = value;
        }

        int size()
        {
            return size;
        }

        long[] values()
        {
            return values;
        }

        /**
         * Drops {@code count} positions starting at {@code from} (those of a stream left out).
         */
        void remove(int from, int count)
        {
            System.arraycopy(values, from + count, values, from, size - from - count);
            size -= count;
        }
    }
}
