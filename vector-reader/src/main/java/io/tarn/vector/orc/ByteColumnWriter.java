package io.tarn.vector.orc;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TinyIntVector;

/**
 * BYTE columns (Paimon's TINYINT): the values in DATA, byte RLE.
 */
final class ByteColumnWriter
        extends DataStreamColumnWriter<ByteRleEncoder>
{
    ByteColumnWriter(int column, StatisticsBuilder statistics, WriterContext context)
    {
        super(column, statistics, context, ByteRleEncoder::new, StripeFooter.Encoding.Kind.DIRECT);
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
}
