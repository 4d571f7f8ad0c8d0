package io.tarn.vector.orc;

import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;

/**
 * BOOLEAN columns: the values in DATA, one bit each.
 */
final class BooleanColumnWriter
        extends DataStreamColumnWriter<BooleanEncoder>
{
    BooleanColumnWriter(int column, StatisticsBuilder statistics, WriterContext context)
    {
        super(column, statistics, context, BooleanEncoder::new, StripeFooter.Encoding.Kind.DIRECT);
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
}
