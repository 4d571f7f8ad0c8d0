package io.tarn.storage.fs;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

import static java.util.Objects.requireNonNull;

/**
 * Threads for requests to a file system made on a caller's behalf (fetches ahead of a read,
 * metadata checks that run side by side). They are daemons, so that they never keep a JVM alive
 * (the CLI's, a native engine's), and named, so that a thread dump tells what they do.
 */
public final class DaemonThreads
        implements ThreadFactory
{
    private final String namePrefix;
    private final AtomicInteger count = new AtomicInteger();

    public DaemonThreads(String namePrefix)
    {
        this.namePrefix = requireNonNull(namePrefix, "namePrefix is null");
    }

    @Override
    public Thread newThread(Runnable task)
    {
        Thread thread = new Thread(task, namePrefix + count.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    }
}
