package io.tarn.vector.orc;

import io.tarn.vector.CorruptDataException;

import java.util.Arrays;

/**
 * The bytes of one ORC stream (or metadata section), decompressed a chunk at a time as they are
 * read. Without compression the stream is its stored bytes. With compression it is a sequence of
 * chunks, each a 3-byte little-endian header {@code length * 2 + isOriginal} followed by
 * {@code length} bytes, either stored as they are (original) or compressed, and never more than
 * the compression block size once decompressed.
 * <p>
 * Reading past the end of the stream is corrupt. The stored bytes are not copied and must not
 * change while the stream is read.
 */
final class DecompressedStream
{
    private final String name;
    private final byte[] stored;
    private final int start;
    private final int end;
    // null without compression
    private final OrcCodec codec;
    private final int blockSize;
    // where the next chunk header starts in stored
    private int nextChunk;
    // the current chunk's bytes: a decompressed copy, or stored itself
    private byte[] buffer;
    private int position;
    private int limit;
    private byte[] decompressed;
    // the chunk in buffer: where its header starts in stored (-1 for none), where its bytes start
    // in buffer, and where the chunk after it starts; a seek into it needs no second decompression
    private int loadedChunk = -1;
    private int loadedBase;
    private int loadedLimit;
    private byte[] loadedBuffer;
    private int loadedNextChunk;

    /**
     * The stream {@code name} (for messages) stored in {@code stored[offset, offset + length)}.
     */
    DecompressedStream(String name, byte[] stored, int offset, int length, OrcCodec codec, int blockSize)
    {
        if (offset < 0 || length < 0 || offset > stored.length - length) {
            throw new CorruptDataException("Stream " + name + " of " + length + " bytes at " + offset + " is outside its buffer");
        }
        this.name = name;
        this.stored = stored;
        this.start = offset;
        this.end = offset + length;
        this.codec = codec;
        this.blockSize = blockSize;
        this.nextChunk = offset;
        if (codec == null) {
            buffer = stored;
            position = offset;
            limit = end;
            nextChunk = end;
        }
        else {
            buffer = stored;
            position = offset;
            limit = offset;
        }
    }

    String name()
    {
        return name;
    }

    boolean isCompressed()
    {
        return codec != null;
    }

    /**
     * Whether every byte of the stream has been read.
     */
    boolean atEnd()
    {
        return position == limit && !loadChunk();
    }

    int readByte()
    {
        if (position == limit) {
            nextChunk();
        }
        return buffer[position++] & 0xFF;
    }

    /**
     * How many bytes can be read from {@link #chunk()} at {@link #chunkPosition()} before the
     * current chunk ends, loading the next chunk when the current one is used up: 0 only at the
     * end of the stream. Bulk decoders read the chunk's array directly and then
     * {@link #advance} past what they read.
     */
    int contiguous()
    {
        if (position == limit && !loadChunk()) {
            return 0;
        }
        return limit - position;
    }

    /**
     * The array holding the current chunk's bytes, valid at [{@link #chunkPosition()},
     * {@link #chunkPosition()} + {@link #contiguous()}); it changes when the next chunk loads.
     */
    byte[] chunk()
    {
        return buffer;
    }

    int chunkPosition()
    {
        return position;
    }

    /**
     * Moves past {@code bytes} bytes of the current chunk, read from {@link #chunk()}.
     */
    void advance(int bytes)
    {
        if (bytes < 0 || bytes > limit - position) {
            throw new IllegalStateException("Cannot advance " + bytes + " bytes in a chunk with " + (limit - position) + " left");
        }
        position += bytes;
    }

