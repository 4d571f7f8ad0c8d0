package io.tarn.vector.orc;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TinyIntVector;

/**
 * BYTE columns (Paimon's TINYINT): the values in DATA, byte RLE.
 */
final class ByteColumnWriter
        extends ColumnWriter
{
    private final OrcOutputBuffer data;
    private final ByteRleEncoder values;

    ByteColumnWriter(int column, StatisticsBuilder statistics, WriterContext context)
    {
        super(column, statistics, context);
        this.data = context.newBuffer();
        this.values = new ByteRleEncoder(data);
    }

    @Override
    void writeValues(FieldVector vector, int from, int to, StatisticsBuilder statistics)
    {
        TinyIntVector bytes = (TinyIntVector) vector;
        for (int slot = from; slot < to; slot++) {
            if (!bytes.isNull(slot)) {
                byte value = bytes.get(slot);
                values.write(value);
                statistics.updateLong(value);
                if (hasBloomFilter()) {
                    addToBloomFilter(BloomFilterHash.integer(value));
                }
            }
        }
    }

    @Override
    boolean supportsBloomFilter()
    {
        return true;
    }

    @Override
    void recordValuePositions(OrcOutputBuffer.PositionList positions)
    {
        values.recordPosition(positions);
    }

    @Override
    void finishValueStreams(StripeParts parts)
    {
        values.flush();
        data.finish();
        parts.addData(StripeFooter.Stream.DATA, column, data);
    }

    @Override
    StripeFooter.Encoding.Kind encoding()
    {
        return StripeFooter.Encoding.Kind.DIRECT;
    }

    @Override
    long valueBufferedSize()
    {
        return data.size();
    }

    @Override
    void resetValueStreams()
    {
        data.reset();
    }
}
