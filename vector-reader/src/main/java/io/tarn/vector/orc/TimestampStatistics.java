package io.tarn.vector.orc;

/**
 * The statistics of a TIMESTAMP or TIMESTAMP_INSTANT column: milliseconds (a wall clock as if in
 * UTC for TIMESTAMP, an instant for TIMESTAMP_INSTANT) and the nanoseconds below the millisecond
 * of the smallest and largest value; stored as {@code minimumUtc}, {@code maximumUtc} and, when
 * not 0 and 999,999, the nanoseconds plus one.
 */
final class TimestampStatistics
        extends StatisticsBuilder
{
    private static final int DEFAULT_MIN_NANOS = 0;
    private static final int DEFAULT_MAX_NANOS = 999_999;

    long minimum = Long.MAX_VALUE;
    long maximum = Long.MIN_VALUE;
    int minimumNanos = DEFAULT_MIN_NANOS;
    int maximumNanos = DEFAULT_MAX_NANOS;

    void update(long millis, int nanos)
    {
        count++;
        if (minimum > maximum) {
            minimum = millis;
            maximum = millis;
            minimumNanos = nanos;
            maximumNanos = nanos;
            return;
        }
        if (minimum >= millis) {
            if (minimum > millis || nanos < minimumNanos) {
                minimumNanos = nanos;
            }
            minimum = millis;
        }
        if (maximum <= millis) {
            if (maximum < millis || nanos > maximumNanos) {
                maximumNanos = nanos;
            }
            maximum = millis;
        }
    }

    @Override
    StatisticsBuilder empty()
    {
        return new TimestampStatistics();
    }

    @Override
    void mergeValues(StatisticsBuilder other)
    {
        TimestampStatistics that = (TimestampStatistics) other;
        if (that.minimum > that.maximum) {
            return;
        }
        if (minimum > maximum) {
            minimum = that.minimum;
            maximum = that.maximum;
            minimumNanos = that.minimumNanos;
            maximumNanos = that.maximumNanos;
            return;
        }
        if (minimum >= that.minimum) {
            if (minimum > that.minimum || minimumNanos > that.minimumNanos) {
                minimumNanos = that.minimumNanos;
            }
            minimum = that.minimum;
        }
        if (maximum <= that.maximum) {
            if (maximum < that.maximum || maximumNanos < that.maximumNanos) {
                maximumNanos = that.maximumNanos;
            }
            maximum = that.maximum;
        }
    }

    @Override
    void serializeValues(ProtobufWriter message)
    {
        ProtobufWriter timestamps = new ProtobufWriter();
        if (count != 0) {
            timestamps.writeSigned(3, minimum).writeSigned(4, maximum);
            if (minimumNanos != DEFAULT_MIN_NANOS) {
                timestamps.writeUnsigned(5, minimumNanos + 1);
            }
            if (maximumNanos != DEFAULT_MAX_NANOS) {
                timestamps.writeUnsigned(6, maximumNanos + 1);
            }
        }
        message.writeMessage(9, timestamps);
    }
}
