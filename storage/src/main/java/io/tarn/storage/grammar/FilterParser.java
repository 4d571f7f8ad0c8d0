package io.tarn.storage.grammar;

import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.Predicate.Comparison.Operator;
import io.tarn.index.predicate.Predicates;
import io.tarn.storage.grammar.FilterToken.Kind;
import io.tarn.types.DataField;
import io.tarn.types.RowType;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * Parses a filter expression into a {@link Predicate} over a table schema: the one filter grammar
 * of every front end ({@code tarn dump --where}, the C ABI's {@code where} argument), which is why
 * it lives below them. Error messages call the text the {@code --where} expression, the name users
 * of both know it by.
 *
 * <pre>
 * expression := clause (AND clause)*
 * clause     := column (= | != | &lt;&gt; | &lt; | &lt;= | &gt; | &gt;=) literal
 *             | column [NOT] BETWEEN literal AND literal
 *             | column [NOT] IN ( literal (, literal)* )
 *             | column IS [NOT] NULL
 * column     := name | "name with ""quotes"""
 * literal    := number | 'string with ''quotes''' | X'hex' | TRUE | FALSE
 *             | date | time | timestamp (bare, or quoted like a string)
 * </pre>
 * Keywords are case-insensitive; a bare column name matches exactly, or else case-insensitively
 * when only one column matches so. A literal is converted to its column's type exactly or
 * rejected: integers must be whole and in range, DECIMAL literals must fit the column's scale and
 * precision, FLOAT and DOUBLE take the nearest value of a decimal or scientific number, strings
 * only compare with CHAR / VARCHAR, hex literals with BINARY / VARBINARY. Dates are
 * {@code yyyy-MM-dd}; times {@code HH:mm[:ss[.fraction]]}; timestamps a date, {@code T} (or a
 * space inside quotes), a time, and for TIMESTAMP_LTZ columns an optional {@code Z} or
 * {@code +hh:mm} offset (without one the time is UTC). A date alone for a timestamp column means
 * its midnight. A time or timestamp literal may not have more fraction digits than the column's
 * precision. ARRAY, MAP, MULTISET and ROW columns only take IS [NOT] NULL.
 */
public final class FilterParser
{
    private final String expression;
    private final RowType schema;
    private final List<FilterToken> tokens;
    private final FilterLiteralConverter literals;
    private int next;

    private FilterParser(String expression, RowType schema)
    {
        this.expression = expression;
        this.schema = schema;
        this.tokens = new FilterLexer(expression).tokens();
        this.literals = new FilterLiteralConverter(expression);
    }

    /**
     * The predicate of {@code expression} over the columns of {@code schema}.
     *
     * @throws FilterSyntaxException if the expression is malformed, names an unknown column, has a
     * literal that does not convert exactly to its column's type, or compares a column whose type
     * cannot be compared
     */
    public static Predicate parse(String expression, RowType schema)
    {
        requireNonNull(expression, "expression is null");
        requireNonNull(schema, "schema is null");
        return new FilterParser(expression, schema).expression();
    }

    private Predicate expression()
    {
        if (peek().kind() == Kind.END) {
            throw error("Empty expression; expected a column", peek());
        }
        List<Predicate> clauses = new ArrayList<>();
        clauses.add(clause());
        while (acceptKeyword("and")) {
            clauses.add(clause());
        }
        if (peek().kind() != Kind.END) {
            throw error("Expected AND or the end of the expression but found " + peek().describe(), peek());
        }
        return Predicates.and(clauses);
    }

    private Predicate clause()
    {
        FilterToken columnToken = take();
        if (columnToken.kind() != Kind.WORD && columnToken.kind() != Kind.QUOTED_NAME) {
            throw error("Expected a column name but found " + columnToken.describe(), columnToken);
        }
        DataField field = column(columnToken);
        FieldRef ref = FieldRef.of(field);

        FilterToken token = take();
        if (token.kind() == Kind.OPERATOR) {
            Operator op = operator(token);
            return Predicates.compare(ref, op, literal(field));
        }
        if (token.isKeyword("is")) {
            boolean not = acceptKeyword("not");
            FilterToken nullToken = take();
            if (!nullToken.isKeyword("null")) {
                throw error("Expected NULL after IS" + (not ? " NOT" : "") + " but found " + nullToken.describe(), nullToken);
            }
            return not ? Predicates.isNotNull(ref) : Predicates.isNull(ref);
        }
        boolean not = false;
        if (token.isKeyword("not")) {
            not = true;
            token = take();
            if (!token.isKeyword("between") && !token.isKeyword("in")) {
                throw error("Expected BETWEEN or IN after NOT but found " + token.describe(), token);
            }
        }
        if (token.isKeyword("between")) {
            Object low = literal(field);
            FilterToken and = take();
            if (!and.isKeyword("and")) {
                throw error("Expected AND between the bounds of BETWEEN but found " + and.describe(), and);
            }
            Object high = literal(field);
            Predicate between = Predicates.and(Predicates.greaterOrEqual(ref, low), Predicates.lessOrEqual(ref, high));
            // x < low OR x > high except on FLOAT / DOUBLE, where NaN is in neither, yet NOT BETWEEN is TRUE for it
            return not ? Predicates.negate(between) : between;
        }
        if (token.isKeyword("in")) {
            expect(Kind.OPEN, "(", "after IN");
            List<Object> values = new ArrayList<>();
            values.add(literal(field));
            while (peek().kind() == Kind.COMMA) {
                take();
                values.add(literal(field));
            }
            expect(Kind.CLOSE, ")", "or , in the IN list");
            return not ? Predicates.notIn(ref, values) : Predicates.in(ref, values);
        }
        throw error("Expected a comparison operator, BETWEEN, IN or IS after column " + field.name() + " but found " + token.describe(), token);
    }

    private DataField column(FilterToken token)
    {
        String name = token.text();
        if (schema.field(name).isPresent()) {
            return schema.field(name).get();
        }
        if (token.kind() == Kind.WORD) {
            List<DataField> matches = schema.fields().stream()
                    .filter(field -> field.name().equalsIgnoreCase(name))
                    .toList();
            if (matches.size() == 1) {
                return matches.get(0);
            }
            if (matches.size() > 1) {
                throw error("Column name " + name + " matches several columns when case is ignored (" + names(matches) + "); write it in double quotes with its exact case", token);
            }
        }
        throw error("Unknown column " + name + "; the columns are " + names(schema.fields()), token);
    }

    private static String names(List<DataField> fields)
    {
        return fields.stream().map(DataField::name).collect(Collectors.joining(", "));
    }

    private Operator operator(FilterToken token)
    {
        return switch (token.text()) {
            case "=" -> Operator.EQUAL;
            case "!=", "<>" -> Operator.NOT_EQUAL;
            case "<" -> Operator.LESS_THAN;
            case "<=" -> Operator.LESS_THAN_OR_EQUAL;
            case ">" -> Operator.GREATER_THAN;
            case ">=" -> Operator.GREATER_THAN_OR_EQUAL;
            default -> throw error("Unknown operator " + token.text(), token);
        };
    }

    /**
     * Reads one literal and converts it to the internal representation of the field's type.
     */
    private Object literal(DataField field)
    {
        return literals.convert(field, take());
    }

    private FilterToken peek()
    {
        return tokens.get(next);
    }

    private FilterToken take()
    {
        FilterToken token = tokens.get(next);
        if (token.kind() != Kind.END) {
            next++;
        }
        return token;
    }

    private boolean acceptKeyword(String keyword)
    {
        if (peek().isKeyword(keyword)) {
            next++;
            return true;
        }
        return false;
    }

    private void expect(Kind kind, String text, String context)
    {
        FilterToken token = take();
        if (token.kind() != kind) {
            throw error("Expected " + text + " " + context + " but found " + token.describe(), token);
        }
    }

    private FilterSyntaxException error(String problem, FilterToken token)
    {
        return new FilterSyntaxException(problem, expression, token.position());
    }
}
