package io.tarn.storage;

import java.io.IOException;

/**
 * A schema change names a new column (an added column, a rename's target) that the table
 * already has. The message names the table and the column.
 */
public class ColumnAlreadyExistsException
        extends IOException
{
    private static final long serialVersionUID = 1L;

    public ColumnAlreadyExistsException(String message)
    {
        super(message);
    }
}
