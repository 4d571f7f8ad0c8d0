package io.tarn.vector;

import java.io.IOException;

/**
 * A Parquet file uses a feature this reader does not implement (an encoding, encryption, a type
 * conversion); the message names the file and the feature.
 */
public class ParquetUnsupportedException
        extends IOException
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
