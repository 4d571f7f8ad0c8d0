package io.tarn.storage;

import java.io.IOException;

/**
 * A table file (JSON, Avro, Parquet, index) whose bytes break its format: bad magic, a length or
 * offset out of range, a failed checksum, a missing required key. The message names the file.
 */
public class CorruptFileException
        extends IOException
{
    private static final long serialVersionUID = 1L;

    public CorruptFileException(String message)
    {
        super(message);
    }

    public CorruptFileException(String message, Throwable cause)
    {
        super(message, cause);
    }
}
