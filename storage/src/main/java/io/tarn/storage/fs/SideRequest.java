package io.tarn.storage.fs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

import static java.util.Objects.requireNonNull;

/**
 * A file-system request that runs on another thread while the caller makes another one that does
 * not depend on it: on an object store, two round trips in the time of one. The caller waits for
 * it whatever happens ({@link #await}, or {@link #settle} when its own request failed), so no
 * request outlives the operation that started it.
 */
public final class SideRequest<T>
{
    private final CompletableFuture<T> result;

    private SideRequest(CompletableFuture<T> result)
    {
        this.result = result;
    }

    public static <T> SideRequest<T> start(Request<T> request, Executor executor)
    {
        requireNonNull(request, "request is null");
        return new SideRequest<>(CompletableFuture.supplyAsync(() -> {
            try {
                return request.run();
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, requireNonNull(executor, "executor is null")));
    }

    /**
     * The request's result, or its failure as it was thrown.
     */
    public T await()
            throws IOException
    {
        try {
            return result.join();
        }
        catch (CompletionException e) {
            if (e.getCause() instanceof UncheckedIOException io) {
                throw io.getCause();
            }
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    /**
     * Waits for the request to end, ignoring how: for a caller that is failing already.
     */
    public void settle()
    {
        result.handle((value, failure) -> null).join();
    }

    public interface Request<T>
    {
        T run()
                throws IOException;
    }
}
