package io.tarn.index.predicate;

import io.tarn.types.DataType;
import io.tarn.types.Timestamp;
import io.tarn.types.ValueComparator;

import java.nio.charset.StandardCharsets;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

/**
 * The literals of an {@link Predicate.In}, sorted by {@link ValueComparator} and without
 * duplicates, with lookup structures built once so that a membership test costs O(1) for
 * integers ({@link LongMembership}) and strings (a hash probe) and O(log n) for other types,
 * however many literals there are. Dynamic filters bring IN lists of 10^5 values, and
 * a test that walked them, or rebuilt a set per batch, made a join slower than no filter at all.
 * <p>
 * Membership follows SQL equality ({@link SqlComparison}): NaN equals nothing, -0.0 equals 0.0.
 * The list itself keeps every distinct literal of the total order, NaN and both zeros included,
 * so that the predicate still prints what it was built from.
 */
final class LiteralSet
        extends AbstractList<Object>
        implements RandomAccess
{
    private final DataType type;
    private final Object[] values;
    // integer-like types (TINYINT .. BIGINT, DATE, TIME): the values, for a constant-time test
    private final LongMembership longs;
    // FLOAT / DOUBLE: the values other than NaN, -0.0 turned into 0.0, ascending and distinct
    private final double[] numbers;
    // TIMESTAMP / TIMESTAMP_LTZ: the values, ascending
    private final long[] timestampMillis;
    private final int[] timestampNanos;
    // strings and binary: their UTF-8 / raw bytes, or null when a string holds a lone surrogate
    private final ByteKeys bytes;

    LiteralSet(DataType type, List<Object> checkedLiterals)
    {
        this.type = type;
        Object[] sorted = checkedLiterals.toArray();
        Arrays.sort(sorted, (left, right) -> ValueComparator.compare(type, left, right));
        int count = 0;
        for (Object value : sorted) {
            if (count == 0 || ValueComparator.compare(type, sorted[count - 1], value) != 0) {
                sorted[count++] = value;
            }
        }
        this.values = Arrays.copyOf(sorted, count);
        long[] longValues = null;
        double[] numberValues = null;
        long[] millis = null;
        int[] nanos = null;
        ByteKeys byteKeys = null;
        switch (type.root()) {
            case TINYINT, SMALLINT, INT, BIGINT, DATE, TIME -> {
                longValues = new long[count];
                for (int i = 0; i < count; i++) {
                    longValues[i] = ((Number) values[i]).longValue();
                }
            }
            case FLOAT, DOUBLE -> {
                double[] numeric = new double[count];
                int numericCount = 0;
                for (Object value : values) {
                    double number = ((Number) value).doubleValue();
                    if (!Double.isNaN(number)) {
                        // adding 0.0 turns -0.0 into 0.0 and leaves every other value alone
                        numeric[numericCount++] = number + 0.0;
                    }
                }
                Arrays.sort(numeric, 0, numericCount);
                int distinct = 0;
                for (int i = 0; i < numericCount; i++) {
                    if (distinct == 0 || numeric[distinct - 1] != numeric[i]) {
                        numeric[distinct++] = numeric[i];
                    }
                }
                numberValues = Arrays.copyOf(numeric, distinct);
            }
            case TIMESTAMP, TIMESTAMP_LTZ -> {
                millis = new long[count];
                nanos = new int[count];
                for (int i = 0; i < count; i++) {
                    Timestamp timestamp = (Timestamp) values[i];
                    millis[i] = timestamp.epochMillis();
                    nanos[i] = timestamp.nanoOfMillisecond();
                }
            }
            case CHAR, VARCHAR, BINARY, VARBINARY -> byteKeys = ByteKeys.of(values);
            default -> {
                // BOOLEAN and DECIMAL: binary search over the values
            }
        }
        this.longs = longValues == null ? null : new LongMembership(longValues);
        this.numbers = numberValues;
        this.timestampMillis = millis;
        this.timestampNanos = nanos;
        this.bytes = byteKeys;
    }

    @Override
    public Object get(int index)
    {
        return values[index];
    }

    DataType type()
    {
        return type;
    }

    @Override
    public int size()
    {
        return values.length;
    }

    /**
     * Whether a non-null value of the column equals a literal under SQL.
     */
    boolean matches(Object value)
    {
        if (numbers != null) {
            return containsNumber(((Number) value).doubleValue());
        }
        if (longs != null) {
            return containsLong(((Number) value).longValue());
        }
        if (!Literals.hasInternalClass(type, value)) {
            throw new IllegalArgumentException("Value " + value + " is not of type " + type.asSqlString());
        }
        return Arrays.binarySearch(values, value, (left, right) -> ValueComparator.compare(type, left, right)) >= 0;
    }

    boolean containsLong(long value)
    {
        if (longs == null) {
            throw new IllegalStateException("Literals of type " + type.asSqlString() + " are not integers");
        }
        return longs.contains(value);
    }

    /**
     * Binary search orders by {@link Double#compare}, which is numeric once both zeros are 0.0
     * and NaN is out.
     */
    boolean containsNumber(double value)
    {
        if (numbers == null) {
            throw new IllegalStateException("Literals of type " + type.asSqlString() + " are not floating-point");
        }
        return !Double.isNaN(value) && Arrays.binarySearch(numbers, value + 0.0) >= 0;
    }

    boolean containsTimestamp(long epochMillis, int nanoOfMillisecond)
    {
        if (timestampMillis == null) {
            throw new IllegalStateException("Literals of type " + type.asSqlString() + " are not timestamps");
        }
        int low = 0;
        int high = timestampMillis.length - 1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            int order = Long.compare(timestampMillis[middle], epochMillis);
            if (order == 0) {
                order = Integer.compare(timestampNanos[middle], nanoOfMillisecond);
            }
            if (order < 0) {
                low = middle + 1;
            }
            else if (order > 0) {
                high = middle - 1;
            }
            else {
                return true;
            }
        }
        return false;
    }

    boolean hasByteKeys()
    {
        return bytes != null;
    }

    /**
     * Whether a member test of a row's value costs one bitmap test or hash probe rather than a
     * binary search: integer-like types ({@link #containsLong}) and byte keys.
     */
    boolean hasConstantTimeMembership()
    {
        return longs != null || bytes != null;
    }

    boolean containsBytes(byte[] data, int offset, int length)
    {
        if (bytes == null) {
            throw new IllegalStateException("Literals of type " + type.asSqlString() + " have no byte keys");
        }
        return bytes.contains(data, offset, length);
    }

    /**
     * Whether a literal other than NaN lies in {@code [min, max]}, each bound inclusive and
     * absent when null; the bounds are not NaN.
     */
    boolean anyBetween(Object min, Object max)
    {
        if (numbers != null) {
            double low = min == null ? Double.NEGATIVE_INFINITY : ((Number) min).doubleValue();
            double high = max == null ? Double.POSITIVE_INFINITY : ((Number) max).doubleValue();
            int index = firstAtLeast(numbers, low + 0.0);
            return index < numbers.length && numbers[index] <= high;
        }
        int index = 0;
        if (min != null) {
            // the first value >= min
            int found = Arrays.binarySearch(values, min, (left, right) -> ValueComparator.compare(type, left, right));
            index = found >= 0 ? found : -found - 1;
        }
        return index < values.length && (max == null || ValueComparator.compare(type, values[index], max) <= 0);
    }

    private static int firstAtLeast(double[] sorted, double value)
    {
        int low = 0;
        int high = sorted.length;
        while (low < high) {
            int middle = (low + high) >>> 1;
            if (sorted[middle] < value) {
                low = middle + 1;
            }
            else {
                high = middle;
            }
        }
        return low;
    }

    /**
     * An open-addressing hash set of byte strings: a probe hashes the row's bytes where they lie
     * and compares with at most a few keys, instead of walking every literal.
     */
    private static final class ByteKeys
    {
        private final byte[][] keys;
        private final int mask;

        private ByteKeys(byte[][] keys, int mask)
        {
            this.keys = keys;
            this.mask = mask;
        }

        static ByteKeys of(Object[] values)
        {
            int capacity = Integer.highestOneBit(Math.max(2, values.length) * 2 - 1) << 1;
            byte[][] table = new byte[capacity][];
            int mask = capacity - 1;
            for (Object value : values) {
                byte[] key;
                if (value instanceof String string) {
                    if (!wellFormed(string)) {
                        // UTF-8 cannot encode a lone surrogate: such a literal compares as text only
                        return null;
                    }
                    key = string.getBytes(StandardCharsets.UTF_8);
                }
                else {
                    key = (byte[]) value;
                }
                int slot = hash(key, 0, key.length) & mask;
                while (table[slot] != null) {
                    slot = (slot + 1) & mask;
                }
                table[slot] = key;
            }
            return new ByteKeys(table, mask);
        }

        boolean contains(byte[] data, int offset, int length)
        {
            int slot = hash(data, offset, length) & mask;
            while (keys[slot] != null) {
                byte[] key = keys[slot];
                if (key.length == length && Arrays.equals(key, 0, length, data, offset, offset + length)) {
                    return true;
                }
                slot = (slot + 1) & mask;
            }
            return false;
        }

        private static int hash(byte[] data, int offset, int length)
        {
            int hash = length;
            for (int i = offset; i < offset + length; i++) {
                hash = hash * 31 + data[i];
            }
            // spread the high bits into the low ones the mask keeps
            return hash ^ (hash >>> 16);
        }

        private static boolean wellFormed(String value)
        {
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (Character.isHighSurrogate(c) && i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))) {
                    i++;
                }
                else if (Character.isSurrogate(c)) {
                    return false;
                }
            }
            return true;
        }
    }
}
