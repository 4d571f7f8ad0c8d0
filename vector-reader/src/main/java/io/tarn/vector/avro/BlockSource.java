package io.tarn.vector.avro;

import io.tarn.vector.DataFileCorruptionException;
import io.tarn.vector.io.DataFileInput;

import java.io.IOException;
import java.util.function.IntPredicate;

import static java.util.Objects.requireNonNull;

/**
 * The (compressed) bytes of a file's blocks, read in runs: loading a block also loads the
 * blocks after it that the read will want, up to about {@link AvroFile#readBytes()} in one read,
 * so a file of small blocks is read in few requests. A file kept whole in memory
 * ({@link AvroFile#contents()}) is not read again.
 */
final class BlockSource
{
    private final DataFileInput input;
    private final AvroFile file;
    private byte[] buffer = new byte[0];
    // the loaded run: blocks [first, last] at file offsets [start, start + length)
    private int first = -1;
    private int last = -1;
    private long start;
    private long bytesRead;

    BlockSource(DataFileInput input, AvroFile file)
    {
        this.input = requireNonNull(input, "input is null");
        this.file = requireNonNull(file, "file is null");
    }

    /**
     * Makes {@code block}'s bytes available at {@link #offset(int)} of {@link #buffer()}, and
     * checks the sync marker after them; {@code wanted} tells which later blocks the read will
     * load, which may be read along.
     */
    void load(int block, IntPredicate wanted)
            throws IOException
    {
        if (block < first || block > last) {
            if (file.contents().isPresent()) {
                buffer = file.contents().get();
                first = 0;
                last = file.blockCount() - 1;
                start = 0;
            }
            else {
                int end = block;
                while (end + 1 < file.blockCount() && wanted.test(end + 1) && runEnd(end + 1) - file.blockStart(block) <= file.readBytes()) {
                    end++;
                }
                long length = runEnd(end) - file.blockStart(block);
                if (buffer.length < length) {
                    buffer = new byte[(int) length];
                }
                input.readFully(file.blockStart(block), buffer, 0, (int) length);
                bytesRead += length;
                first = block;
                last = end;
                start = file.blockStart(block);
            }
        }
        if (!file.isSync(buffer, offset(block) + file.blockSize(block))) {
            throw new DataFileCorruptionException("File " + file.name() + " has an Avro block at offset " + file.blockStart(block) + " not followed by the sync marker");
        }
    }

    private long runEnd(int block)
    {
        return file.blockStart(block) + file.blockSize(block) + AvroFile.syncBytes();
    }

    byte[] buffer()
    {
        return buffer;
    }

    /**
     * Where in {@link #buffer()} the loaded block {@code block} starts.
     */
    int offset(int block)
    {
        return (int) (file.blockStart(block) - start);
    }

    long bytesRead()
    {
        return bytesRead;
    }

    long retainedBytes()
    {
        return file.contents().isPresent() ? 0 : buffer.length;
    }
}
