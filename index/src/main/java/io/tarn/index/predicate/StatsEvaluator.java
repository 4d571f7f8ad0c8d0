package io.tarn.index.predicate;

import io.tarn.index.predicate.Predicate.AlwaysFalse;
import io.tarn.index.predicate.Predicate.AlwaysTrue;
import io.tarn.index.predicate.Predicate.And;
import io.tarn.index.predicate.Predicate.Comparison;
import io.tarn.index.predicate.Predicate.In;
import io.tarn.index.predicate.Predicate.InRanges;
import io.tarn.index.predicate.Predicate.IsNotNull;
import io.tarn.index.predicate.Predicate.IsNull;
import io.tarn.index.predicate.Predicate.Not;
import io.tarn.index.predicate.Predicate.Or;
import io.tarn.index.predicate.Predicate.StartsWith;
import io.tarn.types.DataType;
import io.tarn.types.ValueComparator;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * Decides from min / max / null-count statistics whether any row of a unit (file, bucket, row
 * group) can satisfy a predicate. The answer is conservative: {@code false} means no row can
 * make the predicate TRUE; {@code true} means some row might.
 * <p>
 * The predicate is first brought into the form of {@link Predicates#pushNotDown}; then AND skips
 * when any child skips and OR when every child skips. A leaf other than IS [NOT] NULL is never
 * TRUE on a NULL value, so it skips when all rows are null. Bounds are only trusted as bounds:
 * min / max may be truncated strings, and nothing assumes they occur.
 * <p>
 * FLOAT / DOUBLE compare as {@link SqlComparison} says (-0.0 = 0.0, NaN unordered). Writers
 * disagree on NaN: Paimon orders it above every number, so a NaN max; Parquet writers leave it
 * out of min / max, so NaN values may lie outside the bounds. Both are safe here because the bounds
 * are only taken to bound the values other than NaN, a bound that is NaN is dropped with its
 * partner, and the leaves that NaN makes TRUE ({@code <>}, NOT IN, NOT over a range comparison)
 * are never pruned on those types unless the unit holds no non-null value. A literal NaN makes
 * {@code =}, IN and range comparisons FALSE on every row. Writers also disagree on the sign of a
 * zero bound, which equality under SQL makes irrelevant.
 */
public final class StatsEvaluator
{
    private StatsEvaluator() {}

    public static boolean mightMatch(Predicate predicate, StatsProvider stats)
    {
        requireNonNull(predicate, "predicate is null");
        requireNonNull(stats, "stats is null");
        OptionalLong rowCount = stats.rowCount();
        if (rowCount.isPresent() && rowCount.getAsLong() == 0) {
            return false;
        }
        return visit(Predicates.pushNotDown(predicate), stats);
    }

    /**
     * Whether every row of the unit makes the predicate TRUE, so that it need not be evaluated on
     * them. Decided only for predicates over columns whose bounds are exact and hold every value:
     * integers, dates, times, timestamps, decimals and booleans (string bounds may be truncated,
     * and floating-point bounds leave NaN out), or a column's one exact value of any type
     * ({@link ColumnStats#ofValue}, a partition's), each with a known null count of
     * zero, so that no row is unknown; then every row is TRUE exactly when no row can make its
     * negation TRUE.
     */
    public static boolean allMatch(Predicate predicate, StatsProvider stats)
    {
        requireNonNull(predicate, "predicate is null");
        requireNonNull(stats, "stats is null");
        List<FieldRef> fields = new ArrayList<>();
        if (!leafFields(predicate, fields)) {
            return false;
        }
        for (FieldRef field : fields) {
            Optional<ColumnStats> column = stats.columnStats(field);
            if (column.isEmpty() || column.get().nullCount() == null || column.get().nullCount() != 0) {
                return false;
            }
            // a partition's value is exact whatever its type; a NaN one proves no comparison, as
            // the negation below keeps NaN, which no comparison makes TRUE
            if (!exactBounds(field.type()) && !column.get().exactValue()) {
                return false;
            }
        }
        return !mightMatch(Predicates.not(predicate), stats);
    }

    /**
     * The conjuncts of {@code predicate} that {@link #allMatch} does not prove for every row the
     * statistics describe, as one predicate; empty when all of them are proven. Testing only
     * these on the rows gives the same rows: a dynamic filter whose range spans a whole file, or
     * a date bound that a whole file is inside, then costs nothing per row.
     */
    public static Optional<Predicate> unprovenConjuncts(Predicate predicate, StatsProvider stats)
    {
        requireNonNull(predicate, "predicate is null");
        requireNonNull(stats, "stats is null");
        List<Predicate> conjuncts = predicate instanceof Predicate.And and ? and.children() : List.of(predicate);
        List<Predicate> unproven = new ArrayList<>();
        for (Predicate conjunct : conjuncts) {
            if (!allMatch(conjunct, stats)) {
                unproven.add(conjunct);
            }
        }
        if (unproven.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(unproven.size() == conjuncts.size() ? predicate : Predicates.and(unproven));
    }

    /**
     * Collects the fields of the predicate's leaves; false when a leaf is not a comparison, IN or
     * NULL test.
     */
    private static boolean leafFields(Predicate predicate, List<FieldRef> fields)
    {
        if (predicate instanceof And and) {
            return and.children().stream().allMatch(child -> leafFields(child, fields));
        }
        if (predicate instanceof Or or) {
            return or.children().stream().allMatch(child -> leafFields(child, fields));
        }
        if (predicate instanceof Not not) {
            return leafFields(not.predicate(), fields);
        }
        if (predicate instanceof Comparison comparison) {
            fields.add(comparison.field());
            return true;
        }
        if (predicate instanceof In in) {
            fields.add(in.field());
            return true;
        }
        if (predicate instanceof InRanges inRanges) {
            fields.add(inRanges.field());
            return true;
        }
        if (predicate instanceof IsNull isNull) {
            fields.add(isNull.field());
            return true;
        }
        if (predicate instanceof IsNotNull isNotNull) {
            fields.add(isNotNull.field());
            return true;
        }
        return false;
    }

    private static boolean exactBounds(DataType type)
    {
        return switch (type.root()) {
            case BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, DECIMAL, DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ -> true;
            default -> false;
        };
    }

    private static boolean visit(Predicate predicate, StatsProvider stats)
    {
        if (predicate instanceof And and) {
            for (Predicate child : and.children()) {
                if (!visit(child, stats)) {
                    return false;
                }
            }
            return true;
        }
        if (predicate instanceof Or or) {
            for (Predicate child : or.children()) {
                if (visit(child, stats)) {
                    return true;
                }
            }
            return false;
        }
        if (predicate instanceof AlwaysTrue) {
            return true;
        }
        if (predicate instanceof AlwaysFalse) {
            return false;
        }
        if (predicate instanceof IsNull isNull) {
            Optional<ColumnStats> column = stats.columnStats(isNull.field());
            if (column.isEmpty()) {
                return true;
            }
            Long nullCount = column.get().nullCount();
            return column.get().rowCount() > 0 && (nullCount == null || nullCount > 0);
        }
        if (predicate instanceof IsNotNull isNotNull) {
            Optional<ColumnStats> column = stats.columnStats(isNotNull.field());
            if (column.isEmpty()) {
                return true;
            }
            return column.get().rowCount() > 0 && !allNull(column.get());
        }
        if (predicate instanceof Comparison comparison) {
            return mightMatch(comparison, stats);
        }
        if (predicate instanceof In in) {
            return mightMatch(in, stats);
        }
        if (predicate instanceof InRanges inRanges) {
            return mightMatch(inRanges, stats);
        }
        if (predicate instanceof StartsWith startsWith) {
            return mightMatch(startsWith, stats);
        }
        if (predicate instanceof Not not) {
            // pushNotDown leaves NOT only above IN, IN RANGES, starts_with and floating-point range comparisons
            if (not.predicate() instanceof In in) {
                return mightMatchNotIn(in, stats);
            }
            if (not.predicate() instanceof InRanges inRanges) {
                return mightMatchNotInRanges(inRanges, stats);
            }
            if (not.predicate() instanceof StartsWith startsWith) {
                return mightMatchNotStartsWith(startsWith, stats);
            }
            if (not.predicate() instanceof Comparison comparison) {
                // TRUE for NaN, which the bounds do not cover
                return mightHoldNonNull(comparison.field(), stats);
            }
            return true;
        }
        throw new IllegalArgumentException("Unknown predicate: " + predicate.getClass().getName());
    }

    private static boolean mightMatch(Comparison comparison, StatsProvider stats)
    {
        Optional<Bounds> found = bounds(comparison.field(), stats);
        if (found.isEmpty()) {
            return true;
        }
        Bounds bounds = found.get();
        if (bounds.noNonNullValue()) {
            return false;
        }
        Object literal = comparison.literal();
        DataType type = comparison.field().type();
        if (SqlComparison.isFloatingPoint(type) && comparison.op() == Comparison.Operator.NOT_EQUAL) {
            // NaN <> v is TRUE, and NaN may lie outside the bounds
            return true;
        }
        if (Literals.isNaN(literal)) {
            // nothing is equal to, below or above NaN
            return false;
        }
        Object min = bounds.min();
        Object max = bounds.max();
        return switch (comparison.op()) {
            case EQUAL -> (min == null || compare(type, literal, min) >= 0) && (max == null || compare(type, literal, max) <= 0);
            // every non-null value equals the literal only when the bounds collapse onto it
            case NOT_EQUAL -> min == null || max == null || compare(type, min, max) != 0 || compare(type, min, literal) != 0;
            case LESS_THAN -> min == null || compare(type, min, literal) < 0;
            case LESS_THAN_OR_EQUAL -> min == null || compare(type, min, literal) <= 0;
            case GREATER_THAN -> max == null || compare(type, max, literal) > 0;
            case GREATER_THAN_OR_EQUAL -> max == null || compare(type, max, literal) >= 0;
        };
    }

    private static boolean mightMatch(In in, StatsProvider stats)
    {
        Optional<Bounds> found = bounds(in.field(), stats);
        if (found.isEmpty()) {
            return true;
        }
        Bounds bounds = found.get();
        if (bounds.noNonNullValue()) {
            return false;
        }
        // NaN literals equal no value and take no part
        return in.anyBetween(bounds.min(), bounds.max());
    }

    private static boolean mightMatchNotIn(In in, StatsProvider stats)
    {
        Optional<Bounds> found = bounds(in.field(), stats);
        if (found.isEmpty()) {
            return true;
        }
        Bounds bounds = found.get();
        if (bounds.noNonNullValue()) {
            return false;
        }
        DataType type = in.field().type();
        if (SqlComparison.isFloatingPoint(type)) {
            // NaN NOT IN (...) is TRUE, and NaN may lie outside the bounds
            return true;
        }
        Object min = bounds.min();
        Object max = bounds.max();
        if (min == null || max == null || compare(type, min, max) != 0) {
            return true;
        }
        // all non-null values equal min; NOT IN is FALSE for them if min is in the list
        return !in.contains(min);
    }

    private static boolean mightMatch(InRanges inRanges, StatsProvider stats)
    {
        Optional<Bounds> found = bounds(inRanges.field(), stats);
        if (found.isEmpty()) {
            return true;
        }
        Bounds bounds = found.get();
        if (bounds.noNonNullValue()) {
            return false;
        }
        if (SqlComparison.isFloatingPoint(inRanges.field().type()) && inRanges.ranges().size() == 1
                && inRanges.ranges().get(0).low() == null && inRanges.ranges().get(0).high() == null) {
            // the range without bounds holds NaN, which may lie outside the bounds
            return true;
        }
        return inRanges.overlaps(bounds.min(), bounds.max());
    }

    private static boolean mightMatchNotInRanges(InRanges inRanges, StatsProvider stats)
    {
        Optional<Bounds> found = bounds(inRanges.field(), stats);
        if (found.isEmpty()) {
            return true;
        }
        Bounds bounds = found.get();
        if (bounds.noNonNullValue()) {
            return false;
        }
        if (SqlComparison.isFloatingPoint(inRanges.field().type())) {
            // NaN lies in no bounded range, so NOT IN RANGES is TRUE for it, and NaN may lie outside the bounds
            return true;
        }
        Object min = bounds.min();
        Object max = bounds.max();
        // every non-null value lies in [min, max]: FALSE for all when one range holds it all
        return min == null || max == null || !inRanges.covers(min, max);
    }

    private static boolean mightMatch(StartsWith startsWith, StatsProvider stats)
    {
        Optional<Bounds> found = bounds(startsWith.field(), stats);
        if (found.isEmpty()) {
            return true;
        }
        Bounds bounds = found.get();
        if (bounds.noNonNullValue()) {
            return false;
        }
        String prefix = startsWith.prefix();
        // strings starting with the prefix are >= the prefix ...
        if (bounds.max() != null && ValueComparator.compareCodePoints((String) bounds.max(), prefix) < 0) {
            return false;
        }
        // ... and below any string that is greater than the prefix without starting with it
        String min = (String) bounds.min();
        return min == null || ValueComparator.compareCodePoints(min, prefix) <= 0 || StartsWith.startsWith(min, prefix);
    }

    private static boolean mightMatchNotStartsWith(StartsWith startsWith, StatsProvider stats)
    {
        Optional<Bounds> found = bounds(startsWith.field(), stats);
        if (found.isEmpty()) {
            return true;
        }
        Bounds bounds = found.get();
        if (bounds.noNonNullValue()) {
            return false;
        }
        // the strings starting with a prefix form an interval, so when both bounds lie in it, every value does
        String min = (String) bounds.min();
        String max = (String) bounds.max();
        return min == null || max == null || !StartsWith.startsWith(min, startsWith.prefix()) || !StartsWith.startsWith(max, startsWith.prefix());
    }

    private static boolean mightHoldNonNull(FieldRef field, StatsProvider stats)
    {
        Optional<Bounds> found = bounds(field, stats);
        return found.isEmpty() || !found.get().noNonNullValue();
    }

    /**
     * The usable statistics of a column, or empty when nothing is known. A bound of the wrong
     * class or bounds in the wrong order are dropped rather than trusted; so are both bounds of a
     * floating-point column when either is NaN, since the writer's order is then unknown.
     */
    private static Optional<Bounds> bounds(FieldRef field, StatsProvider stats)
    {
        Optional<ColumnStats> found = stats.columnStats(field);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        ColumnStats column = found.get();
        DataType type = field.type();
        Object min = usableBound(type, column.min());
        Object max = usableBound(type, column.max());
        if (Literals.isNaN(column.min()) || Literals.isNaN(column.max())) {
            min = null;
            max = null;
        }
        if (min != null && max != null && compare(type, min, max) > 0) {
            min = null;
            max = null;
        }
        min = widenZero(min, true);
        max = widenZero(max, false);
        return Optional.of(new Bounds(min, max, column.rowCount() == 0 || allNull(column)));
    }

    private static Object usableBound(DataType type, Object bound)
    {
        if (bound == null || !Literals.hasInternalClass(type, bound) || Literals.isNaN(bound) || !ValueComparator.isOrderable(type)) {
            return null;
        }
        return bound;
    }

    /**
     * Writers disagree on whether a column of -0.0 and 0.0 has min -0.0 or 0.0; widening makes
     * the bound valid for both orders (and so for the total order of sorting, too).
     */
    private static Object widenZero(Object bound, boolean lower)
    {
        if (bound instanceof Double value && value == 0.0) {
            return lower ? -0.0 : 0.0;
        }
        if (bound instanceof Float value && value == 0.0f) {
            return lower ? -0.0f : 0.0f;
        }
        return bound;
    }

    private static boolean allNull(ColumnStats column)
    {
        return column.nullCount() != null && column.nullCount() == column.rowCount();
    }

    /**
     * The order of two values that are not NaN: numeric for FLOAT / DOUBLE (-0.0 equals 0.0),
     * else {@link ValueComparator}'s.
     */
    private static int compare(DataType type, Object left, Object right)
    {
        if (SqlComparison.isFloatingPoint(type)) {
            double leftValue = ((Number) left).doubleValue();
            double rightValue = ((Number) right).doubleValue();
            return leftValue < rightValue ? -1 : leftValue > rightValue ? 1 : 0;
        }
        return ValueComparator.compare(type, left, right);
    }

    /**
     * min / max are null when unknown; {@code noNonNullValue} is set when the unit is known to
     * hold no non-null value of the column.
     */
    private record Bounds(Object min, Object max, boolean noNonNullValue) {}
}
