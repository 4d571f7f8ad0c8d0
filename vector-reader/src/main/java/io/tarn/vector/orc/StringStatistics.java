package io.tarn.vector.orc;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The statistics of a STRING, VARCHAR or CHAR column: the bounds, compared as unsigned bytes
 * and kept truncated as lower and upper bounds past 1,024 bytes, and the sum of the lengths.
 */
final class StringStatistics
        extends StatisticsBuilder
{
    static final int MAX_BYTES_RECORDED = 1024;

    byte[] minimum;
    byte[] maximum;
    boolean lowerBound;
    boolean upperBound;
    long sum;

    void update(byte[] value, int offset, int length)
    {
        count++;
        if (minimum == null) {
            setMinimum(value, offset, length);
            setMaximum(value, offset, length);
        }
        else if (Arrays.compareUnsigned(minimum, 0, minimum.length, value, offset, offset + length) > 0) {
            setMinimum(value, offset, length);
        }
        else if (Arrays.compareUnsigned(maximum, 0, maximum.length, value, offset, offset + length) < 0) {
            setMaximum(value, offset, length);
        }
        sum += length;
    }

    private void setMinimum(byte[] value, int offset, int length)
    {
        lowerBound = length > MAX_BYTES_RECORDED;
        minimum = lowerBound ? Utf8Bounds.truncateLower(value, offset, MAX_BYTES_RECORDED) : Arrays.copyOfRange(value, offset, offset + length);
    }

    private void setMaximum(byte[] value, int offset, int length)
    {
        upperBound = length > MAX_BYTES_RECORDED;
        maximum = upperBound ? Utf8Bounds.truncateUpper(value, offset, MAX_BYTES_RECORDED) : Arrays.copyOfRange(value, offset, offset + length);
    }

    @Override
    StatisticsBuilder empty()
    {
        return new StringStatistics();
    }

    @Override
    void mergeValues(StatisticsBuilder other)
    {
        StringStatistics that = (StringStatistics) other;
        if (that.minimum == null) {
            return;
        }
        if (minimum == null) {
            minimum = that.minimum;
            maximum = that.maximum;
            lowerBound = that.lowerBound;
            upperBound = that.upperBound;
        }
        else {
            if (Arrays.compareUnsigned(minimum, that.minimum) > 0) {
                minimum = that.minimum;
                lowerBound = that.lowerBound;
            }
            if (Arrays.compareUnsigned(maximum, that.maximum) < 0) {
                maximum = that.maximum;
                upperBound = that.upperBound;
            }
        }
        sum += that.sum;
    }

    @Override
    void serializeValues(ProtobufWriter message)
    {
        ProtobufWriter strings = new ProtobufWriter();
        if (count != 0) {
            // orc-core writes them as Java strings; the bytes are UTF-8 already
            strings.writeString(lowerBound ? 4 : 1, new String(minimum, StandardCharsets.UTF_8));
            strings.writeString(upperBound ? 5 : 2, new String(maximum, StandardCharsets.UTF_8));
            strings.writeSigned(3, sum);
        }
        message.writeMessage(4, strings);
    }
}
