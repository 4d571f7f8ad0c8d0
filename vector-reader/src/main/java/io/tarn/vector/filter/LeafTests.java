package io.tarn.vector.filter;

import io.tarn.index.predicate.Predicate.Comparison;
import io.tarn.index.predicate.Predicate.Comparison.Operator;
import io.tarn.index.predicate.Predicate.In;
import io.tarn.index.predicate.Predicate.InRanges;
import io.tarn.index.predicate.SqlComparison;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.types.TimeUnit;

import java.util.Optional;
import java.util.function.LongPredicate;

/**
 * The leaves of a filter evaluated on the raw buffers of one typed column: comparisons, IN,
 * IN RANGES and starts_with on the types and literals whose vector representation allows it.
 * Each returns false (or is not called) where the caller must evaluate row by row instead;
 * null rows are left unknown.
 */
final class LeafTests
{
    private LeafTests() {}

    /**
     * Evaluates a comparison on the raw buffers when the vector and literal allow it.
     *
     * @return false when the caller must evaluate row by row instead
     */
    static boolean compare(Comparison comparison, FieldVector vector, int rows, Truth truth)
    {
        IntegerRange range = IntegerRange.of(comparison, vector);
        if (range != null) {
            range.test(rows, truth);
            return true;
        }
        Operator op = comparison.op();
        Object literal = comparison.literal();
        switch (comparison.field().type().root()) {
            case FLOAT -> {
                Float4Vector floats = VectorAccess.as(vector, Float4Vector.class, comparison.field());
                float value = (Float) literal;
                ArrowBuf data = floats.getDataBuffer();
                for (int row = 0; row < rows; row++) {
                    if (!floats.isNull(row)) {
                        truth.set(row, SqlComparison.test(op, data.getFloat((long) row * Float.BYTES), value));
                    }
                }
                return true;
            }
            case DOUBLE -> {
                Float8Vector doubles = VectorAccess.as(vector, Float8Vector.class, comparison.field());
                double value = (Double) literal;
                ArrowBuf data = doubles.getDataBuffer();
                for (int row = 0; row < rows; row++) {
                    if (!doubles.isNull(row)) {
                        truth.set(row, SqlComparison.test(op, data.getDouble((long) row * Double.BYTES), value));
                    }
                }
                return true;
            }
            case CHAR, VARCHAR, BINARY, VARBINARY -> {
                byte[] value = literal instanceof String string ? BatchFilter.utf8(string) : (byte[]) literal;
                if (value == null) {
                    return false;
                }
                compareBytes(VectorAccess.as(vector, BaseVariableWidthVector.class, comparison.field()), value, op, rows, truth);
                return true;
            }
            default -> {
                return false;
            }
        }
    }

