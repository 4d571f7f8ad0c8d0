package io.tarn.storage;

import java.io.IOException;

/**
 * A database or table that does not exist in the warehouse.
 */
public class TableNotFoundException
        extends IOException
{
    private static final long serialVersionUID = 1L;

    public TableNotFoundException(String message)
    {
        super(message);
    }

    public TableNotFoundException(String message, Throwable cause)
    {
        super(message, cause);
    }
}
