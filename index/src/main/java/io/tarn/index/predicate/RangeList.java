package io.tarn.index.predicate;

import io.tarn.types.DataType;
import io.tarn.types.ValueComparator;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

/**
 * The ranges of a {@link Predicate.InRanges}: non-empty, ascending and pairwise disjoint under
 * SQL order (numeric for FLOAT / DOUBLE, where -0.0 = 0.0), without NaN bounds. Because they are
 * disjoint, only the last range starting at or below a value can hold it, so a membership test is
 * one binary search; so is the test whether any range meets a unit's [min, max].
 */
final class RangeList
        extends AbstractList<ValueRange>
        implements RandomAccess
{
    private final DataType type;
    private final ValueRange[] ranges;
    // integer-like types: each range as inclusive long bounds; ranges empty in integers left out
    private final long[] longLows;
    private final long[] longHighs;
    // FLOAT / DOUBLE: bounds as doubles (-0.0 as 0.0, absent as an inclusive infinity)
    private final double[] numberLows;
    private final double[] numberHighs;
    // whether some range has no bound at all, the only kind of range that holds NaN
    private final boolean unbounded;

    RangeList(FieldRef field, List<ValueRange> input)
    {
        this.type = field.type();
        if (input.isEmpty()) {
            throw new IllegalArgumentException("Range list for column " + field.name() + " is empty");
        }
        List<ValueRange> checked = new ArrayList<>(input.size());
        for (ValueRange range : input) {
            if (range == null) {
                throw new IllegalArgumentException("Range for column " + field.name() + " is null");
            }
            Object low = range.low() == null ? null : Literals.checkLiteral(field, range.low());
            Object high = range.high() == null ? null : Literals.checkLiteral(field, range.high());
            if (Literals.isNaN(low) || Literals.isNaN(high)) {
                throw new IllegalArgumentException("Range " + range + " of column " + field.name() + " has a NaN bound, which nothing lies beside; use Predicates.inRanges");
            }
            ValueRange copy = new ValueRange(low, range.lowInclusive(), high, range.highInclusive());
            if (isEmpty(copy)) {
                throw new IllegalArgumentException("Range " + copy + " of column " + field.name() + " is empty; use Predicates.inRanges");
            }
            if (!checked.isEmpty() && !before(checked.get(checked.size() - 1), copy)) {
                throw new IllegalArgumentException("Ranges of column " + field.name() + " are not ascending and disjoint at " + copy + "; use Predicates.inRanges");
            }
            checked.add(copy);
        }
        this.ranges = checked.toArray(new ValueRange[0]);
        this.unbounded = ranges.length == 1 && ranges[0].low() == null && ranges[0].high() == null;
        switch (type.root()) {
            case TINYINT, SMALLINT, INT, BIGINT, DATE, TIME -> {
                long[] lows = new long[ranges.length];
                long[] highs = new long[ranges.length];
                int count = 0;
                for (ValueRange range : ranges) {
                    long low = Long.MIN_VALUE;
                    long high = Long.MAX_VALUE;
                    if (range.low() != null) {
                        low = ((Number) range.low()).longValue();
                        if (!range.lowInclusive()) {
                            if (low == Long.MAX_VALUE) {
                                continue;
                            }
                            low++;
                        }
                    }
                    if (range.high() != null) {
                        high = ((Number) range.high()).longValue();
                        if (!range.highInclusive()) {
                            if (high == Long.MIN_VALUE) {
                                continue;
                            }
                            high--;
                        }
                    }
                    if (low <= high) {
                        lows[count] = low;
                        highs[count] = high;
                        count++;
                    }
                }
                longLows = Arrays.copyOf(lows, count);
                longHighs = Arrays.copyOf(highs, count);
                numberLows = null;
                numberHighs = null;
            }
            case FLOAT, DOUBLE -> {
                numberLows = new double[ranges.length];
                numberHighs = new double[ranges.length];
                for (int i = 0; i < ranges.length; i++) {
                    numberLows[i] = ranges[i].low() == null ? Double.NEGATIVE_INFINITY : ((Number) ranges[i].low()).doubleValue() + 0.0;
                    numberHighs[i] = ranges[i].high() == null ? Double.POSITIVE_INFINITY : ((Number) ranges[i].high()).doubleValue() + 0.0;
                }
                longLows = null;
                longHighs = null;
            }
            default -> {
                longLows = null;
                longHighs = null;
                numberLows = null;
                numberHighs = null;
            }
        }
    }

    @Override
    public ValueRange get(int index)
    {
        return ranges[index];
    }

    DataType type()
    {
        return type;
    }

    @Override
    public int size()
    {
        return ranges.length;
    }

    /**
     * Whether a non-null value of the column lies in a range.
     */
    boolean matches(Object value)
    {
        if (numberLows != null) {
            return containsNumber(((Number) value).doubleValue());
        }
        if (longLows != null) {
            return containsLong(((Number) value).longValue());
        }
        if (!Literals.hasInternalClass(type, value)) {
            throw new IllegalArgumentException("Value " + value + " is not of type " + type.asSqlString());
        }
        return rangeHolding(value) >= 0;
    }

    boolean containsLong(long value)
    {
        if (longLows == null) {
            throw new IllegalStateException("Ranges of type " + type.asSqlString() + " are not over integers");
        }
        // the last range starting at or below the value
        int low = 0;
        int high = longLows.length - 1;
        int candidate = -1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            if (longLows[middle] <= value) {
                candidate = middle;
                low = middle + 1;
            }
            else {
                high = middle - 1;
            }
        }
        return candidate >= 0 && value <= longHighs[candidate];
    }

    boolean containsNumber(double value)
    {
        if (numberLows == null) {
            throw new IllegalStateException("Ranges of type " + type.asSqlString() + " are not floating-point");
        }
        if (Double.isNaN(value)) {
            return unbounded;
        }
        double key = value + 0.0;
        int low = 0;
        int high = numberLows.length - 1;
        int candidate = -1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            if (numberLows[middle] < key || (numberLows[middle] == key && startsInclusive(middle))) {
                candidate = middle;
                low = middle + 1;
            }
            else {
                high = middle - 1;
            }
        }
        return candidate >= 0 && (key < numberHighs[candidate] || (key == numberHighs[candidate] && endsInclusive(candidate)));
    }

    /**
     * Whether a range meets {@code [min, max]}, each bound inclusive and absent when null; the
     * bounds are not NaN.
     */
    boolean overlaps(Object min, Object max)
    {
        if (longLows != null) {
            // in integers, so that a range such as (1, 2) holding no integer meets nothing
            long low = min == null ? Long.MIN_VALUE : ((Number) min).longValue();
            long high = max == null ? Long.MAX_VALUE : ((Number) max).longValue();
            int first = firstEndingAtOrAbove(low);
            return first < longLows.length && longLows[first] <= high;
        }
        // the first range not wholly below min
        int low = 0;
        int high = ranges.length - 1;
        int first = ranges.length;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            ValueRange range = ranges[middle];
            boolean below = min != null && range.high() != null && (compare(range.high(), min) < 0 || (compare(range.high(), min) == 0 && !range.highInclusive()));
            if (below) {
                low = middle + 1;
            }
            else {
                first = middle;
                high = middle - 1;
            }
        }
        if (first == ranges.length) {
            return false;
        }
        ValueRange range = ranges[first];
        return max == null || range.low() == null || compare(range.low(), max) < 0 || (compare(range.low(), max) == 0 && range.lowInclusive());
    }

    /**
     * Whether one range holds every value of {@code [min, max]}; the bounds are not NaN.
     */
    boolean covers(Object min, Object max)
    {
        if (longLows != null) {
            long low = ((Number) min).longValue();
            long high = ((Number) max).longValue();
            int index = firstEndingAtOrAbove(low);
            return index < longLows.length && longLows[index] <= low && high <= longHighs[index];
        }
        int index = rangeHolding(min);
        return index >= 0 && index == rangeHolding(max);
    }

    /**
     * The range holding a non-NaN value, or -1.
     */
    private int rangeHolding(Object value)
    {
        int low = 0;
        int high = ranges.length - 1;
        int candidate = -1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            ValueRange range = ranges[middle];
            int order = range.low() == null ? -1 : compare(range.low(), value);
            if (order < 0 || (order == 0 && range.lowInclusive())) {
                candidate = middle;
                low = middle + 1;
            }
            else {
                high = middle - 1;
            }
        }
        if (candidate < 0) {
            return -1;
        }
        ValueRange range = ranges[candidate];
        int order = range.high() == null ? 1 : compare(range.high(), value);
        return order > 0 || (order == 0 && range.highInclusive()) ? candidate : -1;
    }

    /**
     * The first integer range whose high is at least {@code value}, or the number of ranges.
     */
    private int firstEndingAtOrAbove(long value)
    {
        int low = 0;
        int high = longHighs.length;
        while (low < high) {
            int middle = (low + high) >>> 1;
            if (longHighs[middle] < value) {
                low = middle + 1;
            }
            else {
                high = middle;
            }
        }
        return low;
    }

    private boolean startsInclusive(int index)
    {
        return ranges[index].low() == null || ranges[index].lowInclusive();
    }

    private boolean endsInclusive(int index)
    {
        return ranges[index].high() == null || ranges[index].highInclusive();
    }

    private boolean isEmpty(ValueRange range)
    {
        if (range.low() == null || range.high() == null) {
            return false;
        }
        int order = compare(range.low(), range.high());
        return order > 0 || (order == 0 && !(range.lowInclusive() && range.highInclusive()));
    }

    /**
     * Whether {@code first} ends below where {@code second} starts, so that no value is in both.
     */
    private boolean before(ValueRange first, ValueRange second)
    {
        if (first.high() == null || second.low() == null) {
            return false;
        }
        int order = compare(first.high(), second.low());
        return order < 0 || (order == 0 && !(first.highInclusive() && second.lowInclusive()));
    }

    private int compare(Object left, Object right)
    {
        return SqlComparison.order(type, left, right);
    }
}
