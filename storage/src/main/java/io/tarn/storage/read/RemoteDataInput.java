package io.tarn.storage.read;

import io.tarn.storage.fs.DaemonThreads;
import io.tarn.storage.fs.InputFile;
import io.tarn.storage.fs.ObjectStoreTally;
import io.tarn.vector.io.ByteRange;
import io.tarn.vector.io.DataFileInput;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static java.util.Objects.requireNonNull;

/**
 * A data file on an object store, where every read is a request whose latency (tens of
 * milliseconds) costs about what a few MiB take to transfer. Reads fetch {@link #READ_SIZE}
 * windows, and the ranges a reader announces ({@link #willRead}) are coalesced, where they lie
 * within {@link #MAX_GAP} of each other, into requests of at most {@link #MAX_REQUEST} bytes,
 * issued at once in parallel on a shared pool while the reader decodes. A read inside a fetched
 * range is served from it; any other read is its own request.
 * <p>
 * Memory: the fetched ranges of the last announcement only, at most {@link #MAX_AHEAD} bytes;
 * an announcement drops those of the one before. Requests made on the pool are added to the
 * reading thread's {@link ObjectStoreTally} when their bytes are used or dropped, so that the
 * counters of a scan stay exact.
 */
final class RemoteDataInput
        implements DataFileInput
{
    static final int READ_SIZE = 8 << 20;
    static final int MAX_GAP = 1 << 20;
    static final int MAX_REQUEST = 16 << 20;
    static final long MAX_AHEAD = 64L << 20;

    // shared by every reader of the process (and by FetchAhead): bounds the requests in flight ahead of reads
    static final ExecutorService FETCHES = Executors.newFixedThreadPool(16, new DaemonThreads("tarn-object-fetch-"));

    private final InputFile file;
    private List<Fetch> fetches = List.of();

    RemoteDataInput(InputFile file)
    {
        this.file = requireNonNull(file, "file is null");
    }

    @Override
    public String name()
    {
        return file.path();
    }

    @Override
    public long length()
            throws IOException
    {
        return file.length();
    }

    @Override
    public int preferredReadSize()
    {
        return READ_SIZE;
    }

    @Override
    public void willRead(List<ByteRange> ranges)
    {
        dropFetches();
        List<Fetch> started = new ArrayList<>();
        long ahead = 0;
        for (ByteRange request : coalesce(ranges)) {
            if (ahead + request.length() > MAX_AHEAD) {
                break;
            }
            ahead += request.length();
            started.add(new Fetch(request, FETCHES.submit(() -> fetch(request))));
        }
        fetches = started;
    }

    /**
     * {@code ranges}, ascending, merged where the gap between two is at most {@link #MAX_GAP}
     * and the merged request stays within {@link #MAX_REQUEST}.
     */
    static List<ByteRange> coalesce(List<ByteRange> ranges)
    {
        List<ByteRange> requests = new ArrayList<>();
        ByteRange current = null;
        for (ByteRange range : ranges) {
            if (range.length() == 0) {
                continue;
            }
            if (current != null && range.start() >= current.start() && range.start() - current.end() <= MAX_GAP
                    && Math.max(current.end(), range.end()) - current.start() <= MAX_REQUEST) {
                current = new ByteRange(current.start(), Math.max(current.end(), range.end()) - current.start());
                continue;
            }
            if (current != null) {
                requests.add(current);
            }
            current = range;
        }
        if (current != null) {
            requests.add(current);
        }
        return requests;
    }

    private FetchedBytes fetch(ByteRange range)
            throws IOException
    {
        long requests = ObjectStoreTally.requests();
        long bytes = ObjectStoreTally.bytes();
        byte[] data = new byte[(int) range.length()];
        file.readFully(range.start(), data, 0, data.length);
        return new FetchedBytes(data, ObjectStoreTally.requests() - requests, ObjectStoreTally.bytes() - bytes);
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int length)
            throws IOException
    {
        for (Fetch fetch : fetches) {
            if (position >= fetch.range().start() && position + length <= fetch.range().end()) {
                byte[] data = fetch.await();
                if (data != null) {
                    System.arraycopy(data, (int) (position - fetch.range().start()), buffer, offset, length);
                    return;
                }
                // the fetch failed: the read below reports the failure, or succeeds on a retry
                break;
            }
        }
        file.readFully(position, buffer, offset, length);
    }

    private void dropFetches()
    {
        for (Fetch fetch : fetches) {
            fetch.await();
        }
        fetches = List.of();
    }

    private record FetchedBytes(byte[] data, long requests, long bytes) {}

    /**
     * A range being fetched; its requests are added to the reading thread's tally once.
     */
    private static final class Fetch
    {
        private final ByteRange range;
        private final Future<FetchedBytes> result;
        private boolean counted;

        Fetch(ByteRange range, Future<FetchedBytes> result)
        {
            this.range = range;
            this.result = result;
        }

        ByteRange range()
        {
            return range;
        }

        /**
         * The fetched bytes, or null when the fetch failed.
         */
        byte[] await()
        {
            FetchedBytes fetched;
            try {
                fetched = result.get();
            }
            catch (InterruptedException e) {
                // the read that follows sees the interrupt
                Thread.currentThread().interrupt();
                result.cancel(true);
                return null;
            }
            catch (ExecutionException e) {
                return null;
            }
            if (!counted) {
                ObjectStoreTally.record(fetched.requests(), fetched.bytes());
                counted = true;
            }
            return fetched.data();
        }
    }
}