    /**
     * Tests each row with the IN list's lookup structures (built once with the predicate): a
     * bitmap test, a hash probe or a binary search per row, never a walk over the literals.
     */
    static boolean in(In in, FieldVector vector, int rows, Truth truth)
    {
        switch (in.field().type().root()) {
            case TINYINT, SMALLINT, INT, BIGINT, DATE, TIME -> {
                testIntegers(VectorAccess.integerVector(in.field(), vector), rows, truth, in::containsLong);
                return true;
            }
            case TIMESTAMP, TIMESTAMP_LTZ -> {
                TimeStampVector timestamps = VectorAccess.as(vector, TimeStampVector.class, in.field());
                TimeUnit unit = VectorAccess.unit(timestamps);
                ArrowBuf data = timestamps.getDataBuffer();
                for (int row = 0; row < rows; row++) {
                    if (!timestamps.isNull(row)) {
                        truth.set(row, containsTimestamp(in, data.getLong((long) row * Long.BYTES), unit));
                    }
                }
                return true;
            }
            case FLOAT -> {
                Float4Vector floats = VectorAccess.as(vector, Float4Vector.class, in.field());
                ArrowBuf data = floats.getDataBuffer();
                for (int row = 0; row < rows; row++) {
                    if (!floats.isNull(row)) {
                        truth.set(row, in.containsNumber(data.getFloat((long) row * Float.BYTES)));
                    }
                }
                return true;
            }
            case DOUBLE -> {
                Float8Vector doubles = VectorAccess.as(vector, Float8Vector.class, in.field());
                ArrowBuf data = doubles.getDataBuffer();
                for (int row = 0; row < rows; row++) {
                    if (!doubles.isNull(row)) {
                        truth.set(row, in.containsNumber(data.getDouble((long) row * Double.BYTES)));
                    }
                }
                return true;
            }
            case CHAR, VARCHAR, BINARY, VARBINARY -> {
                if (!in.hasByteKeys()) {
                    return false;
                }
                BaseVariableWidthVector bytes = VectorAccess.as(vector, BaseVariableWidthVector.class, in.field());
                ArrowBuf data = bytes.getDataBuffer();
                byte[] scratch = new byte[64];
                for (int row = 0; row < rows; row++) {
                    if (!bytes.isNull(row)) {
                        int start = bytes.getStartOffset(row);
                        int length = ByteLiteral.checkedRange(data, start, bytes.getEndOffset(row));
                        if (length > scratch.length) {
                            scratch = new byte[Math.max(length, scratch.length * 2)];
                        }
                        data.getBytes(start, scratch, 0, length);
                        truth.set(row, in.containsBytes(scratch, 0, length));
                    }
                }
                return true;
            }
            default -> {
                return false;
            }
        }
    }

    /**
     * Whether a timestamp vector's raw value in {@code unit} equals an IN literal.
     */
    private static boolean containsTimestamp(In in, long value, TimeUnit unit)
    {
        return switch (unit) {
            case SECOND -> {
                if (value > Long.MAX_VALUE / 1000 || value < Long.MIN_VALUE / 1000) {
                    // beyond every literal's epoch millis
                    yield false;
                }
                yield in.containsTimestamp(value * 1000, 0);
            }
            case MILLISECOND -> in.containsTimestamp(value, 0);
            case MICROSECOND -> in.containsTimestamp(Math.floorDiv(value, 1000L), (int) Math.floorMod(value, 1000L) * 1000);
            case NANOSECOND -> in.containsTimestamp(Math.floorDiv(value, 1_000_000L), (int) Math.floorMod(value, 1_000_000L));
        };
    }

    /**
     * Tests each row of an integer-like, floating-point, string or binary column with one binary
     * search over the ranges.
     *
     * @return false when the caller must evaluate row by row instead
     */
    static boolean inRanges(InRanges inRanges, FieldVector vector, int rows, Truth truth)
    {
        switch (inRanges.field().type().root()) {
            case TINYINT, SMALLINT, INT, BIGINT, DATE, TIME -> {
                testIntegers(VectorAccess.integerVector(inRanges.field(), vector), rows, truth, inRanges::containsLong);
                return true;
            }
            case FLOAT -> {
                Float4Vector floats = VectorAccess.as(vector, Float4Vector.class, inRanges.field());
                ArrowBuf data = floats.getDataBuffer();
                for (int row = 0; row < rows; row++) {
                    if (!floats.isNull(row)) {
                        truth.set(row, inRanges.containsNumber(data.getFloat((long) row * Float.BYTES)));
                    }
                }
                return true;
            }
            case DOUBLE -> {
                Float8Vector doubles = VectorAccess.as(vector, Float8Vector.class, inRanges.field());
                ArrowBuf data = doubles.getDataBuffer();
                for (int row = 0; row < rows; row++) {
                    if (!doubles.isNull(row)) {
                        truth.set(row, inRanges.containsNumber(data.getDouble((long) row * Double.BYTES)));
                    }
                }
                return true;
            }
            case CHAR, VARCHAR, BINARY, VARBINARY -> {
                Optional<ByteRanges> ranges = ByteRanges.of(inRanges);
                if (ranges.isEmpty()) {
                    return false;
                }
                testBytes(VectorAccess.as(vector, BaseVariableWidthVector.class, inRanges.field()), rows, truth, ranges.get()::contains);
                return true;
            }
            default -> {
                return false;
            }
        }
    }

