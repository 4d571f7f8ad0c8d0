package io.tarn.storage.binary;

/**
 * Bytes that break the BinaryRow layout: an offset or length outside the row, a bad inline
 * string length, an undecodable decimal. Readers of table files catch it and rethrow a
 * {@link io.tarn.storage.CorruptFileException} naming the file.
 */
class MalformedBinaryException
        extends IllegalArgumentException
{
    private static final long serialVersionUID = 1L;

    public MalformedBinaryException(String message)
    {
        super(message);
    }

    public MalformedBinaryException(String message, Throwable cause)
    {
        super(message, cause);
    }
}
