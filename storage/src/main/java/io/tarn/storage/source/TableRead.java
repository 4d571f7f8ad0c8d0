package io.tarn.storage.source;

import io.tarn.storage.metrics.Counter;
import io.tarn.storage.metrics.Counters;
import io.tarn.storage.read.ReadRequest;
import io.tarn.storage.read.SplitReader;
import io.tarn.storage.scan.DataSplit;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.table.PaimonTable;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.io.IOException;

/**
 * Reads every split of a plan in order, one after the other, handing each batch to a consumer.
 * For tools and tests; engines read splits in parallel, each with a {@link SplitReader}.
 */
public final class TableRead
{
    private TableRead() {}

    /**
     * A consumer of batches. The batch is only valid during the call.
     */
    public interface BatchConsumer
    {
        void accept(VectorSchemaRoot batch)
                throws IOException;
    }

    public static Counters forEachBatch(PaimonTable table, ScanPlan plan, ReadRequest request, BufferAllocator allocator, BatchConsumer consumer)
            throws IOException
    {
        Counters metrics = Counters.empty(Counter.Stage.READING);
        for (DataSplit split : plan.splits()) {
            try (SplitReader reader = SplitReaders.open(table, plan.readSchema(), split, request, allocator)) {
                while (reader.nextBatch()) {
                    consumer.accept(reader.root());
                }
                metrics = metrics.plus(reader.metrics());
            }
        }
        return metrics;
    }
}
