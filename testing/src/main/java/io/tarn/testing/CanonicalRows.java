package io.tarn.testing;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The canonical form of a table's rows: one line per row (see {@link CanonicalValueFormatter}),
 * sorted by the unsigned bytes of their UTF-8 encoding (the order of {@code LC_ALL=C sort}), with
 * a row count and the lowercase hex SHA-256 of all sorted lines, each followed by {@code \n}.
 *
 * <p>{@link #text()} is the lines, each followed by {@code \n}, then the summary line
 * {@code rows=N sha256=H} followed by {@code \n}; so {@code head -n -1 | sha256sum} of the text
 * gives H. Two values are equal when their sorted lines are equal.
 */
public final class CanonicalRows
{
    private static final Comparator<String> UTF8_ORDER = (left, right) -> Arrays.compareUnsigned(
            left.getBytes(StandardCharsets.UTF_8),
            right.getBytes(StandardCharsets.UTF_8));

    private final List<String> lines;
    private final String sha256;

    private CanonicalRows(List<String> sortedLines, String sha256)
    {
        this.lines = List.copyOf(sortedLines);
        this.sha256 = requireNonNull(sha256, "sha256 is null");
    }

    /**
     * Sorts the given lines and computes the digest. A line must not contain LF, which the
     * canonical format always escapes.
     */
    public static CanonicalRows of(List<String> unsortedLines)
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

        MessageDigest digest = sha256Digest();
        List<String> sorted = new ArrayList<>(encoded.size());
        for (byte[] line : encoded) {
            digest.update(line);
            digest.update((byte) '\n');
            sorted.add(new String(line, StandardCharsets.UTF_8));
        }
        return new CanonicalRows(sorted, HexFormat.of().formatHex(digest.digest()));
    }

    /**
     * The comparator used to sort lines: unsigned lexicographic order of the UTF-8 bytes.
     */
    public static Comparator<String> utf8Order()
    {
        return UTF8_ORDER;
    }

    public List<String> lines()
    {
        return lines;
    }

    public int rowCount()
    {
        return lines.size();
    }

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
        return other instanceof CanonicalRows that && lines.equals(that.lines);
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

    private static MessageDigest sha256Digest()
    {
        try {
            return MessageDigest.getInstance("SHA-256");
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }
}
