package io.tarn.vector;

import java.io.IOException;

/**
 * A data file (Parquet, ORC, Avro) violates its format: the message names the file, the column
 * when known, and what is wrong.
 */
public class DataFileCorruptionException
        extends IOException
{
    public DataFileCorruptionException(String message)
    {
        super(message);
    }

    public DataFileCorruptionException(String message, Throwable cause)
    {
        super(message, cause);
    }
}
