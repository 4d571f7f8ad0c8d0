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
     * Fetches and holds what a columnar reader's first reads of the file need, so that they are
     * then served from memory: on an object store the whole object when its first read would
     * fetch it whole, else its tail, where the footer lies. Meant to run on another thread than
     * the reader's, ahead of it; the reader must not use the file before this returns. Files
     * whose reads cost no request (local files) hold nothing and return at once.
     */
    default void fetchAhead()
            throws IOException
    {
    }

    /**
     * The bytes of the file held in memory: what {@link #fetchAhead} or earlier reads fetched
     * and later reads are served from.
     */
    default long heldBytes()
    {
        return 0;
    }

    /**
     * How many bytes {@link #fetchAhead} would fetch: 0 when nothing (local files, or what is held
     * already).
     */
    default long fetchAheadBytes()
    {
        return 0;
    }

    /**
     * Opens the file for many reads at any position without opening it for each; the caller
     * closes it.
     */
    RandomAccessInput openRandomAccess()
            throws IOException;
}
