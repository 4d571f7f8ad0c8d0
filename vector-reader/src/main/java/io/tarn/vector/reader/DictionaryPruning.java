package io.tarn.vector.reader;

import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.Predicate.And;
import io.tarn.index.predicate.Predicate.Comparison;
import io.tarn.index.predicate.Predicate.In;
import io.tarn.index.predicate.Predicate.InRanges;
import io.tarn.index.predicate.Predicate.Or;
import io.tarn.index.predicate.Predicates;
import io.tarn.index.predicate.SqlComparison;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Decides from the complete dictionaries of row-group columns whether a filter can match: an
 * {@code =} or {@code IN} leaf cannot when none of its literals is in the dictionary (a NULL never
 * equals anything). Values equal as SQL decides ({@link SqlComparison}): a FLOAT / DOUBLE zero
 * literal finds either zero in the dictionary, and NaN finds nothing. Every other leaf, and every
 * column without a complete dictionary, might match.
 */
final class DictionaryPruning
{
    private DictionaryPruning() {}

    static boolean mightMatch(Predicate predicate, Function<FieldRef, Optional<List<Object>>> dictionaries)
    {
        return visit(Predicates.pushNotDown(predicate), dictionaries);
    }

    private static boolean visit(Predicate predicate, Function<FieldRef, Optional<List<Object>>> dictionaries)
    {
        if (predicate instanceof And and) {
            for (Predicate child : and.children()) {
                if (!visit(child, dictionaries)) {
                    return false;
                }
            }
            return true;
        }
        if (predicate instanceof Or or) {
            for (Predicate child : or.children()) {
                if (visit(child, dictionaries)) {
                    return true;
                }
            }
            return false;
        }
        if (predicate instanceof Comparison comparison && comparison.op() == Comparison.Operator.EQUAL) {
            return anyPresent(comparison.field(), List.of(comparison.literal()), dictionaries);
        }
        if (predicate instanceof In in) {
            return anyMatching(in.field(), in::contains, dictionaries);
        }
        if (predicate instanceof InRanges inRanges) {
            return anyMatching(inRanges.field(), inRanges::contains, dictionaries);
        }
        return true;
    }

    /**
     * Whether a dictionary value passes a leaf that tests one value in O(log n): the dictionary
     * is walked, not the literals, whose number a dynamic filter makes large.
     */
    private static boolean anyMatching(FieldRef field, java.util.function.Predicate<Object> leaf, Function<FieldRef, Optional<List<Object>>> dictionaries)
    {
        Optional<List<Object>> dictionary = dictionaries.apply(field);
        if (dictionary.isEmpty()) {
            return true;
        }
        for (Object value : dictionary.get()) {
            if (value == null) {
                continue;
            }
            try {
                if (leaf.test(value)) {
                    return true;
                }
            }
            catch (IllegalArgumentException | ClassCastException e) {
                // a value of another class than the literals: cannot decide
                return true;
            }
        }
        return false;
    }

    private static boolean anyPresent(FieldRef field, List<Object> literals, Function<FieldRef, Optional<List<Object>>> dictionaries)
    {
        Optional<List<Object>> dictionary = dictionaries.apply(field);
        if (dictionary.isEmpty()) {
            return true;
        }
        for (Object literal : literals) {
            if (literal == null) {
                continue;
            }
            for (Object value : dictionary.get()) {
                try {
                    if (SqlComparison.equal(field.type(), value, literal)) {
                        return true;
                    }
                }
                catch (IllegalArgumentException e) {
                    // a literal of another class than the column's values: cannot decide
                    return true;
                }
            }
        }
        return false;
    }
}
