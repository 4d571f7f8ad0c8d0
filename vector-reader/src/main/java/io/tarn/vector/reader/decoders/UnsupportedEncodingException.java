package io.tarn.vector.reader.decoders;

/**
 * An encoding or codec this reader does not implement, thrown where the page is decoded; the
 * reader turns it into a {@link io.tarn.vector.ParquetUnsupportedException} naming the file and
 * column. Internal to the vector-reader module: public only for its reader package.
 */
public final class UnsupportedEncodingException
        extends RuntimeException
{
    public UnsupportedEncodingException(String message)
    {
        super(message + " is not supported");
    }
}
