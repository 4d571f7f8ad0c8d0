package io.tarn.vector.orc;

/**
 * The statistics of a BYTE, SHORT, INT or LONG column: the bounds and a sum that orc-core
 * drops once it overflows a long.
 */
final class IntegerStatistics
        extends StatisticsBuilder
{
    boolean hasMinimum;
    long minimum = Long.MAX_VALUE;
    long maximum = Long.MIN_VALUE;
    long sum;
    boolean overflow;

    @Override
    void updateLong(long value)
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
        addToSum(value);
    }

    private void addToSum(long value)
    {
        if (!overflow) {
            try {
                sum = Math.addExact(sum, value);
            }
            catch (ArithmeticException e) {
                overflow = true;
            }
        }
    }

    @Override
    StatisticsBuilder empty()
    {
        return new IntegerStatistics();
    }

    @Override
    void mergeValues(StatisticsBuilder other)
    {
        IntegerStatistics that = (IntegerStatistics) other;
        if (!hasMinimum) {
            hasMinimum = that.hasMinimum;
            minimum = that.minimum;
            maximum = that.maximum;
        }
        else if (that.hasMinimum) {
            minimum = Math.min(minimum, that.minimum);
            maximum = Math.max(maximum, that.maximum);
        }
        overflow |= that.overflow;
        addToSum(that.sum);
    }

    @Override
    void serializeValues(ProtobufWriter message)
    {
        ProtobufWriter integers = new ProtobufWriter();
        if (hasMinimum) {
            integers.writeSigned(1, minimum).writeSigned(2, maximum);
        }
        if (!overflow) {
            integers.writeSigned(3, sum);
        }
        message.writeMessage(2, integers);
    }
}
