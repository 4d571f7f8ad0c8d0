package io.tarn.vector;

import java.io.IOException;

/**
 * A data file uses a feature its reader does not implement (an encoding, a codec, encryption, a
 * type conversion); the message names the file and the feature.
 */
public class DataFileUnsupportedException
        extends IOException
{
    public DataFileUnsupportedException(String message)
    {
        super(message);
    }

    public DataFileUnsupportedException(String message, Throwable cause)
    {
        super(message, cause);
    }
}
