package io.tarn.trino;

import io.trino.spi.connector.ConnectorInsertTableHandle;
import io.trino.spi.connector.ConnectorOutputTableHandle;
import io.trino.spi.connector.ConnectorPageSink;
import io.trino.spi.connector.ConnectorPageSinkId;
import io.trino.spi.connector.ConnectorPageSinkProvider;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableCredentials;
import io.trino.spi.connector.ConnectorTransactionHandle;
import org.apache.arrow.memory.BufferAllocator;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

final class TarnPageSinkProvider
        implements ConnectorPageSinkProvider
{
    private final TarnTables tables;
    private final BufferAllocator allocator;

    TarnPageSinkProvider(TarnTables tables, BufferAllocator allocator)
    {
        this.tables = requireNonNull(tables, "tables is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
    }

    @Override
    public ConnectorPageSink createPageSink(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorOutputTableHandle outputTableHandle, Optional<ConnectorTableCredentials> tableCredentials, ConnectorPageSinkId pageSinkId)
    {
        return new TarnPageSink(tables, (TarnWriteHandle) outputTableHandle, allocator);
    }

    @Override
    public ConnectorPageSink createPageSink(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorInsertTableHandle insertTableHandle, Optional<ConnectorTableCredentials> tableCredentials, ConnectorPageSinkId pageSinkId)
    {
        return new TarnPageSink(tables, (TarnWriteHandle) insertTableHandle, allocator);
    }
}
