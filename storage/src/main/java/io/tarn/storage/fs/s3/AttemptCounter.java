package io.tarn.storage.fs.s3;

import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * Counts the attempts of the request each thread runs: the SDK sends a request again on the
 * caller's thread, and the exceptions it throws at the end do not all say how often it tried
 * (those of a HEAD never do).
 */
final class AttemptCounter
        implements ExecutionInterceptor
{
    private final ThreadLocal<int[]> attempts = ThreadLocal.withInitial(() -> new int[1]);

    /**
     * Starts counting a new request on this thread.
     */
    void reset()
    {
        attempts.get()[0] = 0;
    }

    /**
     * The attempts sent for this thread's request since {@link #reset}.
     */
    int attempts()
    {
        return attempts.get()[0];
    }

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes executionAttributes)
    {
        attempts.get()[0]++;
    }
}
