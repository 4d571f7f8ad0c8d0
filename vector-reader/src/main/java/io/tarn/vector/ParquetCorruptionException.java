package io.tarn.vector;

/**
 * A Parquet file violates the format: the message names the file, the column when known, and
 * what is wrong.
 */
public class ParquetCorruptionException
        extends DataFileCorruptionException
{
    public ParquetCorruptionException(String message)
    {
        super(message);
    }

    public ParquetCorruptionException(String message, Throwable cause)
    {
        super(message, cause);
    }
}
