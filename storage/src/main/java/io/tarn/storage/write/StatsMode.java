package io.tarn.storage.write;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How much of a column's statistics a data file records (option {@code metadata.stats-mode},
 * per column {@code fields.<column>.stats-mode}): nothing, null counts only, exact min/max, or
 * min/max with strings cut to N code points (the max rounded up so it stays an upper bound).
 */
record StatsMode(Kind kind, int truncateLength)
{
    static final StatsMode DEFAULT = new StatsMode(Kind.TRUNCATE, 16);

    private static final Pattern TRUNCATE = Pattern.compile("truncate\\((\\d+)\\)");

    enum Kind
    {
        NONE, COUNTS, FULL, TRUNCATE
    }

    static StatsMode parse(String text, String tableName)
    {
        String value = text.trim().toLowerCase(Locale.ROOT);
        switch (value) {
            case "none" -> {
                return new StatsMode(Kind.NONE, 0);
            }
            case "counts" -> {
                return new StatsMode(Kind.COUNTS, 0);
            }
            case "full" -> {
                return new StatsMode(Kind.FULL, 0);
            }
            default -> {
                Matcher matcher = TRUNCATE.matcher(value);
                if (matcher.matches()) {
                    try {
                        return new StatsMode(Kind.TRUNCATE, Integer.parseInt(matcher.group(1)));
                    }
                    catch (NumberFormatException ignored) {
                        // falls through to the error below
                    }
                }
                throw new IllegalArgumentException("Table " + tableName + " has an invalid stats mode '" + text + "': expected none, counts, full or truncate(N)");
            }
        }
    }

    /**
     * The statistics to record for a column whose exact values are {@code min}, {@code max}
     * (null when unknown); null min and max when they cannot be kept.
     */
    Object[] apply(Object min, Object max)
    {
        return switch (kind) {
            case NONE, COUNTS -> new Object[] {null, null};
            case FULL -> new Object[] {min, max};
            case TRUNCATE -> truncate(min, max);
        };
    }

    private Object[] truncate(Object min, Object max)
    {
        if (!(min instanceof String) && !(max instanceof String)) {
            return new Object[] {min, max};
        }
        Object truncatedMax = max == null ? null : truncateMax((String) max);
        if (truncatedMax == null) {
            return new Object[] {null, null};
        }
        return new Object[] {min == null ? null : prefix((String) min), truncatedMax};
    }

    private String prefix(String value)
    {
        int codePoints = value.codePointCount(0, value.length());
        return codePoints <= truncateLength ? value : value.substring(0, value.offsetByCodePoints(0, truncateLength));
    }

    /**
     * The shortest upper bound of at most N code points: the prefix with its last code point that
     * can be incremented incremented, or null when none can.
     */
    private String truncateMax(String value)
    {
        String prefix = prefix(value);
        if (prefix.length() == value.length()) {
            return value;
        }
        for (int index = truncateLength - 1; index >= 0; index--) {
            int offset = prefix.offsetByCodePoints(0, index);
            int next = prefix.codePointAt(offset) + 1;
            if (Character.isValidCodePoint(next)) {
                return new StringBuilder(prefix.substring(0, offset)).appendCodePoint(next).toString();
            }
        }
        return null;
    }
}
