package io.tarn.index.predicate;

import io.tarn.index.predicate.Predicate.AlwaysFalse;
import io.tarn.index.predicate.Predicate.AlwaysTrue;
import io.tarn.index.predicate.Predicate.And;
import io.tarn.index.predicate.Predicate.Comparison;
import io.tarn.index.predicate.Predicate.Comparison.Operator;
import io.tarn.index.predicate.Predicate.In;
import io.tarn.index.predicate.Predicate.IsNotNull;
import io.tarn.index.predicate.Predicate.IsNull;
import io.tarn.index.predicate.Predicate.Not;
import io.tarn.index.predicate.Predicate.Or;
import io.tarn.index.predicate.Predicate.StartsWith;

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
        if (predicate instanceof In || predicate instanceof StartsWith) {
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
