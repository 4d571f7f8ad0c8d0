package io.tarn.storage;

import java.io.IOException;

/**
 * A file that table metadata refers to does not exist. The message names the file and who refers to it.
 */
public class MissingFileException
        extends IOException
{
    private static final long serialVersionUID = 1L;

    public MissingFileException(String message)
    {
        super(message);
    }

    public MissingFileException(String message, Throwable cause)
    {
        super(message, cause);
    }
}
