package io.tarn.storage.read;

import io.tarn.storage.metrics.Counters;
import io.tarn.vector.reader.DictionaryIds;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Reads one split of a scan plan as Arrow batches, whatever the split holds: files read as they
 * are (append tables, deletion vectors, first-row tables) or files whose rows are merged by key
 * (merge-on-read). Callers do not choose the kind: {@code SplitReaders.open} in package
 * {@code source}, a layer above both kinds, chooses it from the split.
 * <p>
 * Ownership: the batch of {@link #root()} belongs to the reader and stays valid until the next
 * {@link #nextBatch()} or {@link #close()}. The reader allocates from a child of the allocator it
 * was opened with and releases everything on {@link #close()}.
 */
public interface SplitReader
        extends AutoCloseable
{
    /**
     * Starts fetching, on another thread, what the next file the reader will open needs from an
     * object store, unless that fetch is under way: an engine can then run other work while the
     * request is answered rather than wait for it in {@link #nextBatch()}. The future completes
     * when the fetch has ended; it never fails (a failed fetch is retried, and reported, by the
     * read). Complete at once where there is nothing to fetch ahead: local files, merge splits,
     * no file left. Optional before the first batch; each file the reader opens starts the next
     * one's fetch itself.
     */
    default CompletableFuture<Void> fetchAhead()
    {
        return CompletableFuture.completedFuture(null);
    }

    /**
     * Advances to the next non-empty batch; false at the end of the split.
     */
    boolean nextBatch()
            throws IOException;

    /**
     * The current batch: the requested columns, in request order.
     */
    VectorSchemaRoot root();

    /**
     * The dictionary ids of request column {@code column} in the current batch, when the request
     * asks for them ({@link ReadRequest#withDictionaryIds}), the column is a string or binary
     * column and the batch's values all come from one dictionary; valid until the next batch.
     * Where present, they are the column's values: its vector may hold nulls in their place.
     */
    Optional<DictionaryIds> dictionaryIds(int column);

    /**
     * The counters so far, including the bytes the file being read has read.
     */
    Counters metrics();

    /**
     * The heap the reader holds besides its Arrow memory (loaded column chunks, pages,
     * dictionaries, rows held for merging).
     */
    long retainedHeapBytes();

    @Override
    void close();
}
