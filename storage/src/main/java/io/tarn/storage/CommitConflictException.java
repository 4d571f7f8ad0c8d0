package io.tarn.storage;

import java.io.IOException;

/**
 * A commit lost a race in a way that cannot be resolved by retrying: another commit changed the
 * files this one depends on.
 */
public class CommitConflictException
        extends IOException
{
    private static final long serialVersionUID = 1L;

    public CommitConflictException(String message)
    {
        super(message);
    }

    public CommitConflictException(String message, Throwable cause)
    {
        super(message, cause);
    }
}
