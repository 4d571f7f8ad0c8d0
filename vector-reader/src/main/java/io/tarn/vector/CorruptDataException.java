package io.tarn.vector;

/**
 * Thrown by page decoders, which know neither the file nor the column; the column reader turns
 * it into a {@link ParquetCorruptionException} naming both.
 * <p>
 * Internal to the vector-reader module: public only for the decoders and the reader packages.
 */
public final class CorruptDataException
        extends RuntimeException
{
    public CorruptDataException(String message)
    {
        super(message);
    }

    public CorruptDataException(String message, Throwable cause)
    {
        super(message, cause);
    }
}
