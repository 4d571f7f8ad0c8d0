package io.tarn.trino;

import io.trino.spi.connector.ConnectorTransactionHandle;

/**
 * Reads need no transaction state: each query pins its snapshot in the table handle.
 */
public enum TarnTransactionHandle
        implements ConnectorTransactionHandle
{
    INSTANCE
}
