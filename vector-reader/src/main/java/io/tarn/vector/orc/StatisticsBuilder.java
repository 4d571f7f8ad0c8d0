package io.tarn.vector.orc;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The statistics of one ORC column over a row group, a stripe or a file, gathered as orc-core's
 * writer gathers them (its {@code ColumnStatisticsImpl}) so that readers pruning by them, and
 * Paimon taking a file's statistics from its footer, see what they would in a file of Paimon's
 * writer: a row group's statistics follow the values in order, a stripe's merge its row groups',
 * the file's merge its stripes'. Comparisons are ORC's: {@code <} on doubles (a NaN met first
 * stays minimum and maximum, NaN met later changes nothing), unsigned bytes on strings, whose
 * bounds longer than 1,024 bytes are kept truncated as lower and upper bounds.
 */
abstract class StatisticsBuilder
{
    long count;
    boolean hasNull;

    static StatisticsBuilder create(OrcType.Kind kind, int precision, int scale)
    {
        return switch (kind) {
            case BOOLEAN -> new BooleanStatistics();
            case BYTE, SHORT, INT, LONG -> new IntegerStatistics();
            case FLOAT, DOUBLE -> new DoubleStatistics();
            case STRING, VARCHAR, CHAR -> new StringStatistics();
            case BINARY -> new BinaryStatistics();
            case DECIMAL -> new DecimalStatistics(precision, scale);
            case DATE -> new DateStatistics();
            case TIMESTAMP, TIMESTAMP_INSTANT -> new TimestampStatistics();
            case LIST, MAP -> new CollectionStatistics();
            default -> new StructStatistics();
        };
    }

    /**
     * A new, empty builder of the same kind.
     */
    abstract StatisticsBuilder empty();

    void addNull()
    {
        hasNull = true;
    }

    /**
     * Adds the statistics of {@code other}, which is of the same kind.
     */
    void merge(StatisticsBuilder other)
    {
        count += other.count;
        hasNull |= other.hasNull;
        mergeValues(other);
    }

    abstract void mergeValues(StatisticsBuilder other);

    /**
     * The {@code ColumnStatistics} message.
     */
    final ProtobufWriter serialize()
    {
        ProtobufWriter message = new ProtobufWriter().writeUnsigned(1, count);
        serializeValues(message);
        return message.writeBoolean(10, hasNull);
    }

    abstract void serializeValues(ProtobufWriter message);

    void updateLong(long value)
    {
        throw new UnsupportedOperationException(getClass().getSimpleName());
    }

    static final class StructStatistics
            extends StatisticsBuilder
    {
        void addValue()
        {
            count++;
        }

        @Override
        StatisticsBuilder empty()
        {
            return new StructStatistics();
        }

        @Override
        void mergeValues(StatisticsBuilder other) {}

        @Override
        void serializeValues(ProtobufWriter message) {}
    }

    static final class BooleanStatistics
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

    static final class IntegerStatistics
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

    static final class DoubleStatistics
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

    static final class StringStatistics
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

    static final class BinaryStatistics
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

    /**
     * Decimals: orc-core keeps the sum of a precision up to 18 as a long of the column's scale,
     * dropped past 18 digits, and a wider one as a decimal, dropped past 38 digits.
     */
    static final class DecimalStatistics
            extends StatisticsBuilder
    {
        private static final BigInteger MAX_DECIMAL64 = BigInteger.TEN.pow(18).subtract(BigInteger.ONE);
        private static final int MAX_PRECISION = 38;

        final int precision;
        final int scale;
        BigDecimal minimum;
        BigDecimal maximum;
        // null once it overflowed
        BigDecimal sum = BigDecimal.ZERO;

        DecimalStatistics(int precision, int scale)
        {
            this.precision = precision;
            this.scale = scale;
        }

        void update(BigDecimal value)
        {
            count++;
            if (minimum == null) {
                minimum = value;
                maximum = value;
            }
            else if (minimum.compareTo(value) > 0) {
                minimum = value;
            }
            else if (maximum.compareTo(value) < 0) {
                maximum = value;
            }
            addToSum(value);
        }

        private void addToSum(BigDecimal value)
        {
            if (sum == null) {
                return;
            }
            sum = sum.add(value);
            if (precision <= 18) {
                if (sum.setScale(scale, RoundingMode.UNNECESSARY).unscaledValue().abs().compareTo(MAX_DECIMAL64) > 0) {
                    sum = null;
                }
                return;
            }
            // Hive's decimal keeps 38 digits: fraction digits past them are rounded off, more
            // integer digits overflow
            if (sum.precision() > MAX_PRECISION) {
                int integerDigits = sum.precision() - sum.scale();
                if (integerDigits > MAX_PRECISION) {
                    sum = null;
                    return;
                }
                sum = sum.setScale(MAX_PRECISION - integerDigits, RoundingMode.HALF_UP);
                if (sum.precision() > MAX_PRECISION) {
                    sum = sum.precision() - sum.scale() > MAX_PRECISION ? null : sum.setScale(sum.scale() - 1, RoundingMode.HALF_UP);
                }
            }
        }

        @Override
        StatisticsBuilder empty()
        {
            return new DecimalStatistics(precision, scale);
        }

        @Override
        void mergeValues(StatisticsBuilder other)
        {
            DecimalStatistics that = (DecimalStatistics) other;
            if (that.minimum != null) {
                if (minimum == null) {
                    minimum = that.minimum;
                    maximum = that.maximum;
                }
                else {
                    if (minimum.compareTo(that.minimum) > 0) {
                        minimum = that.minimum;
                    }
                    if (maximum.compareTo(that.maximum) < 0) {
                        maximum = that.maximum;
                    }
                }
            }
            if (that.sum == null) {
                sum = null;
            }
            else {
                addToSum(that.sum);
            }
        }

        @Override
        void serializeValues(ProtobufWriter message)
        {
            ProtobufWriter decimals = new ProtobufWriter();
            if (count != 0 && minimum != null) {
                decimals.writeString(1, text(minimum)).writeString(2, text(maximum));
            }
            if (sum != null) {
                decimals.writeString(3, text(sum));
            }
            message.writeMessage(6, decimals);
        }

        /**
         * A decimal as Hive's decimal prints it: no exponent, no trailing fraction zeros.
         */
        static String text(BigDecimal value)
        {
            if (value.signum() == 0) {
                return "0";
            }
            BigDecimal stripped = value.stripTrailingZeros();
            return (stripped.scale() < 0 ? stripped.setScale(0) : stripped).toPlainString();
        }
    }

    static final class DateStatistics
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

    /**
     * Milliseconds (a wall clock as if in UTC for TIMESTAMP, an instant for TIMESTAMP_INSTANT)
     * and the nanoseconds below the millisecond of the smallest and largest value; stored as
     * {@code minimumUtc}, {@code maximumUtc} and, when not 0 and 999,999, the nanoseconds plus one.
     */
    static final class TimestampStatistics
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

    static final class CollectionStatistics
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
}
