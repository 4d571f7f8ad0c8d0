package io.tarn.vector.orc;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMilliVector;

/**
 * SHORT, INT, LONG and DATE columns (Paimon's SMALLINT, INT and TIME, BIGINT, DATE): the values
 * in DATA, signed integer RLE v2.
 */
final class LongColumnWriter
        extends DataStreamColumnWriter<IntegerRleV2Encoder>
{
    LongColumnWriter(int column, StatisticsBuilder statistics, WriterContext context)
    {
        super(column, statistics, context, data -> new IntegerRleV2Encoder(data, true), StripeFooter.Encoding.Kind.DIRECT_V2);
    }

    @Override
    void writeValues(FieldVector vector, int from, int to, StatisticsBuilder statistics)
    {
        for (int slot = from; slot < to; slot++) {
            if (!vector.isNull(slot)) {
                long value = value(vector, slot);
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

    private static long value(FieldVector vector, int slot)
    {
        if (vector instanceof IntVector ints) {
            return ints.get(slot);
        }
        if (vector instanceof BigIntVector longs) {
            return longs.get(slot);
        }
        if (vector instanceof DateDayVector dates) {
            return dates.get(slot);
        }
        if (vector instanceof SmallIntVector shorts) {
            return shorts.get(slot);
        }
        if (vector instanceof TimeMilliVector times) {
            return times.get(slot);
        }
        throw new IllegalArgumentException("Unexpected vector " + vector.getClass().getSimpleName() + " for integer column " + vector.getField());
    }
}
