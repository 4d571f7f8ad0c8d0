package io.tarn.vector.reader.decoders;

/**
 * RLE-encoded BOOLEAN values (data page v2): a 4-byte length, then the RLE / bit-packed hybrid
 * with bit width 1.
 */
final class RleBooleanDecoder
        implements ValuesDecoder
{
    private final RleBitPackedDecoder decoder;

    RleBooleanDecoder(byte[] data, int offset, int end)
    {
        this.decoder = RleBitPackedDecoder.withLengthPrefix(data, offset, end, 1);
    }

    @Override
    public void read(ValueBuffer out, int count)
    {
        int[] target = out.ints(count);
        decoder.read(target, out.count, count);
        out.count += count;
    }

    @Override
    public void readSelected(ValueBuffer out, int count, long[] selected)
    {
        int start = out.count;
        read(out, count);
        out.retainInts(start, count, selected);
    }

    @Override
    public void skip(int count)
    {
        decoder.skip(count);
    }
}
