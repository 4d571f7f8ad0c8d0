package io.tarn.trino;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * Bounds the data files the page sources of one worker hold open for reading
 * ({@code tarn.max-concurrent-file-reads}). A page source reserves the files it opens at once (one
 * for a split read file after file, every file for a merge) before it opens any, and releases
 * them when it finishes or closes. Reservations are granted first come, first served.
 *
 * <p>Waiting never holds a thread: a page source that is not granted yet reports itself blocked
 * with a future that completes on the grant or after {@code maxWait}, whichever comes first. After
 * {@code maxWait} it reads anyway, over the bound: a page source that holds files while blocked
 * downstream (a join probe waiting for its build side, whose scans wait here) then cannot
 * deadlock a query.
 */
final class FileReadLimiter
{
    private final int permits;
    private final Duration maxWait;
    private final Deque<Reservation> waiting = new ArrayDeque<>();
    private int inUse;
    private int peakInUse;

    FileReadLimiter(int permits, Duration maxWait)
    {
        if (permits < 1) {
            throw new IllegalArgumentException("permits must be at least 1: " + permits);
        }
        this.permits = permits;
        this.maxWait = requireNonNull(maxWait, "maxWait is null");
    }

    /**
     * Reserves {@code files} files, at most the whole bound (a larger request could never be
     * granted).
     */
    Reservation reserve(int files)
    {
        Reservation reservation = new Reservation(Math.clamp(files, 1, permits));
        List<Reservation> granted;
        synchronized (this) {
            waiting.addLast(reservation);
            granted = grantWaiting();
        }
        complete(granted);
        return reservation;
    }

    synchronized int inUse()
    {
        return inUse;
    }

    /**
     * The most files held at once since this limiter was made.
     */
    synchronized int peakInUse()
    {
        return peakInUse;
    }

    /**
     * Takes the files for the waiting reservations that fit, in order; the caller completes their
     * futures after leaving the lock, so that no listener runs under it.
     */
    private List<Reservation> grantWaiting()
    {
        List<Reservation> granted = new ArrayList<>();
        while (!waiting.isEmpty() && inUse + waiting.peekFirst().files <= permits) {
            Reservation next = waiting.removeFirst();
            take(next);
            granted.add(next);
        }
        return granted;
    }

    private static void complete(List<Reservation> granted)
    {
        for (Reservation reservation : granted) {
            reservation.granted.complete(null);
        }
    }

    private void take(Reservation reservation)
    {
        reservation.waitNanos = System.nanoTime() - reservation.createdNanos;
        reservation.held = true;
        inUse += reservation.files;
        peakInUse = Math.max(peakInUse, inUse);
    }

    /**
     * One page source's claim. {@link #ready()} is the future to block on; {@link #tryStart()}
     * tells whether the page source may open its files now.
     */
    final class Reservation
            implements AutoCloseable
    {
        private final int files;
        private final CompletableFuture<Void> granted = new CompletableFuture<>();
        private final CompletableFuture<Void> ready;
        private final long createdNanos = System.nanoTime();
        private boolean held;
        private boolean overdrawn;
        private boolean closed;
        private long waitNanos = -1;

        private Reservation(int files)
        {
            this.files = files;
            this.ready = granted.copy().completeOnTimeout(null, maxWait.toNanos(), TimeUnit.NANOSECONDS);
        }

        CompletableFuture<Void> ready()
        {
            return ready;
        }

        /**
         * True once the files are granted, or once {@code maxWait} has passed: then the files are
         * taken over the bound.
         */
        boolean tryStart()
        {
            synchronized (FileReadLimiter.this) {
                if (closed) {
                    return false;
                }
                if (!held && ready.isDone()) {
                    waiting.remove(this);
                    take(this);
                    overdrawn = true;
                }
                return held;
            }
        }

        boolean overdrawn()
        {
            synchronized (FileReadLimiter.this) {
                return overdrawn;
            }
        }

        /**
         * How long the reservation waited for its files to be granted (0 before that).
         */
        long waitNanos()
        {
            synchronized (FileReadLimiter.this) {
                return Math.max(0, waitNanos);
            }
        }

        /**
         * Gives the files back, or leaves the queue. Idempotent.
         */
        @Override
        public void close()
        {
            List<Reservation> granted;
            synchronized (FileReadLimiter.this) {
                if (closed) {
                    return;
                }
                closed = true;
                if (held) {
                    held = false;
                    inUse -= files;
                }
                else {
                    waiting.remove(this);
                }
                granted = grantWaiting();
            }
            complete(granted);
            // a page source closed while waiting must not keep a timer's future pending
            ready.complete(null);
        }
    }
}
