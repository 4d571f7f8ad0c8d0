package io.tarn.vector.io;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

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

    /**
     * How many bytes a sequential read of a column should fetch at once, beyond what it needs
     * now: enough that the cost of a read is paid rarely, little enough that the reader does not
     * hold much of the file. Local files answer 1 MiB; inputs whose every read is a remote
     * request, where a read costs about what a few MiB take to transfer, answer more.
     */
    default int preferredReadSize()
    {
        return 1 << 20;
    }

    /**
     * A hint that the reader is about to read {@code ranges} (ascending, not overlapping), for
     * inputs that can fetch them ahead of time or together: nearby ranges of a remote file
     * coalesced into one request, and the requests issued in parallel. It never fails; a range
     * that is wrong (outside the file) is left to the reads that follow to report.
     */
    default void willRead(List<ByteRange> ranges) {}

    static DataFileInput of(Path path)
    {
        return new LocalFileInput(path);
    }

    static DataFileInput of(String name, byte[] bytes)
    {
        return new MemoryFileInput(name, bytes);
    }
}
