package io.tarn.trino;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The connector metrics of an {@code EXPLAIN ANALYZE VERBOSE} text.
 */
final class ConnectorMetrics
{
    private ConnectorMetrics() {}

    /**
     * The value of metric {@code name}, summed over operators; 0 when no operator reports it.
     */
    static long sum(String explainAnalyze, String name)
    {
        Matcher matcher = Pattern.compile("'" + Pattern.quote(name) + "' = LongCount\\{total=(\\d+)\\}").matcher(explainAnalyze);
        long sum = 0;
        while (matcher.find()) {
            sum += Long.parseLong(matcher.group(1));
        }
        return sum;
    }

    /**
     * The value of metric {@code name}, summed over operators; fails when no operator reports it.
     */
    static long required(String explainAnalyze, String name)
    {
        if (!explainAnalyze.contains("'" + name + "' = LongCount")) {
            throw new AssertionError("No metric " + name + " in:\n" + explainAnalyze);
        }
        return sum(explainAnalyze, name);
    }
}
