package io.tarn.vector;

/**
 * A Parquet file uses a feature this reader does not implement (an encoding, encryption, a type
 * conversion); the message names the file and the feature.
 */
public class ParquetUnsupportedException
        extends DataFileUnsupportedException
{
    public ParquetUnsupportedException(String message)
    {
        super(message);
    }

    public ParquetUnsupportedException(String message, Throwable cause)
    {
        super(message, cause);
    }
}
