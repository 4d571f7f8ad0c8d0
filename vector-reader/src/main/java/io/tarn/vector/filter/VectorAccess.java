package io.tarn.vector.filter;

import io.tarn.index.predicate.FieldRef;
import io.tarn.types.Timestamp;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Typed access to the Arrow vectors of a batch for the filter's evaluators: the vector class a
 * type must be read as, validity bits as words of 64 rows, bounds-checked buffer addresses, and
 * timestamp literals in a vector's unit.
 */
final class VectorAccess
{
    private VectorAccess() {}

    static <T> T as(FieldVector vector, Class<T> expected, FieldRef field)
    {
        if (!expected.isInstance(vector)) {
            throw new IllegalArgumentException("Column " + field.name() + " of type " + field.type().asSqlString() + " is read as " +
                    vector.getClass().getSimpleName() + " of Arrow type " + vector.getField().getType() + ", which does not hold that type");
        }
        return expected.cast(vector);
    }

    static TimeUnit unit(TimeStampVector vector)
    {
        return ((ArrowType.Timestamp) vector.getField().getType()).getUnit();
    }

    /**
     * The timestamp in {@code unit}: {@code [floor, 1 if a remainder was cut off else 0]}, or null
     * when it does not fit a long.
     */
    static long[] inUnit(Timestamp timestamp, TimeUnit unit)
    {
        long millis = timestamp.epochMillis();
        int nanos = timestamp.nanoOfMillisecond();
        try {
            return switch (unit) {
                case SECOND -> new long[] {Math.floorDiv(millis, 1000L), (Math.floorMod(millis, 1000L) != 0 || nanos != 0) ? 1 : 0};
                case MILLISECOND -> new long[] {millis, nanos != 0 ? 1 : 0};
                case MICROSECOND -> new long[] {Math.addExact(Math.multiplyExact(millis, 1000L), nanos / 1000), nanos % 1000 != 0 ? 1 : 0};
                case NANOSECOND -> new long[] {Math.addExact(Math.multiplyExact(millis, 1_000_000L), nanos), 0};
            };
        }
        catch (ArithmeticException e) {
            return null;
        }
    }

    static BaseFixedWidthVector integerVector(FieldRef field, FieldVector vector)
    {
        Class<? extends BaseFixedWidthVector> expected = switch (field.type().root()) {
            case TINYINT -> TinyIntVector.class;
            case SMALLINT -> SmallIntVector.class;
            case INT -> IntVector.class;
            case BIGINT -> BigIntVector.class;
            case DATE -> DateDayVector.class;
            case TIME -> TimeMilliVector.class;
            default -> throw new IllegalArgumentException("Not an integer type: " + field.type().asSqlString());
        };
        return as(vector, expected, field);
    }

    /**
     * The value of row {@code row} of an integer-like vector whose data starts at memory address
     * {@code data}, which the caller checked to hold the rows it reads.
     */
    static long integerAt(long data, int width, int row)
    {
        return switch (width) {
            case 1 -> MemoryUtil.getByte(data + row);
            case 2 -> MemoryUtil.getShort(data + ((long) row << 1));
            case 4 -> MemoryUtil.getInt(data + ((long) row << 2));
            default -> MemoryUtil.getLong(data + ((long) row << 3));
        };
    }

    /**
     * The validity bits of rows {@code [0, rows)} as words of 64 rows (bits past the last row
     * clear), or null when no row is null.
     */
    static long[] validityWords(FieldVector vector, int rows)
    {
        if (vector.getNullCount() == 0) {
            return null;
        }
        int bytes = (rows + 7) >>> 3;
        long bits = checkedAddress(vector.getValidityBuffer(), bytes);
        long[] words = new long[Truth.words(rows)];
        for (int i = 0; i < bytes; i++) {
            words[i >>> 3] |= (MemoryUtil.getByte(bits + i) & 0xFFL) << ((i & 7) << 3);
        }
        if ((rows & 63) != 0) {
            words[words.length - 1] &= Truth.lowBits(rows & 63);
        }
        return words;
    }

    /**
     * The memory address of {@code buffer} after checking that it holds at least {@code bytes}.
     */
    static long checkedAddress(ArrowBuf buffer, long bytes)
    {
        if (bytes > buffer.capacity()) {
            throw new IllegalStateException("A batch needs " + bytes + " bytes of a buffer of " + buffer.capacity());
        }
        return buffer.memoryAddress();
    }
}
