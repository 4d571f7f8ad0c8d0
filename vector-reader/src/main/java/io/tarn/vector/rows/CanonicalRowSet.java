package io.tarn.vector.rows;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A table's rows in canonical form: the lines of {@link CanonicalRowFormatter} sorted by the
 * unsigned bytes of their UTF-8 encoding (the order of {@code LC_ALL=C sort}), with the row count
 * and the lowercase hex SHA-256 of the sorted lines, each followed by {@code \n}.
 *
 * <p>{@link #text()} is every line followed by {@code \n}, then {@code rows=N sha256=H} followed by
 * {@code \n}; {@code head -n -1 | sha256sum} of it gives H. Two sets are equal when their sorted
 * lines are.
 */
public final class CanonicalRowSet
{
    private final List<String> lines;
    private final String sha256;

    private CanonicalRowSet(List<String> sortedLines, String sha256)
    {
        this.lines = List.copyOf(sortedLines);
        this.sha256 = requireNonNull(sha256, "sha256 is null");
    }

    /**
     * Sorts the lines and digests them.
     *
     * @throws IllegalArgumentException if a line contains LF, which the canonical format always
     * escapes, so such a line did not come from the formatter
     */
    public static CanonicalRowSet of(List<String> unsortedLines)
    {
        requireNonNull(unsortedLines, "unsortedLines is null");
        List<byte[]> encoded = new ArrayList<>(unsortedLines.size());
        for (String line : unsortedLines) {
            requireNonNull(line, "line is null");
            if (line.indexOf('\n') >= 0) {
                throw new IllegalArgumentException("Canonical line contains an unescaped LF: " + line);
            }
            encoded.add(line.getBytes(StandardCharsets.UTF_8));
        }
        encoded.sort(Arrays::compareUnsigned);

        MessageDigest digest = newDigest();
        List<String> sorted = new ArrayList<>(encoded.size());
        for (byte[] line : encoded) {
            digest.update(line);
            digest.update((byte) '\n');
            sorted.add(new String(line, StandardCharsets.UTF_8));
        }
        return new CanonicalRowSet(sorted, HexFormat.of().formatHex(digest.digest()));
    }

    public List<String> lines()
    {
        return lines;
    }

    public int rowCount()
    {
        return lines.size();
    }

    /**
     * Lowercase hex SHA-256 of the sorted lines, each followed by {@code \n}.
     */
    public String sha256()
    {
        return sha256;
    }

    /**
     * {@code rows=N sha256=H}, without a line terminator.
     */
    public String summary()
    {
        return "rows=" + lines.size() + " sha256=" + sha256;
    }

    public String text()
    {
        StringBuilder out = new StringBuilder();
        for (String line : lines) {
            out.append(line).append('\n');
        }
        return out.append(summary()).append('\n').toString();
    }

    @Override
    public boolean equals(Object other)
    {
        if (this == other) {
            return true;
        }
        return other instanceof CanonicalRowSet that && lines.equals(that.lines);
    }

    @Override
    public int hashCode()
    {
        return sha256.hashCode();
    }

    @Override
    public String toString()
    {
        return summary();
    }

    private static MessageDigest newDigest()
    {
        try {
            return MessageDigest.getInstance("SHA-256");
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }
}
