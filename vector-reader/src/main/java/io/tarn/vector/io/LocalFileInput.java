package io.tarn.vector.io;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static java.util.Objects.requireNonNull;

/**
 * A local file, opened for each read so that the input holds no open handle between reads.
 */
final class LocalFileInput
        implements DataFileInput
{
    private final Path path;

    LocalFileInput(Path path)
    {
        this.path = requireNonNull(path, "path is null");
    }

    @Override
    public String name()
    {
        return path.toString();
    }

    @Override
    public long length()
            throws IOException
    {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            return channel.size();
        }
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int length)
            throws IOException
    {
        if (position < 0 || offset < 0 || length < 0 || offset > buffer.length - length) {
            throw new IOException("Invalid read of " + length + " bytes at " + position + " from " + path);
        }
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            ByteBuffer target = ByteBuffer.wrap(buffer, offset, length);
            long current = position;
            while (target.hasRemaining()) {
                int read = channel.read(target, current);
                if (read < 0) {
                    throw new EOFException("Unexpected end of " + path + " reading " + length + " bytes at " + position);
                }
                current += read;
            }
        }
    }

    @Override
    public String toString()
    {
        return name();
    }
}
