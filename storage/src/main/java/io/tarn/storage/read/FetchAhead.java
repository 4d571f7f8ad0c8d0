package io.tarn.storage.read;

import io.tarn.storage.fs.InputFile;
import io.tarn.storage.fs.ObjectStoreTally;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import static java.util.Objects.requireNonNull;

/**
 * A data file of a split, its first bytes fetched from an object store on the shared fetch pool
 * while the reading thread does other work: before the split's first batch, while the engine
 * runs other splits (otherwise the thread waits out the request's latency, tens of milliseconds,
 * before it decodes anything, and an engine that runs as many splits at once as it has threads
 * has only that many requests in flight); later, while the file before it is decoded.
 * <p>
 * The split reader reads the file through {@link #input()}, which waits for the fetch and adds
 * its requests to the reading thread's {@link ObjectStoreTally} once, so that a split's counters
 * stay exact. A failed fetch is not reported here: the reader's own read retries and reports it.
 */
final class FetchAhead
{
    private final InputFile input;
    private final CompletableFuture<Tally> fetch;
    private boolean counted;

    private FetchAhead(InputFile input, CompletableFuture<Tally> fetch)
    {
        this.input = input;
        this.fetch = fetch;
    }

    /**
     * Starts fetching the first bytes of {@code input}.
     */
    static FetchAhead start(InputFile input)
    {
        requireNonNull(input, "input is null");
        CompletableFuture<Tally> fetch = CompletableFuture.supplyAsync(() -> {
            long requests = ObjectStoreTally.requests();
            long bytes = ObjectStoreTally.bytes();
            try {
                input.fetchAhead();
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return new Tally(ObjectStoreTally.requests() - requests, ObjectStoreTally.bytes() - bytes);
        }, RemoteDataInput.FETCHES);
        return new FetchAhead(input, fetch);
    }

    /**
     * Completes when the fetch has ended, whether or not it succeeded; never fails.
     */
    CompletableFuture<Void> done()
    {
        return fetch.handle((tally, failure) -> null);
    }

    /**
     * The file, its fetch ended: what it fetched is then held in memory.
     */
    InputFile input()
    {
        Tally tally;
        try {
            tally = fetch.get();
        }
        catch (InterruptedException e) {
            // the read that follows sees the interrupt
            Thread.currentThread().interrupt();
            return input;
        }
        catch (ExecutionException e) {
            // the reader's own read retries, and reports the failure if it persists
            return input;
        }
        if (!counted) {
            ObjectStoreTally.record(tally.requests(), tally.bytes());
            counted = true;
        }
        return input;
    }

    /**
     * The bytes the fetch holds in memory once it has ended.
     */
    long heldBytes()
    {
        return fetch.isDone() ? input.heldBytes() : 0;
    }

    /**
     * Stops a fetch whose file will not be read (the split reader closed before it): what it
     * brought, if anything, is not counted, as a fetch ahead within a file is not
     * ({@link RemoteDataInput}).
     */
    void cancel()
    {
        fetch.cancel(false);
    }

    private record Tally(long requests, long bytes) {}
}
