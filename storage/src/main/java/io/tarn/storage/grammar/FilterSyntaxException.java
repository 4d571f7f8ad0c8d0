package io.tarn.storage.grammar;

import static java.util.Objects.requireNonNull;

/**
 * A filter expression ({@code --where}, see {@link FilterParser}) that cannot be turned into a
 * predicate: malformed text, an unknown column, a literal that does not fit its column's type, or a
 * column type that cannot be filtered. The message names the problem, the 1-based position, and
 * shows the expression with a caret under that position.
 */
public class FilterSyntaxException
        extends IllegalArgumentException
{
    private final String expression;
    private final int position;

    public FilterSyntaxException(String problem, String expression, int position)
    {
        this(problem, expression, position, null);
    }

    public FilterSyntaxException(String problem, String expression, int position, Throwable cause)
    {
        super(message(problem, expression, position), cause);
        this.expression = expression;
        this.position = position;
    }

    /**
     * The expression as given.
     */
    public String expression()
    {
        return expression;
    }

    /**
     * The 0-based index in {@link #expression()} of the character where the problem was found.
     */
    public int position()
    {
        return position;
    }

    private static String message(String problem, String expression, int position)
    {
        requireNonNull(problem, "problem is null");
        requireNonNull(expression, "expression is null");
        if (position < 0 || position > expression.length()) {
            throw new IllegalArgumentException("Position " + position + " is outside the expression");
        }
        // line breaks and tabs would misalign the caret
        String shown = expression.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
        return problem + " at position " + (position + 1) + " of the --where expression:\n  " + shown + "\n  " + " ".repeat(position) + "^";
    }
}
