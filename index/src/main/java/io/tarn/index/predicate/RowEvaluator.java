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

import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/**
 * Evaluates a predicate on one row (a partition value, or a decoded row for a residual filter)
 * with SQL three-valued logic. Values are in the internal representation of their column type and
 * compare as {@link SqlComparison} says (FLOAT / DOUBLE: -0.0 = 0.0, NaN equals and orders with
 * nothing).
 */
public final class RowEvaluator
{
    private RowEvaluator() {}

    /**
     * Whether the row passes the filter: true only when the predicate is TRUE; FALSE and unknown
     * both reject the row.
     *
     * @param valueOf the row's value of a column (null for SQL NULL); called only for columns
     * in {@link Predicate#fieldIds()}
     * @throws IllegalArgumentException if a value is not of its column type's internal class
     */
    public static boolean test(Predicate predicate, Function<FieldRef, Object> valueOf)
    {
        return Boolean.TRUE.equals(evaluate(predicate, valueOf));
    }

    /**
     * The three-valued result: {@code TRUE}, {@code FALSE}, or null for unknown.
     */
    public static Boolean evaluate(Predicate predicate, Function<FieldRef, Object> valueOf)
    {
        requireNonNull(predicate, "predicate is null");
        requireNonNull(valueOf, "valueOf is null");
        if (predicate instanceof Comparison comparison) {
            Object value = valueOf.apply(comparison.field());
            if (value == null) {
                return null;
            }
            return SqlComparison.test(comparison.op(), comparison.field().type(), value, comparison.literal());
        }
        if (predicate instanceof In in) {
            Object value = valueOf.apply(in.field());
            if (value == null) {
                return null;
            }
            // literals are never null, so a miss is FALSE rather than unknown
            return in.contains(value);
        }
        if (predicate instanceof InRanges inRanges) {
            Object value = valueOf.apply(inRanges.field());
            if (value == null) {
                return null;
            }
            return inRanges.contains(value);
        }
        if (predicate instanceof IsNull isNull) {
            return valueOf.apply(isNull.field()) == null;
        }
        if (predicate instanceof IsNotNull isNotNull) {
            return valueOf.apply(isNotNull.field()) != null;
        }
        if (predicate instanceof StartsWith startsWith) {
            Object value = valueOf.apply(startsWith.field());
            if (value == null) {
                return null;
            }
            if (!(value instanceof String string)) {
                throw new IllegalArgumentException("Value " + value + " of column " + startsWith.field().name() + " is not a String");
            }
            return StartsWith.startsWith(string, startsWith.prefix());
        }
        if (predicate instanceof And and) {
            boolean unknown = false;
            for (Predicate child : and.children()) {
                Boolean result = evaluate(child, valueOf);
                if (result == null) {
                    unknown = true;
                }
                else if (!result) {
                    return false;
                }
            }
            return unknown ? null : Boolean.TRUE;
        }
        if (predicate instanceof Or or) {
            boolean unknown = false;
            for (Predicate child : or.children()) {
                Boolean result = evaluate(child, valueOf);
                if (result == null) {
                    unknown = true;
                }
                else if (result) {
                    return true;
                }
            }
            return unknown ? null : Boolean.FALSE;
        }
        if (predicate instanceof Not not) {
            Boolean result = evaluate(not.predicate(), valueOf);
            return result == null ? null : !result;
        }
        if (predicate instanceof AlwaysTrue) {
            return true;
        }
        if (predicate instanceof AlwaysFalse) {
            return false;
        }
        throw new IllegalArgumentException("Unknown predicate: " + predicate.getClass().getName());
    }
}
