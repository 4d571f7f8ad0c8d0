package io.tarn.index.predicate;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * A filter over table columns, referenced by field id. Predicates are immutable trees; leaves
 * compare one column with literals in the internal representation of the column's type (checked
 * at construction, see {@link Literals}).
 * <p>
 * Semantics are SQL's three-valued logic: a leaf over a NULL value is unknown (except IS [NOT]
 * NULL), AND/OR/NOT follow Kleene logic, and a row passes a filter only when the predicate is TRUE.
 * Values compare as {@link SqlComparison} says: ordered by {@link io.tarn.types.ValueComparator}
 * (strings by code point), except FLOAT / DOUBLE, which follow SQL and IEEE 754 as Trino does:
 * {@code -0.0 = 0.0}, and NaN equals nothing, not even NaN, and is neither below nor above any
 * value, so {@code x = NaN}, {@code x < NaN} and {@code NaN >= v} are FALSE while
 * {@code NaN <> v} and {@code NaN NOT IN (...)} are TRUE. Hence {@code NOT (x >= v)} is not
 * {@code x < v} on those types, and {@link Predicates#pushNotDown} keeps such a NOT.
 * <p>
 * Build predicates with {@link Predicates}, which also simplifies; the records can be built
 * directly when an exact shape is wanted.
 */
public sealed interface Predicate
        permits Predicate.Comparison, Predicate.In, Predicate.InRanges, Predicate.IsNull, Predicate.IsNotNull, Predicate.StartsWith,
        Predicate.And, Predicate.Or, Predicate.Not, Predicate.AlwaysTrue, Predicate.AlwaysFalse
{
    /**
     * The ids of all columns this predicate reads, in first-use order.
     */
    default Set<Integer> fieldIds()
    {
        Set<Integer> ids = new LinkedHashSet<>();
        collectFieldIds(this, ids);
        return Collections.unmodifiableSet(ids);
    }

    private static void collectFieldIds(Predicate predicate, Set<Integer> ids)
    {
        if (predicate instanceof Comparison comparison) {
            ids.add(comparison.field().fieldId());
        }
        else if (predicate instanceof In in) {
            ids.add(in.field().fieldId());
        }
        else if (predicate instanceof InRanges inRanges) {
            ids.add(inRanges.field().fieldId());
        }
        else if (predicate instanceof IsNull isNull) {
            ids.add(isNull.field().fieldId());
        }
        else if (predicate instanceof IsNotNull isNotNull) {
            ids.add(isNotNull.field().fieldId());
        }
        else if (predicate instanceof StartsWith startsWith) {
            ids.add(startsWith.field().fieldId());
        }
        else if (predicate instanceof And and) {
            and.children().forEach(child -> collectFieldIds(child, ids));
        }
        else if (predicate instanceof Or or) {
            or.children().forEach(child -> collectFieldIds(child, ids));
        }
        else if (predicate instanceof Not not) {
            collectFieldIds(not.predicate(), ids);
        }
    }

    /**
     * {@code field op literal}. The literal is non-null and of the field type's internal class.
     */
    record Comparison(FieldRef field, Operator op, Object literal)
            implements Predicate
    {
        public enum Operator
        {
            EQUAL("="),
            NOT_EQUAL("<>"),
            LESS_THAN("<"),
            LESS_THAN_OR_EQUAL("<="),
            GREATER_THAN(">"),
            GREATER_THAN_OR_EQUAL(">=");

            private final String symbol;

            Operator(String symbol)
            {
                this.symbol = symbol;
            }

            public String symbol()
            {
                return symbol;
            }

            /**
             * The operator of {@code NOT (x op v)}; exact under three-valued logic because both
             * sides are unknown exactly when x is NULL, except for the range operators on FLOAT /
             * DOUBLE, where NaN makes {@code x op v} and {@code x (negated op) v} both FALSE.
             */
            public Operator negate()
            {
                return switch (this) {
                    case EQUAL -> NOT_EQUAL;
                    case NOT_EQUAL -> EQUAL;
                    case LESS_THAN -> GREATER_THAN_OR_EQUAL;
                    case LESS_THAN_OR_EQUAL -> GREATER_THAN;
                    case GREATER_THAN -> LESS_THAN_OR_EQUAL;
                    case GREATER_THAN_OR_EQUAL -> LESS_THAN;
                };
            }
        }

        public Comparison
        {
            requireNonNull(field, "field is null");
            requireNonNull(op, "op is null");
            literal = Literals.checkLiteral(field, literal);
        }

        @Override
        public boolean equals(Object other)
        {
            return other instanceof Comparison that && field.equals(that.field) && op == that.op && Literals.literalEquals(literal, that.literal);
        }

        @Override
        public int hashCode()
        {
            return (field.hashCode() * 31 + op.hashCode()) * 31 + Literals.literalHash(literal);
        }

        @Override
        public String toString()
        {
            return PredicateFormatter.format(this);
        }
    }

    /**
     * {@code field IN (literals)}; NOT IN is {@code Not(In)}. The list is non-empty, without nulls;
     * it is kept sorted by {@link io.tarn.types.ValueComparator} and without duplicates, with
     * lookup structures built once here, so that testing a value costs O(log n) whatever the
     * number of literals (dynamic filters bring 10^5 of them).
     */
    record In(FieldRef field, List<Object> literals)
            implements Predicate
    {
        public In
        {
            requireNonNull(field, "field is null");
            requireNonNull(literals, "literals is null");
            if (literals.isEmpty()) {
                throw new IllegalArgumentException("IN list for column " + field.name() + " is empty");
            }
            if (!(literals instanceof LiteralSet set && set.type().equals(field.type()))) {
                List<Object> checked = new ArrayList<>(literals.size());
                for (Object literal : literals) {
                    checked.add(Literals.checkLiteral(field, literal));
                }
                literals = new LiteralSet(field.type(), checked);
            }
        }

        /**
         * Whether a non-null value of the column equals a literal under SQL (NaN equals nothing,
         * -0.0 equals 0.0).
         */
        public boolean contains(Object value)
        {
            return set().matches(value);
        }

        /**
         * {@link #contains} for TINYINT, SMALLINT, INT, BIGINT, DATE and TIME columns.
         */
        public boolean containsLong(long value)
        {
            return set().containsLong(value);
        }

        /**
         * {@link #contains} for FLOAT and DOUBLE columns.
         */
        public boolean containsNumber(double value)
        {
            return set().containsNumber(value);
        }

        /**
         * {@link #contains} for TIMESTAMP and TIMESTAMP_LTZ columns.
         */
        public boolean containsTimestamp(long epochMillis, int nanoOfMillisecond)
        {
            return set().containsTimestamp(epochMillis, nanoOfMillisecond);
        }

        /**
         * Whether {@link #containsBytes} can be used: a binary column, or a string column whose
         * literals are all well-formed UTF-16 (so that they have UTF-8 bytes).
         */
        public boolean hasByteKeys()
        {
            return set().hasByteKeys();
        }

        /**
         * Whether {@link #containsLong} (integers, dates, times) or {@link #containsBytes} answers
         * with one bitmap test or hash probe; other types take a binary search.
         */
        public boolean hasConstantTimeMembership()
        {
            return set().hasConstantTimeMembership();
        }

        /**
         * {@link #contains} for the UTF-8 bytes of a string or the bytes of a binary value; one
         * hash probe.
         */
        public boolean containsBytes(byte[] data, int offset, int length)
        {
            return set().containsBytes(data, offset, length);
        }

        /**
         * Whether a literal other than NaN lies in {@code [min, max]}, under SQL order; a null
         * bound is absent, neither bound is NaN. One binary search.
         */
        public boolean anyBetween(Object min, Object max)
        {
            return set().anyBetween(min, max);
        }

        private LiteralSet set()
        {
            return (LiteralSet) literals;
        }

        @Override
        public boolean equals(Object other)
        {
            return other instanceof In that && field.equals(that.field) && Literals.literalEquals(literals.toArray(), that.literals.toArray());
        }

        @Override
        public int hashCode()
        {
            return field.hashCode() * 31 + Literals.literalHash(literals.toArray());
        }

        @Override
        public String toString()
        {
            return PredicateFormatter.format(this);
        }
    }

    /**
     * {@code field} lies in one of {@code ranges}: the disjunction of the ranges' bound
     * comparisons, kept as one leaf so that a value is tested with one binary search rather than
     * with every range (a dynamic filter may hold 10^5 ranges). The ranges are non-empty,
     * ascending and disjoint, without NaN bounds (see {@link Predicates#inRanges}, which
     * normalizes any list). A range without bounds holds every non-null value, NaN included;
     * otherwise NaN lies in no range. NOT IN RANGES is {@code Not(InRanges)}.
     */
    record InRanges(FieldRef field, List<ValueRange> ranges)
            implements Predicate
    {
        public InRanges
        {
            requireNonNull(field, "field is null");
            requireNonNull(ranges, "ranges is null");
            if (!(ranges instanceof RangeList list && list.type().equals(field.type()))) {
                ranges = new RangeList(field, ranges);
            }
        }

        /**
         * Whether a non-null value of the column lies in a range.
         */
        public boolean contains(Object value)
        {
            return list().matches(value);
        }

        /**
         * {@link #contains} for TINYINT, SMALLINT, INT, BIGINT, DATE and TIME columns.
         */
        public boolean containsLong(long value)
        {
            return list().containsLong(value);
        }

        /**
         * {@link #contains} for FLOAT and DOUBLE columns.
         */
        public boolean containsNumber(double value)
        {
            return list().containsNumber(value);
        }

        /**
         * Whether a range meets {@code [min, max]} (inclusive; a null bound is absent; neither is
         * NaN). One binary search.
         */
        public boolean overlaps(Object min, Object max)
        {
            return list().overlaps(min, max);
        }

        /**
         * Whether one range holds all of {@code [min, max]} (both non-null, not NaN).
         */
        public boolean covers(Object min, Object max)
        {
            return list().covers(min, max);
        }

        private RangeList list()
        {
            return (RangeList) ranges;
        }

        @Override
        public String toString()
        {
            return PredicateFormatter.format(this);
        }
    }

    record IsNull(FieldRef field)
            implements Predicate
    {
        public IsNull
        {
            requireNonNull(field, "field is null");
        }

        @Override
        public String toString()
        {
            return PredicateFormatter.format(this);
        }
    }

    record IsNotNull(FieldRef field)
            implements Predicate
    {
        public IsNotNull
        {
            requireNonNull(field, "field is null");
        }

        @Override
        public String toString()
        {
            return PredicateFormatter.format(this);
        }
    }

    /**
     * {@code starts_with(field, prefix)} on a CHAR or VARCHAR column; the prefix is compared by
     * code points, so it never matches half of a surrogate pair.
     */
    record StartsWith(FieldRef field, String prefix)
            implements Predicate
    {
        public StartsWith
        {
            requireNonNull(field, "field is null");
            if (!field.type().root().isCharacterString()) {
                throw new IllegalArgumentException("starts_with needs a string column, but column " + field.name() + " is " + field.type().asSqlString());
            }
            if (prefix == null) {
                throw new IllegalArgumentException("Prefix for column " + field.name() + " is null");
            }
        }

        static boolean startsWith(String value, String prefix)
        {
            int length = prefix.length();
            if (!value.startsWith(prefix)) {
                return false;
            }
            // a prefix ending in a high surrogate must not split the pair it starts in the value
            return length == 0 || length == value.length()
                    || !Character.isHighSurrogate(prefix.charAt(length - 1)) || !Character.isLowSurrogate(value.charAt(length));
        }

        @Override
        public String toString()
        {
            return PredicateFormatter.format(this);
        }
    }

    /**
     * Conjunction of at least two predicates.
     */
    record And(List<Predicate> children)
            implements Predicate
    {
        public And
        {
            children = checkChildren(children, "AND");
        }

        @Override
        public String toString()
        {
            return PredicateFormatter.format(this);
        }
    }

    /**
     * Disjunction of at least two predicates.
     */
    record Or(List<Predicate> children)
            implements Predicate
    {
        public Or
        {
            children = checkChildren(children, "OR");
        }

        @Override
        public String toString()
        {
            return PredicateFormatter.format(this);
        }
    }

    record Not(Predicate predicate)
            implements Predicate
    {
        public Not
        {
            requireNonNull(predicate, "predicate is null");
        }

        @Override
        public String toString()
        {
            return PredicateFormatter.format(this);
        }
    }

    record AlwaysTrue()
            implements Predicate
    {
        @Override
        public String toString()
        {
            return "TRUE";
        }
    }

    record AlwaysFalse()
            implements Predicate
    {
        @Override
        public String toString()
        {
            return "FALSE";
        }
    }

    private static List<Predicate> checkChildren(List<Predicate> children, String operator)
    {
        requireNonNull(children, "children is null");
        List<Predicate> copy = List.copyOf(children);
        if (copy.size() < 2) {
            throw new IllegalArgumentException(operator + " needs at least two children, got " + copy.size() + "; use Predicates." + operator.toLowerCase(Locale.ROOT) + " to simplify");
        }
        return copy;
    }
}
