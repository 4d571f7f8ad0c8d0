package io.tarn.trino;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.tarn.storage.manifest.ManifestEntry;
import io.tarn.storage.scan.SplitCodec;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.table.PaimonTable;
import io.tarn.storage.write.AppendTableWriter;
import io.tarn.vector.ArrowTypes;
import io.trino.spi.Page;
import io.trino.spi.connector.ConnectorPageSink;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Writes the pages of one writer task into Parquet files through Tarn's append writer; the
 * files become manifest entries that {@link #finish()} hands to the coordinator, which commits
 * them all as one snapshot.
 */
final class TarnPageSink
        implements ConnectorPageSink
{
    private final String tableName;
    private final TarnWriteHandle handle;
    private final TableSchema schema;
    private final BufferAllocator allocator;
    private final AppendTableWriter writer;
    private long bytesWritten;

    TarnPageSink(TarnTables tables, TarnWriteHandle handle, BufferAllocator parentAllocator)
    {
        this.handle = handle;
        PaimonTable table = handle.createdSchema()
                .map(json -> tables.staged(handle.schemaTableName(), TarnTableCreation.parse(handle.schemaTableName(), json)))
                .orElseGet(() -> tables.load(handle.schemaTableName()));
        this.tableName = table.name();
        this.allocator = parentAllocator.newChildAllocator("tarn-page-sink", 0, Long.MAX_VALUE);
        try {
            this.schema = table.latestSchema();
            if (schema.id() != handle.schemaId()) {
                throw new IOException("Table %s changed its schema from %s to %s while writing".formatted(tableName, handle.schemaId(), schema.id()));
            }
            this.writer = new AppendTableWriter(table, allocator);
        }
        catch (IOException | RuntimeException e) {
            allocator.close();
            throw TarnExceptions.translate("Cannot write table " + tableName, e);
        }
    }

    @Override
    public CompletableFuture<?> appendPage(Page page)
    {
        try (VectorSchemaRoot batch = VectorSchemaRoot.create(ArrowTypes.toArrowSchema(schema.fields()), allocator)) {
            for (int channel = 0; channel < page.getChannelCount(); channel++) {
                String target = "column %s of table %s".formatted(schema.fields().get(channel).name(), tableName);
                TrinoArrowWriter.write(page.getBlock(channel), handle.columnTypes().get(channel), schema.fields().get(channel).type(), batch.getFieldVectors().get(channel), target);
            }
            batch.setRowCount(page.getPositionCount());
            writer.write(batch);
            bytesWritten += page.getSizeInBytes();
        }
        catch (IOException | RuntimeException e) {
            throw TarnExceptions.translate("Cannot write table " + tableName, e);
        }
        return NOT_BLOCKED;
    }

    @Override
    public CompletableFuture<Collection<Slice>> finish()
    {
        List<Slice> fragments = new ArrayList<>();
        try {
            for (ManifestEntry entry : writer.prepareCommit()) {
                fragments.add(Slices.wrappedBuffer(SplitCodec.encode(entry)));
            }
        }
        catch (IOException | RuntimeException e) {
            throw TarnExceptions.translate("Cannot write table " + tableName, e);
        }
        finally {
            close();
        }
        return CompletableFuture.completedFuture(fragments);
    }

    @Override
    public void abort()
    {
        close();
    }

    private void close()
    {
        try {
            writer.close();
        }
        catch (Exception e) {
            throw TarnExceptions.translate("Cannot close the writer of table " + tableName, e);
        }
        finally {
            allocator.close();
        }
    }

    @Override
    public long getCompletedBytes()
    {
        return bytesWritten;
    }

    @Override
    public long getMemoryUsage()
    {
        return allocator.getAllocatedMemory();
    }
}
