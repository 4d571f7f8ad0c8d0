package io.tarn.vector.io;

import java.io.EOFException;
import java.io.IOException;

import static java.util.Objects.requireNonNull;

/**
 * A file held in memory; the array is not copied and must not change while it is read.
 */
final class MemoryFileInput
        implements DataFileInput
{
    private final String name;
    private final byte[] bytes;

    MemoryFileInput(String name, byte[] bytes)
    {
        this.name = requireNonNull(name, "name is null");
        this.bytes = requireNonNull(bytes, "bytes is null");
    }

    @Override
    public String name()
    {
        return name;
    }

    @Override
    public long length()
    {
        return bytes.length;
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int length)
            throws IOException
    {
        if (position < 0 || length < 0 || position > bytes.length - (long) length) {
            throw new EOFException("Read of " + length + " bytes at " + position + " is outside " + name + " (" + bytes.length + " bytes)");
        }
        System.arraycopy(bytes, (int) position, buffer, offset, length);
    }

    @Override
    public String toString()
    {
        return name;
    }
}
