package io.tarn.storage.grammar;

import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Literals;
import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.Predicate.Comparison.Operator;
import io.tarn.index.predicate.Predicates;
import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.RowType;
import io.tarn.types.TypeRoot;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
    private static final Pattern NUMBER = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");
    private static final Pattern DATE = Pattern.compile("(\\d{4})-(\\d{2})-(\\d{2})");
    private static final Pattern TIME = Pattern.compile("(\\d{2}):(\\d{2})(?::(\\d{2})(?:\\.(\\d{1,9}))?)?");
    private static final Pattern TIMESTAMP = Pattern.compile("(\\d{4}-\\d{2}-\\d{2})[T ](\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d{1,9})?)?)(Z|[+-]\\d{2}:\\d{2})?");
    private static final Pattern HEX = Pattern.compile("([0-9A-Fa-f]{2})*");

    private final String expression;
    private final RowType schema;
    private final List<Token> tokens;
    private int next;

    private FilterParser(String expression, RowType schema)
    {
        this.expression = expression;
        this.schema = schema;
        this.tokens = new Lexer(expression).tokens();
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
            throw error("Expected AND or the end of the expression but found " + describe(peek()), peek());
        }
        return Predicates.and(clauses);
    }

    private Predicate clause()
    {
        Token columnToken = take();
        if (columnToken.kind() != Kind.WORD && columnToken.kind() != Kind.QUOTED_NAME) {
            throw error("Expected a column name but found " + describe(columnToken), columnToken);
        }
        DataField field = column(columnToken);
        FieldRef ref = FieldRef.of(field);

        Token token = take();
        if (token.kind() == Kind.OPERATOR) {
            Operator op = operator(token);
            return Predicates.compare(ref, op, literal(field));
        }
        if (isKeyword(token, "is")) {
            boolean not = acceptKeyword("not");
            Token nullToken = take();
            if (!isKeyword(nullToken, "null")) {
                throw error("Expected NULL after IS" + (not ? " NOT" : "") + " but found " + describe(nullToken), nullToken);
            }
            return not ? Predicates.isNotNull(ref) : Predicates.isNull(ref);
        }
        boolean not = false;
        if (isKeyword(token, "not")) {
            not = true;
            token = take();
            if (!isKeyword(token, "between") && !isKeyword(token, "in")) {
                throw error("Expected BETWEEN or IN after NOT but found " + describe(token), token);
            }
        }
        if (isKeyword(token, "between")) {
            Object low = literal(field);
            Token and = take();
            if (!isKeyword(and, "and")) {
                throw error("Expected AND between the bounds of BETWEEN but found " + describe(and), and);
            }
            Object high = literal(field);
            Predicate between = Predicates.and(Predicates.greaterOrEqual(ref, low), Predicates.lessOrEqual(ref, high));
            // x < low OR x > high except on FLOAT / DOUBLE, where NaN is in neither, yet NOT BETWEEN is TRUE for it
            return not ? Predicates.negate(between) : between;
        }
        if (isKeyword(token, "in")) {
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
        throw error("Expected a comparison operator, BETWEEN, IN or IS after column " + field.name() + " but found " + describe(token), token);
    }

    private DataField column(Token token)
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

    private Operator operator(Token token)
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
        Token token = take();
        DataType type = field.type();
        if (!type.root().isAtomic() || type.root() == TypeRoot.VARIANT) {
            throw error("Column " + field.name() + " of type " + type.asSqlString() + " cannot be compared with a literal; only IS [NOT] NULL applies to it", token);
        }
        if (isKeyword(token, "null")) {
            throw error("NULL cannot be compared with =, <, IN or BETWEEN; use IS NULL or IS NOT NULL", token);
        }
        boolean isBoolean = isKeyword(token, "true") || isKeyword(token, "false");
        if (token.kind() != Kind.STRING && token.kind() != Kind.HEX && token.kind() != Kind.BARE && !isBoolean) {
            String hint = token.kind() == Kind.WORD ? "; quote strings with single quotes" : "";
            throw error("Expected a literal but found " + describe(token) + hint, token);
        }
        AtomicType atomic = (AtomicType) type;
        try {
            return switch (type.root()) {
                case BOOLEAN -> {
                    if (!isBoolean) {
                        throw mismatch(field, token, "TRUE or FALSE");
                    }
                    yield token.text().equalsIgnoreCase("true");
                }
                case TINYINT, SMALLINT, INT, BIGINT -> integer(field, token);
                case FLOAT -> {
                    // parse the text itself: a BigDecimal would turn -0.0 into 0.0, which orders differently
                    number(field, token);
                    float value = Float.parseFloat(token.text());
                    if (Float.isInfinite(value)) {
                        throw error("Number " + token.text() + " is out of the range of column " + field.name() + " of type " + type.asSqlString(), token);
                    }
                    yield value;
                }
                case DOUBLE -> {
                    number(field, token);
                    double value = Double.parseDouble(token.text());
                    if (Double.isInfinite(value)) {
                        throw error("Number " + token.text() + " is out of the range of column " + field.name() + " of type " + type.asSqlString(), token);
                    }
                    yield value;
                }
                case DECIMAL -> decimal(field, atomic, token);
                case CHAR, VARCHAR -> {
                    if (token.kind() != Kind.STRING) {
                        throw mismatch(field, token, "a quoted string");
                    }
                    yield token.text();
                }
                case BINARY, VARBINARY -> {
                    if (token.kind() != Kind.HEX) {
                        throw mismatch(field, token, "a hex literal X'...'");
                    }
                    yield HexFormat.of().parseHex(token.text());
                }
                case DATE -> date(field, token);
                case TIME -> time(field, atomic, token);
                case TIMESTAMP, TIMESTAMP_LTZ -> timestamp(field, atomic, token);
                default -> throw error("Column " + field.name() + " of type " + type.asSqlString() + " cannot be compared with a literal", token);
            };
        }
        catch (DateTimeException | ArithmeticException e) {
            throw new FilterSyntaxException("Literal " + token.text() + " is not a valid value of column " + field.name() + " of type " + type.asSqlString() + ": " + e.getMessage(),
                    expression, token.position(), e);
        }
    }

    private Object integer(DataField field, Token token)
    {
        BigDecimal number = number(field, token);
        BigInteger integer;
        try {
            integer = number.toBigIntegerExact();
        }
        catch (ArithmeticException e) {
            throw new FilterSyntaxException("Number " + token.text() + " is not a whole number, as column " + field.name() + " of type " + field.type().asSqlString() + " needs",
                    expression, token.position(), e);
        }
        try {
            return Literals.coerce(field.type(), integer);
        }
        catch (IllegalArgumentException e) {
            throw new FilterSyntaxException("Number " + token.text() + " is out of the range of column " + field.name() + " of type " + field.type().asSqlString(),
                    expression, token.position(), e);
        }
    }

    private BigDecimal decimal(DataField field, AtomicType type, Token token)
    {
        BigDecimal number = number(field, token);
        BigDecimal scaled;
        try {
            // setScale without a rounding mode fails instead of dropping digits
            scaled = number.setScale(type.scale());
        }
        catch (ArithmeticException e) {
            throw new FilterSyntaxException("Number " + token.text() + " has more fraction digits than column " + field.name() + " of type " + type.asSqlString() + " keeps",
                    expression, token.position(), e);
        }
        if (scaled.precision() > type.precision()) {
            throw error("Number " + token.text() + " has more digits than column " + field.name() + " of type " + type.asSqlString() + " keeps", token);
        }
        return scaled;
    }

    private BigDecimal number(DataField field, Token token)
    {
        if (token.kind() != Kind.BARE || !NUMBER.matcher(token.text()).matches()) {
            throw mismatch(field, token, "a number");
        }
        return new BigDecimal(token.text());
    }

    private Integer date(DataField field, Token token)
    {
        if (!isTemporalText(token) || !DATE.matcher(token.text()).matches()) {
            throw mismatch(field, token, "a date yyyy-MM-dd");
        }
        return Math.toIntExact(LocalDate.parse(token.text()).toEpochDay());
    }

    private Integer time(DataField field, AtomicType type, Token token)
    {
        Matcher matcher = TIME.matcher(token.text());
        if (!isTemporalText(token) || !matcher.matches()) {
            throw mismatch(field, token, "a time HH:mm[:ss[.fraction]]");
        }
        String fraction = matcher.group(4);
        checkFraction(field, type, token, fraction);
        LocalTime time = LocalTime.of(
                Integer.parseInt(matcher.group(1)),
                Integer.parseInt(matcher.group(2)),
                matcher.group(3) == null ? 0 : Integer.parseInt(matcher.group(3)),
                nanos(fraction));
        return (Integer) Literals.coerce(field.type(), time);
    }

    private Object timestamp(DataField field, AtomicType type, Token token)
    {
        boolean ltz = type.root() == TypeRoot.TIMESTAMP_LTZ;
        String expected = ltz ? "a timestamp yyyy-MM-ddTHH:mm[:ss[.fraction]][Z|+hh:mm] or a date" : "a timestamp yyyy-MM-ddTHH:mm[:ss[.fraction]] or a date";
        if (!isTemporalText(token)) {
            throw mismatch(field, token, expected);
        }
        LocalDateTime dateTime;
        ZoneOffset offset = ZoneOffset.UTC;
        Matcher matcher = TIMESTAMP.matcher(token.text());
        if (DATE.matcher(token.text()).matches()) {
            dateTime = LocalDate.parse(token.text()).atStartOfDay();
        }
        else if (matcher.matches() && (token.kind() == Kind.STRING || token.text().indexOf(' ') < 0)) {
            Matcher time = TIME.matcher(matcher.group(2));
            if (!time.matches()) {
                throw mismatch(field, token, expected);
            }
            checkFraction(field, type, token, time.group(4));
            dateTime = LocalDateTime.of(
                    LocalDate.parse(matcher.group(1)),
                    LocalTime.of(
                            Integer.parseInt(time.group(1)),
                            Integer.parseInt(time.group(2)),
                            time.group(3) == null ? 0 : Integer.parseInt(time.group(3)),
                            nanos(time.group(4))));
            String zone = matcher.group(3);
            if (zone != null) {
                if (!ltz) {
                    throw error("Column " + field.name() + " of type " + type.asSqlString() + " has no time zone, so literal " + token.text() + " may not have one", token);
                }
                offset = ZoneOffset.of(zone);
            }
        }
        else {
            throw mismatch(field, token, expected);
        }
        if (ltz) {
            return Literals.coerce(field.type(), dateTime.toInstant(offset));
        }
        return Literals.coerce(field.type(), dateTime);
    }

    private void checkFraction(DataField field, AtomicType type, Token token, String fraction)
    {
        if (fraction != null && fraction.length() > type.precision()) {
            throw error("Literal " + token.text() + " has " + fraction.length() + " fraction digits but column " + field.name() + " of type " + type.asSqlString() +
                    " keeps " + type.precision(), token);
        }
    }

    private static int nanos(String fraction)
    {
        if (fraction == null) {
            return 0;
        }
        return Integer.parseInt((fraction + "000000000").substring(0, 9));
    }

    private static boolean isTemporalText(Token token)
    {
        return token.kind() == Kind.STRING || token.kind() == Kind.BARE;
    }

    private FilterSyntaxException mismatch(DataField field, Token token, String expected)
    {
        return error("Column " + field.name() + " of type " + field.type().asSqlString() + " needs " + expected + " but found " + describe(token), token);
    }

    private Token peek()
    {
        return tokens.get(next);
    }

    private Token take()
    {
        Token token = tokens.get(next);
        if (token.kind() != Kind.END) {
            next++;
        }
        return token;
    }

    private boolean acceptKeyword(String keyword)
    {
        if (isKeyword(peek(), keyword)) {
            next++;
            return true;
        }
        return false;
    }

    private void expect(Kind kind, String text, String context)
    {
        Token token = take();
        if (token.kind() != kind) {
            throw error("Expected " + text + " " + context + " but found " + describe(token), token);
        }
    }

    private static boolean isKeyword(Token token, String keyword)
    {
        return token.kind() == Kind.WORD && token.text().toLowerCase(Locale.ROOT).equals(keyword);
    }

    private static String describe(Token token)
    {
        return switch (token.kind()) {
            case END -> "the end of the expression";
            case STRING -> "string '" + token.text().replace("'", "''") + "'";
            case HEX -> "hex literal X'" + token.text() + "'";
            case QUOTED_NAME -> "\"" + token.text().replace("\"", "\"\"") + "\"";
            default -> token.text();
        };
    }

    private FilterSyntaxException error(String problem, Token token)
    {
        return new FilterSyntaxException(problem, expression, token.position());
    }

    private enum Kind
    {
        WORD, QUOTED_NAME, STRING, HEX, BARE, OPERATOR, OPEN, CLOSE, COMMA, END
    }

    /**
     * A token: for STRING and QUOTED_NAME the unescaped content, for HEX the hex digits.
     */
    private record Token(Kind kind, String text, int position)
    {
        Token
        {
            requireNonNull(kind, "kind is null");
            requireNonNull(text, "text is null");
        }
    }

    private final class Lexer
    {
        private final String text;
        private int position;

        Lexer(String text)
        {
            this.text = text;
        }

        List<Token> tokens()
        {
            List<Token> tokens = new ArrayList<>();
            while (true) {
                while (position < text.length() && Character.isWhitespace(text.charAt(position))) {
                    position++;
                }
                if (position >= text.length()) {
                    tokens.add(new Token(Kind.END, "", text.length()));
                    return tokens;
                }
                tokens.add(token());
            }
        }

        private Token token()
        {
            int start = position;
            char c = text.charAt(position);
            if ((c == 'x' || c == 'X') && position + 1 < text.length() && text.charAt(position + 1) == '\'') {
                position++;
                String digits = quoted('\'', "hex literal");
                if (!HEX.matcher(digits).matches()) {
                    throw new FilterSyntaxException("Hex literal X'" + digits + "' needs an even number of hex digits", expression, start);
                }
                return new Token(Kind.HEX, digits, start);
            }
            if (Character.isLetter(c) || c == '_') {
                while (position < text.length() && (Character.isLetterOrDigit(text.charAt(position)) || text.charAt(position) == '_')) {
                    position++;
                }
                return new Token(Kind.WORD, text.substring(start, position), start);
            }
            if (isLiteralStart(c)) {
                // one run covers numbers, dates, times and timestamps with zones; the parser checks its shape
                while (position < text.length() && isLiteralPart(text.charAt(position))) {
                    position++;
                }
                String literal = text.substring(start, position);
                if (!NUMBER.matcher(literal).matches() && !DATE.matcher(literal).matches() && !TIME.matcher(literal).matches() && !TIMESTAMP.matcher(literal).matches()) {
                    throw new FilterSyntaxException("Malformed literal " + literal + "; expected a number, a date, a time or a timestamp", expression, start);
                }
                return new Token(Kind.BARE, literal, start);
            }
            switch (c) {
                case '\'' -> {
                    return new Token(Kind.STRING, quoted('\'', "string"), start);
                }
                case '"' -> {
                    String name = quoted('"', "quoted column name");
                    if (name.isEmpty()) {
                        throw new FilterSyntaxException("Empty quoted column name", expression, start);
                    }
                    return new Token(Kind.QUOTED_NAME, name, start);
                }
                case '(' -> {
                    position++;
                    return new Token(Kind.OPEN, "(", start);
                }
                case ')' -> {
                    position++;
                    return new Token(Kind.CLOSE, ")", start);
                }
                case ',' -> {
                    position++;
                    return new Token(Kind.COMMA, ",", start);
                }
                case '=' -> {
                    position++;
                    return new Token(Kind.OPERATOR, "=", start);
                }
                case '<' -> {
                    position++;
                    if (position < text.length() && (text.charAt(position) == '=' || text.charAt(position) == '>')) {
                        position++;
                    }
                    return new Token(Kind.OPERATOR, text.substring(start, position), start);
                }
                case '>' -> {
                    position++;
                    if (position < text.length() && text.charAt(position) == '=') {
                        position++;
                    }
                    return new Token(Kind.OPERATOR, text.substring(start, position), start);
                }
                case '!' -> {
                    if (position + 1 < text.length() && text.charAt(position + 1) == '=') {
                        position += 2;
                        return new Token(Kind.OPERATOR, "!=", start);
                    }
                    throw new FilterSyntaxException("Unexpected character '!'; did you mean != ?", expression, start);
                }
                default -> {
                    throw new FilterSyntaxException("Unexpected character '" + new String(Character.toChars(text.codePointAt(start))) + "'", expression, start);
                }
            }
        }

        private boolean isLiteralStart(char c)
        {
            if (c >= '0' && c <= '9') {
                return true;
            }
            if (c == '-' || c == '+' || c == '.') {
                int following = position + 1;
                if (following < text.length() && c != '.' && text.charAt(following) == '.') {
                    following++;
                }
                return following < text.length() && text.charAt(following) >= '0' && text.charAt(following) <= '9';
            }
            return false;
        }

        private static boolean isLiteralPart(char c)
        {
            return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' || c == ':' || c == '-' || c == '+' || c == '_';
        }

        /**
         * Reads a literal quoted by {@code quote}, in which a doubled quote stands for one.
         */
        private String quoted(char quote, String what)
        {
            int start = position;
            StringBuilder value = new StringBuilder();
            position++;
            while (true) {
                if (position >= text.length()) {
                    throw new FilterSyntaxException("Unterminated " + what + "; it has no closing " + quote, expression, start);
                }
                char c = text.charAt(position++);
                if (c == quote) {
                    if (position < text.length() && text.charAt(position) == quote) {
                        value.append(quote);
                        position++;
                    }
                    else {
                        return value.toString();
                    }
                }
                else {
                    value.append(c);
                }
            }
        }
    }
}
