package io.tarn.storage.grammar;

import java.util.Locale;

import static java.util.Objects.requireNonNull;

/**
 * A token of a filter expression ({@link FilterLexer}): for STRING and QUOTED_NAME the unescaped
 * content, for HEX the hex digits; {@code position} is where it starts in the expression.
 */
record FilterToken(Kind kind, String text, int position)
{
    enum Kind
    {
        WORD, QUOTED_NAME, STRING, HEX, BARE, OPERATOR, OPEN, CLOSE, COMMA, END
    }

    FilterToken
    {
        requireNonNull(kind, "kind is null");
        requireNonNull(text, "text is null");
    }

    /**
     * Whether this is the keyword {@code keyword} (lower case), written in any case.
     */
    boolean isKeyword(String keyword)
    {
        return kind == Kind.WORD && text.toLowerCase(Locale.ROOT).equals(keyword);
    }

    /**
     * This token as error messages show it.
     */
    String describe()
    {
        return switch (kind) {
            case END -> "the end of the expression";
            case STRING -> "string '" + text.replace("'", "''") + "'";
            case HEX -> "hex literal X'" + text + "'";
            case QUOTED_NAME -> "\"" + text.replace("\"", "\"\"") + "\"";
            default -> text;
        };
    }
}
