package io.tarn.storage.read;

import io.tarn.storage.fs.InputFile;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.table.PaimonTable;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

import static java.util.Objects.requireNonNull;

/**
 * The data files a split reader opens next, fetched ahead from an object store, in the order the
 * reader opens them: up to {@link #MAX_FILES} files and {@link #MAX_BYTES} bytes of their first
 * fetches (a small object whole, a large one's footer), so that a split of many small files costs
 * about the latency of one request for every {@link #MAX_FILES} files, not one each.
 * <p>
 * A file the reader skips unread (a late filter or its index rules it out) was fetched for
 * nothing, as a reader without statistics would have read it too; its request is counted, and
 * nothing more is fetched until a file is read, as the filter that skipped it may skip the next.
 * Files of local storage, whose reads cost no request, are never fetched ahead, and files handed
 * over held (by a pass that read them before) are not fetched again.
 */
public final class FetchAheadQueue
        implements AutoCloseable
{
    static final int MAX_FILES = 8;
    static final long MAX_BYTES = 16L << 20;

    private final PaimonTable table;
    private final List<PlannedFile> files;
    private final Predicate<PlannedFile> opened;
    // files already fetched, by name, handed over by an earlier pass over the same split
    private final Map<String, InputFile> held;
    // local files cost no request: nothing to fetch ahead
    private final boolean enabled;
    private final ArrayDeque<Entry> fetching = new ArrayDeque<>();
    private int nextToFetch;
    private long bytesAhead;

    /**
     * @param files the split's files, in the order the reader considers them
     * @param opened whether the reader opens a file it comes to (false: skipped before opening, as
     *         when its row selection is empty)
     */
    public FetchAheadQueue(PaimonTable table, List<PlannedFile> files, Predicate<PlannedFile> opened)
    {
        this(table, files, opened, Map.of());
    }

    /**
     * @param held files of the split an earlier pass fetched, by file name: taken as they are
     */
    FetchAheadQueue(PaimonTable table, List<PlannedFile> files, Predicate<PlannedFile> opened, Map<String, InputFile> held)
    {
        this.table = requireNonNull(table, "table is null");
        this.files = List.copyOf(files);
        this.opened = requireNonNull(opened, "opened is null");
        this.held = new HashMap<>(held);
        this.enabled = table.fileIO().objectStore();
    }

    /**
     * Starts fetching the files from {@code index} on, unless fetches are under way; completes
     * when the first of them has been fetched (at once when there is none).
     */
    public CompletableFuture<Void> start(int index)
    {
        if (fetching.isEmpty()) {
            fill(index);
        }
        return fetching.isEmpty() ? CompletableFuture.completedFuture(null) : fetching.peekFirst().fetch().done();
    }

    /**
     * The file at {@code index}, which the reader opens now: the one handed over held, the one
     * fetched ahead once its fetch has ended, or a new one. Starts fetching the files after it.
     */
    public InputFile take(int index)
            throws IOException
    {
        Entry head = dropBefore(index);
        // a file an earlier pass fetched was never queued
        InputFile input = held.remove(files.get(index).file().fileName());
        if (input == null && head != null && head.index() == index) {
            fetching.removeFirst();
            bytesAhead -= head.bytes();
            input = head.fetch().input();
        }
        if (input == null) {
            input = DataFileReaders.inputFile(table, files.get(index));
        }
        fill(index + 1);
        return input;
    }

    /**
     * The file at {@code index} is skipped unread: its fetch, if any, is counted and dropped.
     */
    void skip(int index)
    {
        held.remove(files.get(index).file().fileName());
        Entry head = dropBefore(index);
        if (head != null && head.index() == index) {
            fetching.removeFirst();
            bytesAhead -= head.bytes();
            head.fetch().input();
        }
    }

    /**
     * The bytes the ended fetches hold in memory.
     */
    long heldBytes()
    {
        long bytes = 0;
        for (Entry entry : fetching) {
            bytes += entry.fetch().heldBytes();
        }
        for (InputFile input : held.values()) {
            bytes += input.heldBytes();
        }
        return bytes;
    }

    @Override
    public void close()
    {
        fetching.forEach(entry -> entry.fetch().cancel());
        fetching.clear();
        bytesAhead = 0;
        held.clear();
    }

    /**
     * Cancels the fetches of files before {@code index}, which the reader passed without asking
     * for them; the first fetch left, or null.
     */
    private Entry dropBefore(int index)
    {
        while (!fetching.isEmpty() && fetching.peekFirst().index() < index) {
            Entry passed = fetching.removeFirst();
            bytesAhead -= passed.bytes();
            passed.fetch().cancel();
        }
        return fetching.peekFirst();
    }

    private void fill(int from)
    {
        nextToFetch = Math.max(nextToFetch, from);
        while (enabled && fetching.size() < MAX_FILES && nextToFetch < files.size()) {
            PlannedFile file = files.get(nextToFetch);
            if (!opened.test(file)) {
                // never read: what an earlier pass fetched of it can go
                held.remove(file.file().fileName());
                nextToFetch++;
                continue;
            }
            if (held.containsKey(file.file().fileName())) {
                nextToFetch++;
                continue;
            }
            InputFile input;
            try {
                input = DataFileReaders.inputFile(table, file);
            }
            catch (IOException e) {
                // a file name that makes no path: opening the file reports it
                return;
            }
            long bytes = input.fetchAheadBytes();
            if (bytes == 0 || (!fetching.isEmpty() && bytesAhead + bytes > MAX_BYTES)) {
                return;
            }
            fetching.addLast(new Entry(nextToFetch, bytes, FetchAhead.start(input)));
            bytesAhead += bytes;
            nextToFetch++;
        }
    }

    private record Entry(int index, long bytes, FetchAhead fetch) {}
}
