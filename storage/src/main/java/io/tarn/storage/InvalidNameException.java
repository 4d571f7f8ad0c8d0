package io.tarn.storage;

/**
 * A database, table, tag or branch name that is empty or could escape the warehouse directory.
 */
public class InvalidNameException
        extends IllegalArgumentException
{
    private static final long serialVersionUID = 1L;

    public InvalidNameException(String message)
    {
        super(message);
    }

    public InvalidNameException(String message, Throwable cause)
    {
        super(message, cause);
    }
}
