package io.tarn.storage.read;

import io.tarn.index.predicate.Predicate;
import io.tarn.storage.metrics.Counter;
import io.tarn.storage.metrics.Counters;
import io.tarn.storage.scan.DataSplit;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.table.PaimonTable;
import io.tarn.vector.reader.DictionaryIds;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import static java.util.Objects.requireNonNull;

/**
 * Reads a split of files read as they are for a request with a late row filter
 * ({@link ReadRequest#withLateRowFilter}): a {@link RawSplitReader} until the filter arrives, which
 * is asked before each batch; then the rows not returned yet, read again from where that reader
 * stopped with the filter added to the request's, so that they are tested on the filter's columns
 * first and only the matching rows of the other columns are decoded.
 *
 * <p>Why: a scan may start before a join's dynamic filter reaches it (a wait for it timed out,
 * or it reached the coordinator before the worker), and a scan under a partial aggregation reads
 * on while the join's build side is built. Testing only the rows after the filter arrived still
 * spares Trino and the value columns' decoding most of them. The restart costs a second parse of
 * the current file's footer; the file's bytes are handed over, not fetched again, and so are the
 * rows of it that the request's own filter already matched.
 */
final class LateRowFilterReader
        implements SplitReader
{
    private final PaimonTable table;
    private final TableSchema readSchema;
    private final ReadRequest request;
    private final BufferAllocator allocator;
    // the rest of the split, once the filter arrived
    private final ArrayDeque<DataSplit> rest = new ArrayDeque<>();
    // what the first part of the rest reads from, and the rows of it known to match
    private Optional<RawSplitReader.UnreadRest> unread = Optional.empty();
    private ReadRequest filtered;
    private RawSplitReader current;
    // the counters of the readers already closed
    private Counters closed = Counters.empty(Counter.Stage.READING);

    LateRowFilterReader(PaimonTable table, TableSchema readSchema, DataSplit split, ReadRequest request, BufferAllocator allocator)
    {
        this.table = requireNonNull(table, "table is null");
        this.readSchema = requireNonNull(readSchema, "readSchema is null");
        this.request = requireNonNull(request, "request is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.current = new RawSplitReader(table, readSchema, split, request, allocator);
    }

    @Override
    public CompletableFuture<Void> fetchAhead()
    {
        return current == null ? CompletableFuture.completedFuture(null) : current.fetchAhead();
    }

    @Override
    public boolean nextBatch()
            throws IOException
    {
        if (filtered == null && current != null) {
            Optional<Predicate> arrived = request.lateRowFilter().get();
            if (arrived.isPresent()) {
                restartWith(arrived.get());
            }
        }
        while (current != null) {
            if (current.nextBatch()) {
                return true;
            }
            closeCurrent();
            openNextOfRest();
        }
        return false;
    }

    private void restartWith(Predicate rowFilter)
            throws IOException
    {
        unread = current.stopAndHandOverRest();
        if (unread.isEmpty()) {
            // not restartable here: the filter is left to the caller, which tests it anyway
            filtered = request;
            return;
        }
        filtered = request.withArrivedRowFilter(rowFilter);
        rest.addAll(unread.get().splits());
        closeCurrent();
        closed = closed.plus(Counters.of(Counter.LATE_FILTER_RESTARTS, 1));
        openNextOfRest();
    }

    private void openNextOfRest()
    {
        if (!rest.isEmpty()) {
            DataSplit next = rest.removeFirst();
            // only the first part of the rest, the current file's, reads a held file and may
            // have a selection
            current = unread.isPresent()
                    ? RawSplitReader.rest(table, readSchema, next, filtered, allocator, unread.get())
                    : new RawSplitReader(table, readSchema, next, filtered, allocator);
            unread = Optional.empty();
        }
    }

    private void closeCurrent()
    {
        RawSplitReader reader = current;
        current = null;
        closed = closed.plus(reader.metrics());
        reader.close();
    }

    @Override
    public VectorSchemaRoot root()
    {
        return current.root();
    }

    @Override
    public Optional<DictionaryIds> dictionaryIds(int column)
    {
        return current == null ? Optional.empty() : current.dictionaryIds(column);
    }

    @Override
    public Counters metrics()
    {
        return current == null ? closed : closed.plus(current.metrics());
    }

    @Override
    public long retainedHeapBytes()
    {
        return current == null ? 0 : current.retainedHeapBytes();
    }

    @Override
    public void close()
    {
        if (current != null) {
            closeCurrent();
        }
    }
}
