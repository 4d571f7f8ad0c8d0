package io.tarn.vector.orc;

/**
 * The statistics of a FLOAT or DOUBLE column: the bounds, compared with {@code <} as orc-core
 * compares them (see {@link StatisticsBuilder} on NaN), and the sum.
 */
final class DoubleStatistics
        extends StatisticsBuilder
{
    boolean hasMinimum;
    double minimum = Double.MAX_VALUE;
    double maximum = Double.MIN_VALUE;
    double sum;

    void update(double value)
    {
        count++;
        if (!hasMinimum) {
            hasMinimum = true;
            minimum = value;
            maximum = value;
        }
        else if (value < minimum) {
            minimum = value;
        }
        else if (value > maximum) {
            maximum = value;
        }
        sum += value;
    }

    @Override
    StatisticsBuilder empty()
    {
        return new DoubleStatistics();
    }

    @Override
    void mergeValues(StatisticsBuilder other)
    {
        DoubleStatistics that = (DoubleStatistics) other;
        if (!hasMinimum) {
            hasMinimum = that.hasMinimum;
            minimum = that.minimum;
            maximum = that.maximum;
        }
        else if (that.hasMinimum) {
            // ORC's comparisons, not Math.min: a NaN on either side changes nothing
            if (that.minimum < minimum) {
                minimum = that.minimum;
            }
            if (that.maximum > maximum) {
                maximum = that.maximum;
            }
        }
        sum += that.sum;
    }

    @Override
    void serializeValues(ProtobufWriter message)
    {
        ProtobufWriter doubles = new ProtobufWriter();
        if (hasMinimum) {
            doubles.writeDouble(1, minimum).writeDouble(2, maximum);
        }
        message.writeMessage(3, doubles.writeDouble(3, sum));
    }
}
