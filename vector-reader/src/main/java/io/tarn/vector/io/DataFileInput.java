package io.tarn.vector.io;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Random-access bytes of one data file. Implementations must be safe to call from the one
 * thread that owns the reader; they need not be thread safe.
 */
public interface DataFileInput
{
    /**
     * The file name used in error messages.
     */
    String name();

    long length()
            throws IOException;

    /**
     * Reads exactly {@code length} bytes starting at {@code position}; fails with an
     * {@link IOException} when the range is not inside the file.
     */
    void readFully(long position, byte[] buffer, int offset, int length)
            throws IOException;

    static DataFileInput of(Path path)
    {
        return new LocalFileInput(path);
    }

    static DataFileInput of(String name, byte[] bytes)
    {
        return new MemoryFileInput(name, bytes);
    }
}
