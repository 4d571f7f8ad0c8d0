package io.tarn.vector.orc;

/**
 * The statistics of a BOOLEAN column: the count of true values, which orc-core writes as the
 * single bucket of its bucket statistics; Paimon derives the bounds from it.
 */
final class BooleanStatistics
        extends StatisticsBuilder
{
    long trueCount;

    void update(boolean value)
    {
        count++;
        if (value) {
            trueCount++;
        }
    }

    @Override
    StatisticsBuilder empty()
    {
        return new BooleanStatistics();
    }

    @Override
    void mergeValues(StatisticsBuilder other)
    {
        trueCount += ((BooleanStatistics) other).trueCount;
    }

    @Override
    void serializeValues(ProtobufWriter message)
    {
        message.writeMessage(5, new ProtobufWriter().writePackedUnsigned(1, new long[] {trueCount}, 1));
    }
}
