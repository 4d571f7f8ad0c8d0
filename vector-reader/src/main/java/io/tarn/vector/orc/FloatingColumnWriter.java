package io.tarn.vector.orc;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;

/**
 * FLOAT and DOUBLE columns: the IEEE 754 values in DATA, little-endian, 4 or 8 bytes each.
 */
final class FloatingColumnWriter
        extends ColumnWriter
{
    private final OrcOutputBuffer data;
    private final boolean isFloat;
    private final byte[] scratch = new byte[8];

    FloatingColumnWriter(int column, boolean isFloat, StatisticsBuilder statistics, WriterContext context)
    {
        super(column, statistics, context);
        this.data = context.newBuffer();
        this.isFloat = isFloat;
    }

    @Override
    void writeValues(FieldVector vector, int from, int to, StatisticsBuilder statistics)
    {
        DoubleStatistics doubles = (DoubleStatistics) statistics;
        for (int slot = from; slot < to; slot++) {
            if (vector.isNull(slot)) {
                continue;
            }
            if (isFloat) {
                float value = ((Float4Vector) vector).get(slot);
                writeLittleEndian(Float.floatToRawIntBits(value), 4);
                doubles.update(value);
                if (hasBloomFilter()) {
                    // orc-core widens a float to a double before hashing it
                    addToBloomFilter(BloomFilterHash.floating(value));
                }
            }
            else {
                double value = ((Float8Vector) vector).get(slot);
                writeLittleEndian(Double.doubleToRawLongBits(value), 8);
                doubles.update(value);
                if (hasBloomFilter()) {
                    addToBloomFilter(BloomFilterHash.floating(value));
                }
            }
        }
    }

    @Override
    boolean supportsBloomFilter()
    {
        return true;
    }

    private void writeLittleEndian(long bits, int bytes)
    {
        for (int i = 0; i < bytes; i++) {
            scratch[i] = (byte) (bits >>> (8 * i));
        }
        data.write(scratch, 0, bytes);
    }

    @Override
    void recordValuePositions(OrcOutputBuffer.PositionList positions)
    {
        data.recordPosition(positions);
    }

    @Override
    void finishValueStreams(StripeParts parts)
    {
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
