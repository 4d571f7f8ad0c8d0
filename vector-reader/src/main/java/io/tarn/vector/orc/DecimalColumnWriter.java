package io.tarn.vector.orc;

import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * DECIMAL columns, DIRECT_V2: each unscaled value in DATA as an unbounded zigzag base-128
 * varint, its scale in SECONDARY (signed integer RLE v2). Values are written at the column's
 * scale, as Arrow holds them.
 */
final class DecimalColumnWriter
        extends ColumnWriter
{
    private final int precision;
    private final int scale;
    private final OrcOutputBuffer data;
    private final OrcOutputBuffer scaleBuffer;
    private final IntegerRleV2Encoder scales;

    DecimalColumnWriter(int column, int precision, int scale, StatisticsBuilder statistics, WriterContext context)
    {
        super(column, statistics, context);
        this.precision = precision;
        this.scale = scale;
        this.data = context.newBuffer();
        this.scaleBuffer = context.newBuffer();
        this.scales = new IntegerRleV2Encoder(scaleBuffer, true);
    }

    @Override
    void writeValues(FieldVector vector, int from, int to, StatisticsBuilder statistics)
    {
        DecimalVector decimals = (DecimalVector) vector;
        DecimalStatistics decimalStatistics = (DecimalStatistics) statistics;
        for (int slot = from; slot < to; slot++) {
            if (decimals.isNull(slot)) {
                continue;
            }
            if (precision <= 18) {
                long unscaled = decimals.getDataBuffer().getLong((long) slot * DecimalVector.TYPE_WIDTH);
                writeVarint((unscaled << 1) ^ (unscaled >> 63));
                decimalStatistics.update(BigDecimal.valueOf(unscaled, scale));
            }
            else {
                BigDecimal value = decimals.getObject(slot);
                writeZigzag(value.unscaledValue());
                decimalStatistics.update(value);
            }
            scales.write(scale);
        }
    }

    private void writeVarint(long value)
    {
        while ((value & ~0x7FL) != 0) {
            data.write((int) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        data.write((int) value);
    }

    private void writeZigzag(BigInteger value)
    {
        BigInteger zigzag = value.signum() >= 0 ? value.shiftLeft(1) : value.shiftLeft(1).negate().subtract(BigInteger.ONE);
        while (zigzag.bitLength() > 7) {
            data.write(zigzag.intValue() & 0x7F | 0x80);
            zigzag = zigzag.shiftRight(7);
        }
        data.write(zigzag.intValue());
    }

    @Override
    void recordValuePositions(OrcOutputBuffer.PositionList positions)
    {
        data.recordPosition(positions);
        scales.recordPosition(positions);
    }

    @Override
    void finishValueStreams(StripeParts parts)
    {
        scales.flush();
        data.finish();
        scaleBuffer.finish();
        parts.addData(StripeFooter.Stream.DATA, column, data);
        parts.addData(StripeFooter.Stream.SECONDARY, column, scaleBuffer);
    }

    @Override
    StripeFooter.Encoding.Kind encoding()
    {
        return StripeFooter.Encoding.Kind.DIRECT_V2;
    }

    @Override
    long valueBufferedSize()
    {
        return data.size() + scaleBuffer.size();
    }

    @Override
    void resetValueStreams()
    {
        data.reset();
        scaleBuffer.reset();
    }
}
