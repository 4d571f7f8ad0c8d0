package io.tarn.index.predicate;

import io.tarn.index.predicate.Predicate.AlwaysFalse;
import io.tarn.index.predicate.Predicate.AlwaysTrue;
import io.tarn.index.predicate.Predicate.And;
import io.tarn.index.predicate.Predicate.Comparison;
import io.tarn.index.predicate.Predicate.Comparison.Operator;
import io.tarn.index.predicate.Predicate.In;
import io.tarn.index.predicate.Predicate.InRanges;
import io.tarn.index.predicate.Predicate.IsNotNull;
import io.tarn.index.predicate.Predicate.IsNull;
import io.tarn.index.predicate.Predicate.Not;
import io.tarn.index.predicate.Predicate.Or;
import io.tarn.index.predicate.Predicate.StartsWith;
import io.tarn.types.DataType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Builds predicates. {@link #and} and {@link #or} flatten nested conjunctions / disjunctions and
 * fold {@link AlwaysTrue} / {@link AlwaysFalse}; {@link #pushNotDown} rewrites a predicate so
 * that NOT only remains directly above IN, starts_with and floating-point range comparisons,
 * which is the form the statistics evaluator works on. All rewrites are exact under SQL three-valued logic.
 */
public final class Predicates
{
    private static final Predicate ALWAYS_TRUE = new AlwaysTrue();
    private static final Predicate ALWAYS_FALSE = new AlwaysFalse();

    private Predicates() {}

    public static Predicate alwaysTrue()
    {
        return ALWAYS_TRUE;
    }

    public static Predicate alwaysFalse()
    {
        return ALWAYS_FALSE;
    }

    public static Predicate equal(FieldRef field, Object value)
    {
        return new Comparison(field, Operator.EQUAL, value);
    }

    public static Predicate notEqual(FieldRef field, Object value)
    {
        return new Comparison(field, Operator.NOT_EQUAL, value);
    }

    public static Predicate lessThan(FieldRef field, Object value)
    {
        return new Comparison(field, Operator.LESS_THAN, value);
    }

    public static Predicate lessOrEqual(FieldRef field, Object value)
    {
        return new Comparison(field, Operator.LESS_THAN_OR_EQUAL, value);
    }

    public static Predicate greaterThan(FieldRef field, Object value)
    {
        return new Comparison(field, Operator.GREATER_THAN, value);
    }

    public static Predicate greaterOrEqual(FieldRef field, Object value)
    {
        return new Comparison(field, Operator.GREATER_THAN_OR_EQUAL, value);
    }

    public static Predicate compare(FieldRef field, Operator op, Object value)
    {
        return new Comparison(field, op, value);
    }

    /**
     * {@code field IN (values)}; an empty list gives {@link AlwaysFalse}, as no row can match.
     */
    public static Predicate in(FieldRef field, Collection<?> values)
    {
        requireNonNull(field, "field is null");
        requireNonNull(values, "values is null");
        if (values.isEmpty()) {
            return ALWAYS_FALSE;
        }
        return new In(field, new ArrayList<>(values));
    }

    /**
     * {@code field} in one of {@code ranges}, in any order and possibly overlapping: ranges with a
     * NaN bound (which hold nothing) and empty ranges are dropped, the others sorted and merged
     * where they overlap or touch. No range left gives {@link AlwaysFalse}; one range gives its
     * comparisons ({@code =} for a single value, AND of the bounds); more, or one without bounds,
     * give one {@link InRanges} leaf. O(n log n), once.
     */
    public static Predicate inRanges(FieldRef field, Collection<ValueRange> ranges)
    {
        requireNonNull(field, "field is null");
        requireNonNull(ranges, "ranges is null");
        DataType type = field.type();
        List<ValueRange> kept = new ArrayList<>(ranges.size());
        for (ValueRange range : ranges) {
            requireNonNull(range, "range is null");
            if (Literals.isNaN(range.low()) || Literals.isNaN(range.high())) {
                continue;
            }
            if (range.low() != null && range.high() != null) {
                int order = SqlComparison.order(type, range.low(), range.high());
                if (order > 0 || (order == 0 && !(range.lowInclusive() && range.highInclusive()))) {
                    continue;
                }
            }
            kept.add(range);
        }
        kept.sort((left, right) -> compareLows(type, left, right));
        List<ValueRange> merged = new ArrayList<>(kept.size());
        for (ValueRange range : kept) {
            ValueRange last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && SqlComparison.isFloatingPoint(type) && last.low() == null && last.high() != null && range.high() == null && range.low() != null
                    && meets(type, last, range)) {
                // (-inf, a) and (b, +inf) hold every number but not NaN, which one range without
                // bounds would hold: they stay two ranges that meet at a
                merged.add(new ValueRange(last.high(), !last.highInclusive(), null, false));
            }
            else if (last != null && meets(type, last, range)) {
                merged.set(merged.size() - 1, new ValueRange(last.low(), last.lowInclusive(), higherHigh(type, last, range), higherHighInclusive(type, last, range)));
            }
            else {
                merged.add(range);
            }
        }
        if (merged.isEmpty()) {
            return ALWAYS_FALSE;
        }
        if (merged.size() > 1) {
            return new InRanges(field, merged);
        }
        ValueRange range = merged.get(0);
        if (range.isPoint() || (range.low() != null && range.high() != null && SqlComparison.order(type, range.low(), range.high()) == 0)) {
            return equal(field, range.low());
        }
        List<Predicate> bounds = new ArrayList<>(2);
        if (range.low() != null) {
            bounds.add(range.lowInclusive() ? greaterOrEqual(field, range.low()) : greaterThan(field, range.low()));
        }
        if (range.high() != null) {
            bounds.add(range.highInclusive() ? lessOrEqual(field, range.high()) : lessThan(field, range.high()));
        }
        // a range without bounds stays a leaf: unlike IS NOT NULL it is unknown, not FALSE, on NULL, which NOT tells apart
        return bounds.isEmpty() ? new InRanges(field, merged) : and(bounds);
    }

    private static int compareLows(DataType type, ValueRange left, ValueRange right)
    {
        if (left.low() == null || right.low() == null) {
            return Boolean.compare(left.low() != null, right.low() != null);
        }
        int order = SqlComparison.order(type, left.low(), right.low());
        // at one value, the range that holds it starts first
        return order != 0 ? order : Boolean.compare(!left.lowInclusive(), !right.lowInclusive());
    }

    /**
     * Whether {@code next}, which starts no lower than {@code last}, overlaps or touches it, so
     * that their union is one range.
     */
    private static boolean meets(DataType type, ValueRange last, ValueRange next)
    {
        if (last.high() == null || next.low() == null) {
            return true;
        }
        int order = SqlComparison.order(type, last.high(), next.low());
        return order > 0 || (order == 0 && (last.highInclusive() || next.lowInclusive()));
    }

    private static Object higherHigh(DataType type, ValueRange first, ValueRange second)
    {
        if (first.high() == null || second.high() == null) {
            return null;
        }
        int order = SqlComparison.order(type, first.high(), second.high());
        return order >= 0 ? first.high() : second.high();
    }

    private static boolean higherHighInclusive(DataType type, ValueRange first, ValueRange second)
    {
        if (first.high() == null || second.high() == null) {
            return false;
        }
        int order = SqlComparison.order(type, first.high(), second.high());
        if (order == 0) {
            return first.highInclusive() || second.highInclusive();
        }
        return order > 0 ? first.highInclusive() : second.highInclusive();
    }

    /**
     * {@code field NOT IN (values)}, kept as {@code Not(In)}; an empty list gives
     * {@link AlwaysTrue}.
     */
    public static Predicate notIn(FieldRef field, Collection<?> values)
    {
        return not(in(field, values));
    }

    public static Predicate isNull(FieldRef field)
    {
        return new IsNull(field);
    }

    public static Predicate isNotNull(FieldRef field)
    {
        return new IsNotNull(field);
    }

    public static Predicate startsWith(FieldRef field, String prefix)
    {
        return new StartsWith(field, prefix);
    }

    public static Predicate and(Predicate... predicates)
    {
        return and(Arrays.asList(predicates));
    }

    /**
     * The conjunction: nested ANDs are flattened, TRUE children dropped, any FALSE child makes
     * the result FALSE (also under three-valued logic), no children give TRUE, one child is
     * returned as is.
     */
    public static Predicate and(List<Predicate> predicates)
    {
        requireNonNull(predicates, "predicates is null");
        List<Predicate> children = new ArrayList<>();
        for (Predicate predicate : predicates) {
            requireNonNull(predicate, "predicate is null");
            if (predicate instanceof AlwaysFalse) {
                return ALWAYS_FALSE;
            }
            if (predicate instanceof And and) {
                children.addAll(and.children());
            }
            else if (!(predicate instanceof AlwaysTrue)) {
                children.add(predicate);
            }
        }
        if (children.isEmpty()) {
            return ALWAYS_TRUE;
        }
        return children.size() == 1 ? children.get(0) : new And(children);
    }

    public static Predicate or(Predicate... predicates)
    {
        return or(Arrays.asList(predicates));
    }

    /**
     * The disjunction: nested ORs are flattened, FALSE children dropped, any TRUE child makes the
     * result TRUE, no children give FALSE, one child is returned as is.
     */
    public static Predicate or(List<Predicate> predicates)
    {
        requireNonNull(predicates, "predicates is null");
        List<Predicate> children = new ArrayList<>();
        for (Predicate predicate : predicates) {
            requireNonNull(predicate, "predicate is null");
            if (predicate instanceof AlwaysTrue) {
                return ALWAYS_TRUE;
            }
            if (predicate instanceof Or or) {
                children.addAll(or.children());
            }
            else if (!(predicate instanceof AlwaysFalse)) {
                children.add(predicate);
            }
        }
        if (children.isEmpty()) {
            return ALWAYS_FALSE;
        }
        return children.size() == 1 ? children.get(0) : new Or(children);
    }

    /**
     * {@code NOT predicate}, folding constants and double negation but otherwise keeping the
     * shape; use {@link #negate} for the pushed-down form.
     */
    public static Predicate not(Predicate predicate)
    {
        requireNonNull(predicate, "predicate is null");
        if (predicate instanceof AlwaysTrue) {
            return ALWAYS_FALSE;
        }
        if (predicate instanceof AlwaysFalse) {
            return ALWAYS_TRUE;
        }
        if (predicate instanceof Not not) {
            return not.predicate();
        }
        return new Not(predicate);
    }

    /**
     * The negation of {@code predicate} with NOT pushed down to the leaves (see
     * {@link #pushNotDown}).
     */
    public static Predicate negate(Predicate predicate)
    {
        requireNonNull(predicate, "predicate is null");
        if (predicate instanceof Comparison comparison) {
            if (!negatesExactly(comparison)) {
                return new Not(predicate);
            }
            return new Comparison(comparison.field(), comparison.op().negate(), comparison.literal());
        }
        if (predicate instanceof IsNull isNull) {
            return new IsNotNull(isNull.field());
        }
        if (predicate instanceof IsNotNull isNotNull) {
            return new IsNull(isNotNull.field());
        }
        if (predicate instanceof In || predicate instanceof InRanges || predicate instanceof StartsWith) {
            return new Not(predicate);
        }
        if (predicate instanceof And and) {
            // De Morgan holds in Kleene's three-valued logic
            return or(and.children().stream().map(Predicates::negate).toList());
        }
        if (predicate instanceof Or or) {
            return and(or.children().stream().map(Predicates::negate).toList());
        }
        if (predicate instanceof Not not) {
            return pushNotDown(not.predicate());
        }
        if (predicate instanceof AlwaysTrue) {
            return ALWAYS_FALSE;
        }
        if (predicate instanceof AlwaysFalse) {
            return ALWAYS_TRUE;
        }
        throw new IllegalArgumentException("Unknown predicate: " + predicate.getClass().getName());
    }

    /**
     * Whether {@code NOT comparison} is the comparison with the negated operator. Not for
     * {@code <}, {@code <=}, {@code >}, {@code >=} on FLOAT / DOUBLE: NaN makes both
     * {@code x < v} and {@code x >= v} FALSE, so {@code NOT (x < v)} is TRUE for NaN.
     * {@code NOT (x = v)} is {@code x <> v} for every type.
     */
    private static boolean negatesExactly(Comparison comparison)
    {
        return !SqlComparison.isFloatingPoint(comparison.field().type())
                || comparison.op() == Operator.EQUAL
                || comparison.op() == Operator.NOT_EQUAL;
    }

    /**
     * An equivalent predicate (under SQL three-valued logic, row by row) in which NOT appears
     * only directly above {@link In}, {@link StartsWith} and FLOAT / DOUBLE range comparisons
     * ({@code <}, {@code <=}, {@code >}, {@code >=}, which NaN makes FALSE in both directions):
     * {@code NOT (x < v)} becomes {@code x >= v} for other types, {@code NOT (x = v)} becomes
     * {@code x <> v}, {@code NOT x IS NULL} becomes {@code x IS NOT NULL}, NOT over AND / OR
     * follows De Morgan, and double negation cancels.
     */
    public static Predicate pushNotDown(Predicate predicate)
    {
        requireNonNull(predicate, "predicate is null");
        if (predicate instanceof And and) {
            return and(and.children().stream().map(Predicates::pushNotDown).toList());
        }
        if (predicate instanceof Or or) {
            return or(or.children().stream().map(Predicates::pushNotDown).toList());
        }
        if (predicate instanceof Not not) {
            return negate(not.predicate());
        }
        return predicate;
    }
}