    /**
     * Reads an unsigned varint of at most ten bytes (the bits past 64 are dropped, as in ORC's
     * reader); a longer one is corrupt.
     */
    long readVarint()
    {
        if (limit - position >= 10) {
            // the whole varint is in the chunk: no chunk check per byte
            byte[] bytes = buffer;
            int at = position;
            long result = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                int b = bytes[at++];
                result |= (long) (b & 0x7F) << shift;
                if (b >= 0) {
                    position = at;
                    return result;
                }
            }
            throw new CorruptDataException("Varint longer than ten bytes in stream " + name);
        }
        long result = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = readByte();
            result |= (long) (b & 0x7F) << shift;
            if (b < 0x80) {
                return result;
            }
        }
        throw new CorruptDataException("Varint longer than ten bytes in stream " + name);
    }

    void readFully(byte[] target, int offset, int length)
    {
        while (length > 0) {
            if (position == limit) {
                nextChunk();
            }
            int count = Math.min(length, limit - position);
            System.arraycopy(buffer, position, target, offset, count);
            position += count;
            offset += count;
            length -= count;
        }
    }

    void skip(long bytes)
    {
        while (bytes > 0) {
            if (position == limit) {
                nextChunk();
            }
            int count = (int) Math.min(bytes, limit - position);
            position += count;
            bytes -= count;
        }
    }

    /**
     * Moves to a position a row index recorded: the chunk starting {@code chunkOffset} bytes into
     * the stored stream (0 without compression, which counts {@code offset} from the start), then
     * {@code offset} bytes into its decompressed bytes.
     */
    void seek(long chunkOffset, long offset)
    {
        if (codec == null) {
            if (chunkOffset != 0 || offset < 0 || offset > end - start) {
                throw new CorruptDataException("Stream " + name + " has no position " + offset + " (" + (end - start) + " bytes)");
            }
            position = start + (int) offset;
            return;
        }
        if (chunkOffset < 0 || chunkOffset > end - start) {
            throw new CorruptDataException("Stream " + name + " has no chunk at " + chunkOffset + " (" + (end - start) + " bytes)");
        }
        int target = start + (int) chunkOffset;
        if (target == loadedChunk) {
            // a row index points into the chunk already decompressed: each row group of a narrow
            // column lies in the same chunk as the one before, and decompressing it again per
            // seek made a selective read cost more than reading everything
            if (offset < 0 || offset > loadedLimit - loadedBase) {
                throw new CorruptDataException("Stream " + name + " chunk at " + chunkOffset + " has no position " + offset + " (" + (loadedLimit - loadedBase) + " bytes)");
            }
            buffer = loadedBuffer;
            position = loadedBase + (int) offset;
            limit = loadedLimit;
            nextChunk = loadedNextChunk;
            return;
        }
        nextChunk = target;
        position = 0;
        limit = 0;
        buffer = stored;
        if (nextChunk == end) {
            if (offset != 0) {
                throw new CorruptDataException("Stream " + name + " has no position " + offset + " after its last chunk");
            }
            return;
        }
        nextChunk();
        if (offset < 0 || offset > limit - position) {
            throw new CorruptDataException("Stream " + name + " chunk at " + chunkOffset + " has no position " + offset + " (" + (limit - position) + " bytes)");
        }
        position += (int) offset;
    }

    private void nextChunk()
    {
        if (!loadChunk()) {
            throw new CorruptDataException("Stream " + name + " ends before its values do");
        }
    }

    /**
     * Loads the next chunk that holds bytes, skipping empty ones; false at the end of the stream.
     */
    private boolean loadChunk()
    {
        while (nextChunk < end) {
            if (end - nextChunk < 3) {
                throw new CorruptDataException("Stream " + name + " ends inside a compression chunk header");
            }
            int chunk = nextChunk;
            int header = (stored[nextChunk] & 0xFF) | (stored[nextChunk + 1] & 0xFF) << 8 | (stored[nextChunk + 2] & 0xFF) << 16;
            int length = header >>> 1;
            boolean original = (header & 1) != 0;
            int body = nextChunk + 3;
            if (length > end - body) {
                throw new CorruptDataException("Stream " + name + " has a compression chunk of " + length + " bytes, but only " + (end - body) + " remain");
            }
            nextChunk = body + length;
            if (original) {
                if (length > blockSize) {
                    throw new CorruptDataException("Stream " + name + " has an uncompressed chunk of " + length + " bytes, more than the compression block size " + blockSize);
                }
                buffer = stored;
                position = body;
                limit = body + length;
            }
            else {
                if (decompressed == null) {
                    decompressed = new byte[blockSize];
                }
                int produced = codec.decompress(stored, body, length, decompressed, blockSize);
                buffer = decompressed;
                position = 0;
                limit = produced;
            }
            if (position < limit) {
                loadedChunk = chunk;
                loadedBase = position;
                loadedLimit = limit;
                loadedBuffer = buffer;
                loadedNextChunk = nextChunk;
                return true;
            }
        }
        return false;
    }

    /**
     * All the stream's bytes decompressed, for metadata sections: at most {@code maxLength}
     * bytes, more is corrupt.
     */
    byte[] readAll(int maxLength)
    {
        if (codec == null) {
            if (end - position > maxLength) {
                throw new CorruptDataException("Section " + name + " exceeds " + maxLength + " bytes");
            }
            byte[] result = new byte[end - position];
            System.arraycopy(stored, position, result, 0, result.length);
            position = end;
            return result;
        }
        byte[] result = new byte[Math.min(maxLength, Math.max(16, 2 * (end - start)))];
        int size = 0;
        while (!atEnd()) {
            int count = limit - position;
            if (count > maxLength - size) {
                throw new CorruptDataException("Section " + name + " decompresses to more than " + maxLength + " bytes");
            }
            if (size + count > result.length) {
                result = Arrays.copyOf(result, (int) Math.min(maxLength, Math.max((long) size + count, 2L * result.length)));
            }
            System.arraycopy(buffer, position, result, size, count);
            size += count;
            position = limit;
        }
        return Arrays.copyOf(result, size);
    }
}
