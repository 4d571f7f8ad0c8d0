package io.tarn.storage;

import java.io.IOException;

/**
 * A schema change that is only safe on a table without rows, such as adding a NOT NULL column
 * that rows written before could not fill, met a table holding rows. The message names the
 * table and the column.
 */
public class TableNotEmptyException
        extends IOException
{
    private static final long serialVersionUID = 1L;

    public TableNotEmptyException(String message)
    {
        super(message);
    }

    public TableNotEmptyException(String message, Throwable cause)
    {
        super(message, cause);
    }
}
