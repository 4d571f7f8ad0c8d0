package io.tarn.trino;

import io.tarn.index.predicate.Predicate;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.table.PaimonTable;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.ConnectorPageSourceProvider;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorTableCredentials;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.DynamicFilter;
import io.trino.spi.connector.MemoryContext;
import io.trino.spi.connector.MemoryUsageReportingPageSource;
import io.trino.spi.predicate.TupleDomain;
import org.apache.arrow.memory.BufferAllocator;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

final class TarnPageSourceProvider
        implements ConnectorPageSourceProvider
{
    private final TarnTables tables;
    private final TarnTypes types;
    private final BufferAllocator allocator;
    private final boolean useFileIndexes;
    private final FileReadLimiter fileReads;

    TarnPageSourceProvider(TarnTables tables, TarnTypes types, BufferAllocator allocator, boolean useFileIndexes, FileReadLimiter fileReads)
    {
        this.fileReads = requireNonNull(fileReads, "fileReads is null");
        this.tables = requireNonNull(tables, "tables is null");
        this.types = requireNonNull(types, "types is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.useFileIndexes = useFileIndexes;
    }

    @Override
    public ConnectorPageSource createPageSource(
            ConnectorTransactionHandle transaction,
            ConnectorSession session,
            ConnectorSplit connectorSplit,
            ConnectorTableHandle tableHandle,
            Optional<ConnectorTableCredentials> tableCredentials,
            List<ColumnHandle> columns,
            DynamicFilter dynamicFilter,
            MemoryContext memoryContext)
    {
        // Trino learns the memory a page source holds (its getMemoryUsage) through the memory context
        return new MemoryUsageReportingPageSource(tarnPageSource(connectorSplit, tableHandle, columns, dynamicFilter), memoryContext);
    }

    private ConnectorPageSource tarnPageSource(ConnectorSplit connectorSplit, ConnectorTableHandle tableHandle, List<ColumnHandle> columns, DynamicFilter dynamicFilter)
    {
        TarnSplit split = (TarnSplit) connectorSplit;
        TarnTableHandle handle = (TarnTableHandle) tableHandle;
        List<TarnColumnHandle> columnHandles = columns.stream().map(TarnColumnHandle.class::cast).toList();
        if (split.count().isPresent()) {
            return new TarnCountPageSource(split.count().getAsLong(), columnHandles.size());
        }
        PaimonTable table = tables.load(handle.schemaTableName());
        TableSchema schema;
        try {
            schema = table.schema(handle.schemaId());
        }
        catch (IOException e) {
            throw TarnExceptions.translate("Cannot read schema " + handle.schemaId() + " of table " + table.name(), e);
        }
        TupleDomain<TarnColumnHandle> filter = handle.filter()
                .intersect(dynamicFilter.getCurrentPredicate().transformKeys(TarnColumnHandle.class::cast));
        if (filter.isNone()) {
            return new TarnCountPageSource(0, -1);
        }
        Optional<Predicate> predicate = TarnPredicates.toPredicate(filter, schema.fields());
        return new TarnPageSource(table, types, schema, DataSplitCodec.decode(split.dataSplit()), columnHandles, predicate, handle.limit(), useFileIndexes, allocator, fileReads);
    }
}
