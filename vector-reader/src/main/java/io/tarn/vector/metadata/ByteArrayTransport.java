package io.tarn.vector.metadata;

import shaded.parquet.org.apache.thrift.TConfiguration;
import shaded.parquet.org.apache.thrift.transport.TEndpointTransport;
import shaded.parquet.org.apache.thrift.transport.TTransportException;

/**
 * A read-only thrift transport over a byte range that exposes its buffer: the compact protocol
 * then reads bytes, varints and strings in place instead of one call through a stream per byte,
 * which made parsing page headers a visible cost of reading a column.
 */
final class ByteArrayTransport
        extends TEndpointTransport
{
    private final byte[] bytes;
    private final int end;
    private int position;

    ByteArrayTransport(TConfiguration configuration, byte[] bytes, int offset, int length)
            throws TTransportException
    {
        super(configuration);
        if (offset < 0 || length < 0 || offset > bytes.length - length) {
            throw new TTransportException("Range of " + length + " bytes at " + offset + " is outside the buffer");
        }
        this.bytes = bytes;
        this.position = offset;
        this.end = offset + length;
    }

    /**
     * The first byte not read yet.
     */
    int position()
    {
        return position;
    }

    @Override
    public boolean isOpen()
    {
        return true;
    }

    @Override
    public void open() {}

    @Override
    public void close() {}

    @Override
    public int read(byte[] target, int offset, int length)
    {
        int n = Math.min(length, end - position);
        if (n <= 0) {
            // readAll turns a read of nothing into an exception naming the missing bytes
            return 0;
        }
        System.arraycopy(bytes, position, target, offset, n);
        position += n;
        return n;
    }

    @Override
    public void write(byte[] source, int offset, int length)
            throws TTransportException
    {
        throw new TTransportException("Read-only transport");
    }

    @Override
    public byte[] getBuffer()
    {
        return bytes;
    }

    @Override
    public int getBufferPosition()
    {
        return position;
    }

    @Override
    public int getBytesRemainingInBuffer()
    {
        return end - position;
    }

    @Override
    public void consumeBuffer(int length)
    {
        position += length;
    }
}
