package io.tarn.vector.writer;

import io.tarn.index.fileindex.MemorySizes;

import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The values of a table's options as the file writers read them: a missing key is its default,
 * a malformed value fails with {@link IllegalArgumentException} naming the key, never a silent
 * default.
 */
public final class WriteOptionValues
{
    private WriteOptionValues() {}

    public static int intOption(Map<String, String> options, String key, int defaultValue)
    {
        long value = longOption(options, key, defaultValue);
        if (value != (int) value) {
            throw new IllegalArgumentException("Option " + key + " is out of range: " + value);
        }
        return (int) value;
    }

    public static long longOption(Map<String, String> options, String key, long defaultValue)
    {
        return number(options, key, defaultValue, Long::parseLong);
    }

    public static double doubleOption(Map<String, String> options, String key, double defaultValue)
    {
        return number(options, key, defaultValue, Double::parseDouble);
    }

    public static boolean booleanOption(Map<String, String> options, String key, boolean defaultValue)
    {
        String value = options.get(key);
        if (value == null) {
            return defaultValue;
        }
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("Option " + key + " is not a boolean: " + value);
        };
    }

    private static <T> T number(Map<String, String> options, String key, T defaultValue, Function<String, T> parse)
    {
        String value = options.get(key);
        if (value == null) {
            return defaultValue;
        }
        try {
            return parse.apply(value.strip());
        }
        catch (NumberFormatException e) {
            throw new IllegalArgumentException("Option " + key + " is not a number: " + value, e);
        }
    }

    /**
     * A value in Paimon's MemorySize syntax (a number with an optional unit: b, k/kb, m/mb, g/gb,
     * t/tb, or the -bytes words), in bytes.
     */
    public static long memorySize(String key, String text)
    {
        return MemorySizes.parse(text, "option " + key);
    }
}
