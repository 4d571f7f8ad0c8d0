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

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Renders predicates like SQL ({@code id = 5 AND name IS NULL}). Compound children are
 * parenthesized so the text never depends on operator precedence.
 */
final class PredicateFormatter
{
    private static final Pattern PLAIN_IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private PredicateFormatter() {}

    static String format(Predicate predicate)
    {
        if (predicate instanceof Comparison comparison) {
            return column(comparison.field()) + " " + comparison.op().symbol() + " " + Literals.format(comparison.field().type(), comparison.literal());
        }
        if (predicate instanceof In in) {
            return column(in.field()) + " IN (" + literals(in) + ")";
        }
        if (predicate instanceof InRanges inRanges) {
            // the equivalent SQL: the OR of each range's comparisons
            return inRanges.ranges().stream()
                    .map(range -> range(inRanges.field(), range))
                    .collect(Collectors.joining(" OR "));
        }
        if (predicate instanceof IsNull isNull) {
            return column(isNull.field()) + " IS NULL";
        }
        if (predicate instanceof IsNotNull isNotNull) {
            return column(isNotNull.field()) + " IS NOT NULL";
        }
        if (predicate instanceof StartsWith startsWith) {
            return "starts_with(" + column(startsWith.field()) + ", " + Literals.format(startsWith.field().type(), startsWith.prefix()) + ")";
        }
        if (predicate instanceof And and) {
            return join(and.children(), " AND ");
        }
        if (predicate instanceof Or or) {
            return join(or.children(), " OR ");
        }
        if (predicate instanceof Not not) {
            if (not.predicate() instanceof In in) {
                return column(in.field()) + " NOT IN (" + literals(in) + ")";
            }
            return "NOT " + operand(not.predicate());
        }
        if (predicate instanceof AlwaysTrue) {
            return "TRUE";
        }
        if (predicate instanceof AlwaysFalse) {
            return "FALSE";
        }
        throw new IllegalArgumentException("Unknown predicate: " + predicate.getClass().getName());
    }

    private static String literals(In in)
    {
        return in.literals().stream()
                .map(literal -> Literals.format(in.field().type(), literal))
                .collect(Collectors.joining(", "));
    }

    private static String range(FieldRef field, ValueRange range)
    {
        String column = column(field);
        if (range.isPoint()) {
            return column + " = " + Literals.format(field.type(), range.low());
        }
        List<String> bounds = new ArrayList<>();
        if (range.low() != null) {
            bounds.add(column + (range.lowInclusive() ? " >= " : " > ") + Literals.format(field.type(), range.low()));
        }
        if (range.high() != null) {
            bounds.add(column + (range.highInclusive() ? " <= " : " < ") + Literals.format(field.type(), range.high()));
        }
        if (bounds.isEmpty()) {
            return column + " IS NOT NULL";
        }
        return bounds.size() == 1 ? bounds.get(0) : "(" + String.join(" AND ", bounds) + ")";
    }

    private static String join(List<Predicate> children, String separator)
    {
        return children.stream()
                .map(PredicateFormatter::operand)
                .collect(Collectors.joining(separator));
    }

    private static String operand(Predicate predicate)
    {
        String text = format(predicate);
        boolean compound = predicate instanceof And || predicate instanceof Or || predicate instanceof Not
                || (predicate instanceof InRanges inRanges && inRanges.ranges().size() > 1);
        return compound ? "(" + text + ")" : text;
    }

    private static String column(FieldRef field)
    {
        if (PLAIN_IDENTIFIER.matcher(field.name()).matches()) {
            return field.name();
        }
        return "\"" + field.name().replace("\"", "\"\"") + "\"";
    }
}
