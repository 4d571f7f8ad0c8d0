package io.tarn.vector.orc;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * The statistics of a DECIMAL column: the bounds and the sum, which orc-core keeps for a
 * precision up to 18 as a long of the column's scale, dropped past 18 digits, and for a wider
 * one as a decimal, dropped past 38 digits.
 */
final class DecimalStatistics
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
