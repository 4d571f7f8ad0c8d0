package io.tarn.storage.grammar;

import static java.util.Objects.requireNonNull;

/**
 * A version text (see {@link VersionParser}) that names no version: an unknown kind, a malformed
 * snapshot id or timestamp, a blank tag, or a branch name Paimon would not accept. The message
 * quotes the text as given and states the problem; front ends with their own spelling of the
 * text (the command line's options) build their messages from {@link #problem()}.
 */
public class VersionSyntaxException
        extends IllegalArgumentException
{
    private final String problem;
    private final String text;

    VersionSyntaxException(String problem, String text)
    {
        this(problem, text, null);
    }

    VersionSyntaxException(String problem, String text, Throwable cause)
    {
        super("Version '%s': %s".formatted(requireNonNull(text, "text is null"), requireNonNull(problem, "problem is null")), cause);
        this.problem = problem;
        this.text = text;
    }

    /**
     * What is wrong, without the text: {@code Snapshot ids start at 1}.
     */
    public String problem()
    {
        return problem;
    }

    /**
     * The text as given.
     */
    public String text()
    {
        return text;
    }
}
