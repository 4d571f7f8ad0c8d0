package io.tarn.vector.writer;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * An output stream that knows how many bytes went through it: the position in the file being
 * written, which file formats record as offsets.
 */
public final class CountingOutputStream
        extends FilterOutputStream
{
    private long position;

    public CountingOutputStream(OutputStream out)
    {
        super(out);
    }

    public long position()
    {
        return position;
    }

    @Override
    public void write(int b)
            throws IOException
    {
        out.write(b);
        position++;
    }

    @Override
    public void write(byte[] bytes, int offset, int length)
            throws IOException
    {
        out.write(bytes, offset, length);
        position += length;
    }
}
