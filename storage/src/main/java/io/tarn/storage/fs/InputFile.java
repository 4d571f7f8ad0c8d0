package io.tarn.storage.fs;

import java.io.IOException;
import java.io.InputStream;

/**
 * A readable file. Creating one does not touch the storage; each method that does throws
 * {@link io.tarn.storage.MissingFileException} naming the path when the file does not exist.
 */
public interface InputFile
{
    String path();

    long length()
            throws IOException;

    /**
     * A new stream positioned at the start of the file; the caller closes it.
     */
    InputStream newStream()
            throws IOException;

    byte[] readAllBytes()
            throws IOException;

    /**
     * Reads exactly {@code length} bytes starting at {@code position} into
     * {@code buffer[offset..offset + length)}; fails with {@link java.io.EOFException} if the file
     * ends first.
     */
    void readFully(long position, byte[] buffer, int offset, int length)
            throws IOException;

    /**
     * Whether every read is a request to a remote store, whose latency costs about what a few
     * MiB take to transfer: readers then read larger windows, coalesce nearby ranges and fetch
     * ahead. Local files answer false, and so does an object that its first read fetches whole,
     * whose later reads are served from memory.
     */
    default boolean remote()
    {
        return false;
    }

    /**
     * Opens the file for many reads at any position without opening it for each; the caller
     * closes it.
     */
    RandomAccessInput openRandomAccess()
            throws IOException;
}
