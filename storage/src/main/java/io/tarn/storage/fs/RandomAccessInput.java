package io.tarn.storage.fs;

import java.io.Closeable;
import java.io.IOException;

/**
 * A file held open for reads at any position, for a reader that takes many small ranges in a
 * short time (the probes of a Bloom filter); the caller closes it.
 */
public interface RandomAccessInput
        extends Closeable
{
    long length()
            throws IOException;

    /**
     * Reads exactly {@code length} bytes starting at {@code position} into
     * {@code buffer[offset..offset + length)}; fails with {@link java.io.EOFException} if the file
     * ends first.
     */
    void readFully(long position, byte[] buffer, int offset, int length)
            throws IOException;
}