    /**
     * Tests each row of an integer-like column, 64 rows to a word, reading values and validity
     * straight from the buffers. A dynamic filter's IN list is tested on every row of the probe
     * side, where ArrowBuf's checked getters and a per-row {@code isNull} cost as much as the
     * membership test itself. A null row's slot is tested too (it holds some value) and then
     * masked out: its verdict stays unknown.
     */
    private static void testIntegers(BaseFixedWidthVector integers, int rows, Truth truth, LongPredicate test)
    {
        int width = integers.getTypeWidth();
        long data = VectorAccess.checkedAddress(integers.getDataBuffer(), (long) rows * width);
        truth.assignByWord(VectorAccess.validityWords(integers, rows), (first, count) -> {
            long inside = 0;
            for (int i = 0; i < count; i++) {
                inside |= (test.test(VectorAccess.integerAt(data, width, first + i)) ? 1L : 0L) << i;
            }
            return inside;
        });
    }

    static void startsWith(BaseVariableWidthVector strings, byte[] prefix, int rows, Truth truth)
    {
        // a UTF-8 byte prefix ends on a character boundary of a well-formed value, so it is a code-point prefix
        testBytes(strings, rows, truth, new ByteLiteral(prefix)::isPrefixAt);
    }

    private interface BytesTest
    {
        boolean test(long address, int length);
    }

    /**
     * Tests the bytes of each non-null row where they lie in the data buffer; null rows stay unknown.
     */
    private static void testBytes(BaseVariableWidthVector strings, int rows, Truth truth, BytesTest test)
    {
        ArrowBuf data = strings.getDataBuffer();
        long address = data.memoryAddress();
        for (int row = 0; row < rows; row++) {
            if (!strings.isNull(row)) {
                int start = strings.getStartOffset(row);
                int length = ByteLiteral.checkedRange(data, start, strings.getEndOffset(row));
                truth.set(row, test.test(address + start, length));
            }
        }
    }

    private static boolean test(Operator op, int order)
    {
        return switch (op) {
            case EQUAL -> order == 0;
            case NOT_EQUAL -> order != 0;
            case LESS_THAN -> order < 0;
            case LESS_THAN_OR_EQUAL -> order <= 0;
            case GREATER_THAN -> order > 0;
            case GREATER_THAN_OR_EQUAL -> order >= 0;
        };
    }

    /**
     * Tests each row's bytes against {@code value} by {@code op}, in unsigned lexicographic order.
     */
    private static void compareBytes(BaseVariableWidthVector strings, byte[] value, Operator op, int rows, Truth truth)
    {
        if (rows == 0) {
            return;
        }
        long[] valid = VectorAccess.validityWords(strings, rows);
        ArrowBuf offsets = strings.getOffsetBuffer();
        ArrowBuf data = strings.getDataBuffer();
        long address = data.memoryAddress();
        ByteLiteral literal = new ByteLiteral(value);
        // equality needs no order: most values differ in length or in their first bytes
        boolean equality = op == Operator.EQUAL || op == Operator.NOT_EQUAL;
        boolean equalIsTrue = op == Operator.EQUAL;
        if ((long) (rows + 1) * BaseVariableWidthVector.OFFSET_WIDTH > offsets.capacity()) {
            throw new IllegalStateException("Offset buffer of " + offsets.capacity() + " bytes for " + rows + " rows");
        }
        // unchecked reads, as in ByteLiteral: the buffer's range was checked just above
        long offsetAddress = offsets.memoryAddress();
        int start = MemoryUtil.getInt(offsetAddress);
        for (int row = 0; row < rows; row++) {
            int end = MemoryUtil.getInt(offsetAddress + (long) (row + 1) * BaseVariableWidthVector.OFFSET_WIDTH);
            if (valid == null || (valid[row >>> 6] & (1L << row)) != 0) {
                int length = ByteLiteral.checkedRange(data, start, end);
                boolean matches = equality
                        ? literal.equalsAt(address + start, length) == equalIsTrue
                        : test(op, literal.compareAt(address + start, length));
                truth.set(row, matches);
            }
            start = end;
        }
    }
}
