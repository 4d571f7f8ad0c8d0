package io.tarn.jni;

import io.tarn.storage.read.ReadRequest;
import io.tarn.storage.read.SplitReader;
import io.tarn.storage.scan.DataSplit;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.source.SplitReaders;
import io.tarn.storage.table.PaimonTable;
import io.tarn.types.DataField;
import io.tarn.vector.ArrowTypes;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * An {@link ArrowReader} over Tarn's read path: the splits in order, each through a
 * {@link SplitReader}, so that {@code Data.exportArrayStream} can hand the batches to C.
 *
 * <p>Each batch's buffers are transferred, not copied, from the split reader into this reader's
 * root; an exported batch keeps its buffers alive through their reference counts until the C
 * consumer releases it, while the split reader allocates fresh buffers for the next batch.
 *
 * <p>The reader owns {@code allocator}, a child allocator of the bridge's root made for this
 * stream: closing the reader closes the split reader, the root and then the allocator, which
 * fails loudly if any buffer of the stream is still alive.
 */
final class SplitStreamReader
        extends ArrowReader
{
    static final String PAIMON_TYPE = "paimon.type";

    private final PaimonTable table;
    private final TableSchema readSchema;
    private final List<DataSplit> splits;
    private final ReadRequest request;
    private final BufferAllocator streamAllocator;

    private int nextSplit;
    private SplitReader reader;

    SplitStreamReader(PaimonTable table, TableSchema readSchema, List<DataSplit> splits, ReadRequest request, BufferAllocator allocator)
    {
        super(allocator);
        this.table = requireNonNull(table, "table is null");
        this.readSchema = requireNonNull(readSchema, "readSchema is null");
        this.splits = List.copyOf(requireNonNull(splits, "splits is null"));
        this.request = requireNonNull(request, "request is null");
        this.streamAllocator = allocator;
    }

    @Override
    public boolean loadNextBatch()
            throws IOException
    {
        VectorSchemaRoot target = getVectorSchemaRoot();
        // let go of the previous batch first (the consumer has released its export by now), so that
        // the split reader's next allocation reuses that memory while it is still in the CPU caches
        target.clear();
        VectorSchemaRoot source = nextSharedBatch();
        if (source == null) {
            target.setRowCount(0);
            return false;
        }
        for (int column = 0; column < target.getFieldVectors().size(); column++) {
            FieldVector from = source.getVector(column);
            FieldVector to = target.getVector(column);
            from.makeTransferPair(to).transfer();
        }
        target.setRowCount(source.getRowCount());
        return true;
    }

    /**
     * The next non-empty batch as the split reader's own root, its buffers not moved, or null at
     * the end of the last split. It stays valid until the next call or {@link #close}; a caller
     * that needs it longer transfers its vectors' buffers out first (the split reader then reads
     * the next batch into new memory). {@link NativeStream} exports batches from here, so that the
     * split reader reuses its buffers whenever the consumer released the previous batch in time.
     */
    VectorSchemaRoot nextSharedBatch()
            throws IOException
    {
        while (true) {
            if (reader == null) {
                if (nextSplit == splits.size()) {
                    return null;
                }
                openSplit(splits.get(nextSplit++));
            }
            boolean hasBatch = reader.nextBatch();
            if (hasBatch) {
                return reader.root();
            }
            closeSplit();
        }
    }

    @Override
    public long bytesRead()
    {
        return 0;
    }

    /**
     * Runs inside the stream's release callback, where an exception would reach Arrow's native
     * code: a caller that still holds a batch keeps the allocator open (its buffers stay valid and
     * {@link TarnBridge#allocatedBytes()} shows them) instead of failing the release.
     */
    @Override
    protected void closeReadSource()
    {
        try {
            closeSplit();
        }
        finally {
            if (streamAllocator.getAllocatedMemory() == 0) {
                streamAllocator.close();
            }
        }
    }

    /**
     * The Arrow schema of {@link ArrowTypes}, with each top-level field's Paimon type under
     * {@link #PAIMON_TYPE}: Arrow alone cannot tell TIMESTAMP(0) from TIMESTAMP(3), or CHAR from
     * VARCHAR.
     */
    @Override
    protected Schema readSchema()
    {
        List<Field> fields = new ArrayList<>();
        for (DataField column : request.columns()) {
            Field field = ArrowTypes.toArrowField(column);
            Map<String, String> metadata = new HashMap<>(field.getMetadata());
            metadata.put(PAIMON_TYPE, column.type().asSqlString());
            fields.add(new Field(field.getName(), new FieldType(field.isNullable(), field.getType(), null, metadata), field.getChildren()));
        }
        return new Schema(fields);
    }

    private void openSplit(DataSplit split)
            throws IOException
    {
        reader = SplitReaders.open(table, readSchema, split, request, streamAllocator);
    }

    private void closeSplit()
    {
        if (reader != null) {
            reader.close();
            reader = null;
        }
    }
}
