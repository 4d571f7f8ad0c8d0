package io.tarn.storage;

import java.io.IOException;

/**
 * The table uses something Tarn does not support yet (a data file format, an index type, a format
 * version from the future). Never answered with a silently wrong result.
 */
public class UnsupportedTableFeatureException
        extends IOException
{
    private static final long serialVersionUID = 1L;

    public UnsupportedTableFeatureException(String message)
    {
        super(message);
    }

    public UnsupportedTableFeatureException(String message, Throwable cause)
    {
        super(message, cause);
    }
}
