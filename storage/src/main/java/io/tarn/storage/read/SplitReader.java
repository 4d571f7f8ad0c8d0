package io.tarn.storage.read;

import io.tarn.storage.metrics.Counters;
import io.tarn.storage.scan.DataSplit;
import io.tarn.storage.table.PaimonTable;
import io.tarn.storage.schema.TableSchema;
import io.tarn.vector.reader.DictionaryIds;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Reads one split of a scan plan as Arrow batches, whatever the split holds: files read as they
 * are (append tables, deletion vectors, first-row tables) or files whose rows are merged by key
 * (merge-on-read). Callers do not choose: {@link #open} does, from the split.
 * <p>
 * Ownership: the batch of {@link #root()} belongs to the reader and stays valid until the next
 * {@link #nextBatch()} or {@link #close()}. The reader allocates from a child of the allocator it
 * was opened with and releases everything on {@link #close()}.
 */
public interface SplitReader
        extends AutoCloseable
{
    /**
     * A reader of {@code split}, which opens no file before its first batch.
     *
     * @param readSchema the schema rows are read with: the plan's ({@code ScanPlan.readSchema()})
     */
    static SplitReader open(PaimonTable table, TableSchema readSchema, DataSplit split, ReadRequest request, BufferAllocator allocator)
            throws IOException
    {
        if (split.mergeRequired()) {
            // Paimon tracks rows only in append tables, which never merge
            request.columns().stream().filter(column -> RowTrackingFields.byId(column.id()).isPresent()).findFirst().ifPresent(column -> {
                throw new IllegalArgumentException("Table " + table.name() + " merges rows by primary key and does not track rows: it has no column " + column.name());
            });
            return new ObjectStoreCountingReader(new MergeSplitReader(table, readSchema, split, request, allocator));
        }
        return new ObjectStoreCountingReader(new RawSplitReader(table, readSchema, split, request, allocator));
    }

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
     * asks for them ({@link ReadRequest#withDictionaryIds()}), the column is a string or binary
     * column and the batch's values all come from one dictionary; valid until the next batch.
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
