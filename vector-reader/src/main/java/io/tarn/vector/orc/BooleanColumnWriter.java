package io.tarn.vector.orc;

import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;

/**
 * BOOLEAN columns: the values in DATA, one bit each.
 */
final class BooleanColumnWriter
        extends ColumnWriter
{
    private final OrcOutputBuffer data;
    private final BooleanEncoder values;

    BooleanColumnWriter(int column, StatisticsBuilder statistics, WriterContext context)
    {
        super(column, statistics, context);
        this.data = context.newBuffer();
        this.values = new BooleanEncoder(data);
    }

    @Override
    void writeValues(FieldVector vector, int from, int to, StatisticsBuilder statistics)
    {
        BitVector bits = (BitVector) vector;
        BooleanStatistics booleans = (BooleanStatistics) statistics;
        for (int slot = from; slot < to; slot++) {
            if (!bits.isNull(slot)) {
                boolean value = bits.get(slot) != 0;
                values.write(value);
                booleans.update(value);
            }
        }
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
