package io.tarn.vector.io;

/**
 * The bytes {@code [start, start + length)} of a file.
 */
public record ByteRange(long start, long length)
{
    public ByteRange
    {
        if (start < 0 || length < 0) {
            throw new IllegalArgumentException("Invalid byte range: " + length + " bytes at " + start);
        }
    }

    public long end()
    {
        return start + length;
    }
}
