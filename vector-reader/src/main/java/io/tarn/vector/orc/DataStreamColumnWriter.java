package io.tarn.vector.orc;

import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/**
 * A column whose values are one DATA stream written by one encoder (BOOLEAN, BYTE and the integer
 * columns): its positions in the row index, its end of stripe and its buffered size are the
 * encoder's and the stream's alone.
 */
abstract class DataStreamColumnWriter<E extends ValueEncoder>
        extends ColumnWriter
{
    private final OrcOutputBuffer data;
    private final StripeFooter.Encoding.Kind encoding;
    final E values;

    DataStreamColumnWriter(int column, StatisticsBuilder statistics, WriterContext context, Function<OrcOutputBuffer, E> encoder, StripeFooter.Encoding.Kind encoding)
    {
        super(column, statistics, context);
        this.data = context.newBuffer();
        this.values = encoder.apply(data);
        this.encoding = requireNonNull(encoding, "encoding is null");
    }

    @Override
    final void recordValuePositions(OrcOutputBuffer.PositionList positions)
    {
        values.recordPosition(positions);
    }

    @Override
    final void finishValueStreams(StripeParts parts)
    {
        values.flush();
        data.finish();
        parts.addData(StripeFooter.Stream.DATA, column, data);
    }

    @Override
    final StripeFooter.Encoding.Kind encoding()
    {
        return encoding;
    }

    @Override
    final long valueBufferedSize()
    {
        return data.size();
    }

    @Override
    final void resetValueStreams()
    {
        data.reset();
    }
}
