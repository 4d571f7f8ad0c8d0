package io.tarn.cli;

/**
 * A command line that cannot be run as written; its message is shown to the user with the usage.
 */
final class UsageException
        extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    UsageException(String message)
    {
        super(message);
    }

    UsageException(String message, Throwable cause)
    {
        super(message, cause);
    }
}
