package io.tarn.storage.grammar;

import io.tarn.storage.grammar.FilterToken.Kind;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import static io.tarn.storage.grammar.FilterLiteralConverter.DATE;
import static io.tarn.storage.grammar.FilterLiteralConverter.NUMBER;
import static io.tarn.storage.grammar.FilterLiteralConverter.TIME;
import static io.tarn.storage.grammar.FilterLiteralConverter.TIMESTAMP;

/**
 * Splits a filter expression ({@link FilterParser}) into tokens, ending with an END token.
 */
final class FilterLexer
{
    private static final Pattern HEX = Pattern.compile("([0-9A-Fa-f]{2})*");

    private final String text;
    private int position;

    FilterLexer(String text)
    {
        this.text = text;
    }

    /**
     * @throws FilterSyntaxException on a character no token starts with, an unterminated quote,
     * or a malformed literal
     */
    List<FilterToken> tokens()
    {
        List<FilterToken> tokens = new ArrayList<>();
        while (true) {
            while (position < text.length() && Character.isWhitespace(text.charAt(position))) {
                position++;
            }
            if (position >= text.length()) {
                tokens.add(new FilterToken(Kind.END, "", text.length()));
                return tokens;
            }
            tokens.add(token());
        }
    }

    private FilterToken token()
    {
        int start = position;
        char c = text.charAt(position);
        if ((c == 'x' || c == 'X') && position + 1 < text.length() && text.charAt(position + 1) == '\'') {
            position++;
            String digits = quoted('\'', "hex literal");
            if (!HEX.matcher(digits).matches()) {
                throw new FilterSyntaxException("Hex literal X'" + digits + "' needs an even number of hex digits", text, start);
            }
            return new FilterToken(Kind.HEX, digits, start);
        }
        if (Character.isLetter(c) || c == '_') {
            while (position < text.length() && (Character.isLetterOrDigit(text.charAt(position)) || text.charAt(position) == '_')) {
                position++;
            }
            return new FilterToken(Kind.WORD, text.substring(start, position), start);
        }
        if (isLiteralStart(c)) {
            // one run covers numbers, dates, times and timestamps with zones; the parser checks its shape
            while (position < text.length() && isLiteralPart(text.charAt(position))) {
                position++;
            }
            String literal = text.substring(start, position);
            if (!NUMBER.matcher(literal).matches() && !DATE.matcher(literal).matches() && !TIME.matcher(literal).matches() && !TIMESTAMP.matcher(literal).matches()) {
                throw new FilterSyntaxException("Malformed literal " + literal + "; expected a number, a date, a time or a timestamp", text, start);
            }
            return new FilterToken(Kind.BARE, literal, start);
        }
        switch (c) {
            case '\'' -> {
                return new FilterToken(Kind.STRING, quoted('\'', "string"), start);
            }
            case '"' -> {
                String name = quoted('"', "quoted column name");
                if (name.isEmpty()) {
                    throw new FilterSyntaxException("Empty quoted column name", text, start);
                }
                return new FilterToken(Kind.QUOTED_NAME, name, start);
            }
            case '(' -> {
                position++;
                return new FilterToken(Kind.OPEN, "(", start);
            }
            case ')' -> {
                position++;
                return new FilterToken(Kind.CLOSE, ")", start);
            }
            case ',' -> {
                position++;
                return new FilterToken(Kind.COMMA, ",", start);
            }
            case '=' -> {
                position++;
                return new FilterToken(Kind.OPERATOR, "=", start);
            }
            case '<' -> {
                position++;
                if (position < text.length() && (text.charAt(position) == '=' || text.charAt(position) == '>')) {
                    position++;
                }
                return new FilterToken(Kind.OPERATOR, text.substring(start, position), start);
            }
            case '>' -> {
                position++;
                if (position < text.length() && text.charAt(position) == '=') {
                    position++;
                }
                return new FilterToken(Kind.OPERATOR, text.substring(start, position), start);
            }
            case '!' -> {
                if (position + 1 < text.length() && text.charAt(position + 1) == '=') {
                    position += 2;
                    return new FilterToken(Kind.OPERATOR, "!=", start);
                }
                throw new FilterSyntaxException("Unexpected character '!'; did you mean != ?", text, start);
            }
            default -> {
                throw new FilterSyntaxException("Unexpected character '" + new String(Character.toChars(text.codePointAt(start))) + "'", text, start);
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
                throw new FilterSyntaxException("Unterminated " + what + "; it has no closing " + quote, text, start);
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
