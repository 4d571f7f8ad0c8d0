package io.tarn.index.fileindex;

import java.io.IOException;

/**
 * File-index bytes that break the format: a wrong magic or version, an offset or length outside
 * the bytes, a count that does not fit, a bitmap that does not deserialize. Readers catch it and
 * ignore the index, since an index may only remove work.
 */
public class CorruptIndexException
        extends IOException
{
    public CorruptIndexException(String message)
    {
        super(message);
    }

    public CorruptIndexException(String message, Throwable cause)
    {
        super(message, cause);
    }
}
