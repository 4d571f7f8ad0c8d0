package io.tarn.vector.filter;

import io.tarn.index.predicate.Predicate.Comparison;
import io.tarn.index.predicate.Predicate.Comparison.Operator;
import io.tarn.types.Timestamp;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampVector;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * Rows of {@code vector} whose values lie in {@code [low, high]} (none when {@code empty})
 * are TRUE, other non-null rows FALSE; the reverse when not {@code trueInside}.
 */
record IntegerRange(BaseFixedWidthVector vector, long low, long high, boolean empty, boolean trueInside)
{
    private static final int MAX_LONG_DECIMAL_PRECISION = 18;

    /**
     * A comparison of an integer-like column (integers, dates, times, timestamps, decimals of up
     * to 18 digits) as a test of its values against a range, or null for other comparisons.
     */
    static IntegerRange of(Comparison comparison, FieldVector vector)
    {
        Object literal = comparison.literal();
        return switch (comparison.field().type().root()) {
            case TINYINT, SMALLINT, INT, BIGINT, DATE, TIME ->
                    IntegerRange.of(VectorAccess.integerVector(comparison.field(), vector), ((Number) literal).longValue(), false, comparison.op());
            case TIMESTAMP, TIMESTAMP_LTZ -> {
                TimeStampVector timestamps = VectorAccess.as(vector, TimeStampVector.class, comparison.field());
                long[] scaled = VectorAccess.inUnit((Timestamp) literal, VectorAccess.unit(timestamps));
                yield scaled == null ? null : IntegerRange.of(timestamps, scaled[0], scaled[1] != 0, comparison.op());
            }
            case DECIMAL -> {
                // up to 18 digits the unscaled values are longs, compared like integers with the
                // literal at the column's scale (rounded down, remembering a cut-off fraction)
                DecimalVector decimals = VectorAccess.as(vector, DecimalVector.class, comparison.field());
                if (decimals.getPrecision() > MAX_LONG_DECIMAL_PRECISION || !(literal instanceof BigDecimal value)) {
                    yield null;
                }
                BigDecimal floor = value.setScale(decimals.getScale(), RoundingMode.FLOOR);
                BigInteger unscaled = floor.unscaledValue();
                yield unscaled.bitLength() >= Long.SIZE ? null : IntegerRange.of(decimals, unscaled.longValue(), floor.compareTo(value) != 0, comparison.op());
            }
            default -> null;
        };
    }

    /**
     * {@code value op literal}, where the literal is {@code literal} plus a fraction in
     * (0, 1) when {@code literalHasFraction}.
     */
    static IntegerRange of(BaseFixedWidthVector vector, long literal, boolean literalHasFraction, Operator op)
    {
        long low = Long.MIN_VALUE;
        long high = Long.MAX_VALUE;
        boolean empty = false;
        switch (op) {
            case EQUAL, NOT_EQUAL -> {
                low = literal;
                high = literal;
                empty = literalHasFraction;
            }
            case LESS_THAN -> {
                if (literalHasFraction) {
                    high = literal;
                }
                else if (literal == Long.MIN_VALUE) {
                    empty = true;
                }
                else {
                    high = literal - 1;
                }
            }
            case LESS_THAN_OR_EQUAL -> high = literal;
            case GREATER_THAN -> {
                if (literal == Long.MAX_VALUE) {
                    empty = true;
                }
                else {
                    low = literal + 1;
                }
            }
            case GREATER_THAN_OR_EQUAL -> {
                if (!literalHasFraction) {
                    low = literal;
                }
                else if (literal == Long.MAX_VALUE) {
                    empty = true;
                }
                else {
                    low = literal + 1;
                }
            }
        }
        return new IntegerRange(vector, low, high, empty, op != Operator.NOT_EQUAL);
    }

    /**
     * The conjunction of two ranges TRUE inside on the same vector: under Kleene logic a
     * non-null row is TRUE when inside both, FALSE when outside either.
     */
    IntegerRange intersect(IntegerRange other)
    {
        long newLow = Math.max(low, other.low);
        long newHigh = Math.min(high, other.high);
        return new IntegerRange(vector, newLow, newHigh, empty || other.empty || newLow > newHigh, true);
    }

    /**
     * Sets the verdicts of rows {@code [0, rows)}, 64 rows at a time: for each word of rows a
     * mask of the values inside, combined with the validity bits.
     */
    void test(int rows, Truth truth)
    {
        long[] valid = VectorAccess.validityWords(vector, rows);
        int width = vector.getTypeWidth();
        // one bounds check here, then unchecked reads: a ByteBuffer view of the ArrowBuf cost a
        // few microseconds to create, which was most of a selective filter's time per batch
        long data = VectorAccess.checkedAddress(vector.getDataBuffer(), (long) rows * width);
        long span = high - low;
        truth.assignByWord(valid, (first, count) -> {
            long inside = empty ? 0 : insideMask(data, width, first, count, low, span);
            return trueInside ? inside : ~inside;
        });
    }

    /**
     * Bit {@code i} set when the value of row {@code first + i} lies in {@code [low, low + span]}
     * (compared unsigned after subtracting {@code low}, which is exact for every long range).
     */
    private static long insideMask(long data, int width, int first, int count, long low, long span)
    {
        long mask = 0;
        switch (width) {
            case 1 -> {
                for (int i = 0; i < count; i++) {
                    mask |= (Long.compareUnsigned(MemoryUtil.getByte(data + first + i) - low, span) <= 0 ? 1L : 0L) << i;
                }
            }
            case 2 -> {
                for (int i = 0; i < count; i++) {
                    mask |= (Long.compareUnsigned(MemoryUtil.getShort(data + ((long) (first + i) << 1)) - low, span) <= 0 ? 1L : 0L) << i;
                }
            }
            case 4 -> {
                for (int i = 0; i < count; i++) {
                    mask |= (Long.compareUnsigned(MemoryUtil.getInt(data + ((long) (first + i) << 2)) - low, span) <= 0 ? 1L : 0L) << i;
                }
            }
            case 8 -> {
                for (int i = 0; i < count; i++) {
                    mask |= (Long.compareUnsigned(MemoryUtil.getLong(data + ((long) (first + i) << 3)) - low, span) <= 0 ? 1L : 0L) << i;
                }
            }
            default -> {
                // a 128-bit decimal of at most 18 digits: the low little-endian word is the value
                for (int i = 0; i < count; i++) {
                    mask |= (Long.compareUnsigned(MemoryUtil.getLong(data + ((long) (first + i) << 4)) - low, span) <= 0 ? 1L : 0L) << i;
                }
            }
        }
        return mask;
    }
}
