package io.tarn.vector.orc;

/**
 * The statistics of a BINARY column: only the sum of the lengths, as orc-core keeps no bounds
 * of binaries.
 */
final class BinaryStatistics
        extends StatisticsBuilder
{
    long sum;

    void update(int length)
    {
        count++;
        sum += length;
    }

    @Override
    StatisticsBuilder empty()
    {
        return new BinaryStatistics();
    }

    @Override
    void mergeValues(StatisticsBuilder other)
    {
        sum += ((BinaryStatistics) other).sum;
    }

    @Override
    void serializeValues(ProtobufWriter message)
    {
        message.writeMessage(8, new ProtobufWriter().writeSigned(1, sum));
    }
}
