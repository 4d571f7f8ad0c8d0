package io.tarn.storage.source;

import io.tarn.storage.fs.ObjectStoreTally;
import io.tarn.storage.metrics.Counter;
import io.tarn.storage.metrics.Counters;
import io.tarn.storage.read.SplitReader;
import io.tarn.vector.reader.DictionaryIds;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Adds to a split reader's counters the object-store requests it made and the bytes they
 * brought. The readers do all their I/O on the thread that asks for a batch, so the requests of
 * the split are what the current thread's tally ({@link ObjectStoreTally}) grew by during its
 * calls, whichever thread made each call.
 */
final class ObjectStoreCountingReader
        implements SplitReader
{
    private final SplitReader delegate;
    private long requests;
    private long bytes;

    ObjectStoreCountingReader(SplitReader delegate)
    {
        this.delegate = delegate;
    }

    @Override
    public CompletableFuture<Void> fetchAhead()
    {
        // the fetch's requests reach the tally when the reader uses the file, in nextBatch()
        return delegate.fetchAhead();
    }

    @Override
    public boolean nextBatch()
            throws IOException
    {
        long requestsBefore = ObjectStoreTally.requests();
        long bytesBefore = ObjectStoreTally.bytes();
        try {
            return delegate.nextBatch();
        }
        finally {
            requests += ObjectStoreTally.requests() - requestsBefore;
            bytes += ObjectStoreTally.bytes() - bytesBefore;
        }
    }

    @Override
    public VectorSchemaRoot root()
    {
        return delegate.root();
    }

    @Override
    public Optional<DictionaryIds> dictionaryIds(int column)
    {
        return delegate.dictionaryIds(column);
    }

    @Override
    public Counters metrics()
    {
        return delegate.metrics().plus(Counters.of(Counter.OBJECT_REQUESTS, requests, Counter.OBJECT_BYTES, bytes));
    }

    @Override
    public long retainedHeapBytes()
    {
        return delegate.retainedHeapBytes();
    }

    @Override
    public void close()
    {
        delegate.close();
    }
}
