package io.tarn.storage.grammar;

import io.tarn.index.predicate.Literals;
import io.tarn.storage.grammar.FilterToken.Kind;
import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.TypeRoot;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Converts the literals of a filter expression ({@link FilterParser}) to the internal
 * representation of their column's type, exactly or not at all.
 */
final class FilterLiteralConverter
{
    // the shapes of bare literals: FilterLexer accepts these, the conversion tells them apart
    static final Pattern NUMBER = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");
    static final Pattern DATE = Pattern.compile("(\\d{4})-(\\d{2})-(\\d{2})");
    static final Pattern TIME = Pattern.compile("(\\d{2}):(\\d{2})(?::(\\d{2})(?:\\.(\\d{1,9}))?)?");
    static final Pattern TIMESTAMP = Pattern.compile("(\\d{4}-\\d{2}-\\d{2})[T ](\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d{1,9})?)?)(Z|[+-]\\d{2}:\\d{2})?");

    private final String expression;

    FilterLiteralConverter(String expression)
    {
        this.expression = expression;
    }

    /**
     * The value of literal {@code token} in the internal representation of the field's type.
     *
     * @throws FilterSyntaxException if the token is no literal, or one that does not convert
     * exactly to the field's type, or if the field's type cannot be compared with a literal
     */
    Object convert(DataField field, FilterToken token)
    {
        DataType type = field.type();
        if (!type.root().isAtomic() || type.root() == TypeRoot.VARIANT) {
            throw error("Column " + field.name() + " of type " + type.asSqlString() + " cannot be compared with a literal; only IS [NOT] NULL applies to it", token);
        }
        if (token.isKeyword("null")) {
            throw error("NULL cannot be compared with =, <, IN or BETWEEN; use IS NULL or IS NOT NULL", token);
        }
        boolean isBoolean = token.isKeyword("true") || token.isKeyword("false");
        if (token.kind() != Kind.STRING && token.kind() != Kind.HEX && token.kind() != Kind.BARE && !isBoolean) {
            String hint = token.kind() == Kind.WORD ? "; quote strings with single quotes" : "";
            throw error("Expected a literal but found " + token.describe() + hint, token);
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

    private Object integer(DataField field, FilterToken token)
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

    private BigDecimal decimal(DataField field, AtomicType type, FilterToken token)
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

    private BigDecimal number(DataField field, FilterToken token)
    {
        if (token.kind() != Kind.BARE || !NUMBER.matcher(token.text()).matches()) {
            throw mismatch(field, token, "a number");
        }
        return new BigDecimal(token.text());
    }

    private Integer date(DataField field, FilterToken token)
    {
        if (!isTemporalText(token) || !DATE.matcher(token.text()).matches()) {
            throw mismatch(field, token, "a date yyyy-MM-dd");
        }
        return Math.toIntExact(LocalDate.parse(token.text()).toEpochDay());
    }

    private Integer time(DataField field, AtomicType type, FilterToken token)
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

    private Object timestamp(DataField field, AtomicType type, FilterToken token)
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

    private void checkFraction(DataField field, AtomicType type, FilterToken token, String fraction)
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

    private static boolean isTemporalText(FilterToken token)
    {
        return token.kind() == Kind.STRING || token.kind() == Kind.BARE;
    }

    private FilterSyntaxException mismatch(DataField field, FilterToken token, String expected)
    {
        return error("Column " + field.name() + " of type " + field.type().asSqlString() + " needs " + expected + " but found " + token.describe(), token);
    }

    private FilterSyntaxException error(String problem, FilterToken token)
    {
        return new FilterSyntaxException(problem, expression, token.position());
    }
}
