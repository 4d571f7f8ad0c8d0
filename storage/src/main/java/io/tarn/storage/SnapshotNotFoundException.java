package io.tarn.storage;

import java.io.IOException;

/**
 * A snapshot, tag or point in time that the table does not have (or no longer has).
 */
public class SnapshotNotFoundException
        extends IOException
{
    private static final long serialVersionUID = 1L;

    public SnapshotNotFoundException(String message)
    {
        super(message);
    }

    public SnapshotNotFoundException(String message, Throwable cause)
    {
        super(message, cause);
    }
}
