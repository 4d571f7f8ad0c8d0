package io.tarn.vector.orc;

/**
 * The statistics of a DATE column: the bounds in days since the epoch.
 */
final class DateStatistics
        extends StatisticsBuilder
{
    int minimum = Integer.MAX_VALUE;
    int maximum = Integer.MIN_VALUE;

    @Override
    void updateLong(long value)
    {
        count++;
        minimum = Math.min(minimum, (int) value);
        maximum = Math.max(maximum, (int) value);
    }

    @Override
    StatisticsBuilder empty()
    {
        return new DateStatistics();
    }

    @Override
    void mergeValues(StatisticsBuilder other)
    {
        DateStatistics that = (DateStatistics) other;
        minimum = Math.min(minimum, that.minimum);
        maximum = Math.max(maximum, that.maximum);
    }

    @Override
    void serializeValues(ProtobufWriter message)
    {
        ProtobufWriter dates = new ProtobufWriter();
        if (count != 0) {
            dates.writeSigned(1, minimum).writeSigned(2, maximum);
        }
        message.writeMessage(7, dates);
    }
}
