package io.tarn.vector.orc;

/**
 * A file within the format but beyond what this reader holds at once (a batch of more nested
 * values than it collects); the reader turns it into a
 * {@link io.tarn.vector.DataFileUnsupportedException} naming the file.
 */
final class OrcLimitException
        extends RuntimeException
{
    OrcLimitException(String message)
    {
        super(message);
    }
}
