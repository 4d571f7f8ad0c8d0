package io.tarn.trino;

import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplitManager;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.FixedSplitSource;

import java.util.Set;

import static java.util.Objects.requireNonNull;

final class TarnSplitManager
        implements ConnectorSplitManager
{
    private final TarnTables tables;
    private final TarnConfig config;

    TarnSplitManager(TarnTables tables, TarnConfig config)
    {
        this.tables = requireNonNull(tables, "tables is null");
        this.config = requireNonNull(config, "config is null");
    }

    @Override
    public ConnectorSplitSource getSplits(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorTableHandle tableHandle, Set<ColumnHandle> dynamicFilterColumns, Constraint constraint)
    {
        TarnTableHandle handle = (TarnTableHandle) tableHandle;
        if (handle.countOnly()) {
            return new FixedSplitSource(TarnSplit.ofCount(handle.count().getAsLong()));
        }
        return new TarnSplitSource(tables.load(handle.schemaTableName()), handle, TarnSessionProperties.scanConfig(config, session), !dynamicFilterColumns.isEmpty());
    }
}
