package io.tarn.index.fileindex;

import java.util.Locale;

/**
 * Paimon's {@code MemorySize} syntax: a whole number with an optional unit (b, kb, mb, gb, tb,
 * also k, m, g, t and the spelled-out binary names), case-insensitive, binary multiples.
 */
public final class MemorySizes
{
    private MemorySizes() {}

    /**
     * The number of bytes {@code value} stands for.
     *
     * @throws IllegalArgumentException naming {@code what} when the value is malformed or too large
     */
    public static long parse(String value, String what)
    {
        String text = value.trim().toLowerCase(Locale.ROOT);
        int split = 0;
        while (split < text.length() && Character.isDigit(text.charAt(split))) {
            split++;
        }
        IllegalArgumentException invalid = new IllegalArgumentException("Invalid value for " + what + ": '" + value + "'");
        if (split == 0) {
            throw invalid;
        }
        long multiplier = switch (text.substring(split).trim()) {
            case "", "b", "bytes" -> 1;
            case "k", "kb", "kibibytes" -> 1L << 10;
            case "m", "mb", "mebibytes" -> 1L << 20;
            case "g", "gb", "gibibytes" -> 1L << 30;
            case "t", "tb", "tebibytes" -> 1L << 40;
            default -> throw invalid;
        };
        try {
            return Math.multiplyExact(Long.parseLong(text.substring(0, split)), multiplier);
        }
        catch (ArithmeticException | NumberFormatException e) {
            invalid.initCause(e);
            throw invalid;
        }
    }
}
