package io.tarn.vector.orc;

/**
 * The statistics of a LIST or MAP column: the bounds and the sum of the number of elements of
 * its values.
 */
final class CollectionStatistics
        extends StatisticsBuilder
{
    long minimum = Long.MAX_VALUE;
    long maximum;
    long sum;

    @Override
    void updateLong(long length)
    {
        count++;
        minimum = Math.min(minimum, length);
        maximum = Math.max(maximum, length);
        sum += length;
    }

    @Override
    StatisticsBuilder empty()
    {
        return new CollectionStatistics();
    }

    @Override
    void mergeValues(StatisticsBuilder other)
    {
        CollectionStatistics that = (CollectionStatistics) other;
        minimum = Math.min(minimum, that.minimum);
        maximum = Math.max(maximum, that.maximum);
        sum += that.sum;
    }

    @Override
    void serializeValues(ProtobufWriter message)
    {
        ProtobufWriter collections = new ProtobufWriter();
        if (count != 0) {
            collections.writeUnsigned(1, minimum).writeUnsigned(2, maximum);
        }
        if (sum != 0) {
            collections.writeUnsigned(3, sum);
        }
        message.writeMessage(12, collections);
    }
}
