package io.tarn.storage.fs;

/**
 * The requests an object store answered on the current thread, and the bytes of their bodies:
 * a file IO of an object store records each request here, and a reader that does its I/O on
 * its caller's thread counts its own requests as the difference before and after a call. Local
 * file IO records nothing.
 */
public final class ObjectStoreTally
{
    // per thread: requests, body bytes
    private static final ThreadLocal<long[]> TALLY = ThreadLocal.withInitial(() -> new long[2]);

    private ObjectStoreTally() {}

    public static void recordRequest()
    {
        TALLY.get()[0]++;
    }

    public static void recordBytes(long bytes)
    {
        TALLY.get()[1] += bytes;
    }

    /**
     * Adds what another thread did on this thread's behalf (a fetch ahead of the reads).
     */
    public static void record(long requests, long bytes)
    {
        long[] tally = TALLY.get();
        tally[0] += requests;
        tally[1] += bytes;
    }

    public static long requests()
    {
        return TALLY.get()[0];
    }

    public static long bytes()
    {
        return TALLY.get()[1];
    }
}
