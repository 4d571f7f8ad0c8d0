package io.tarn.storage;

import java.io.IOException;

/**
 * A schema change names a column the table does not have (any more): the column to rename or
 * drop, or the one to place an added column after. The message names the table and the column.
 */
public class ColumnNotFoundException
        extends IOException
{
    private static final long serialVersionUID = 1L;

    public ColumnNotFoundException(String message)
    {
        super(message);
    }
}
