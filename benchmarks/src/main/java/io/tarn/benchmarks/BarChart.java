package io.tarn.benchmarks;

import java.util.List;
import java.util.Locale;

import static java.util.Objects.requireNonNull;

/**
 * Grouped bar charts as standalone SVG, the charts beside the reports: one group of bars per
 * scenario, one bar (and colour) per reader, each bar labelled with its value.
 */
final class BarChart
{
    private static final List<String> COLORS = List.of("#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#d62728");

    private BarChart() {}

    /**
     * {@code values[series][group]}: the value of reader {@code series} in scenario {@code group}.
     */
    static String svg(String title, String axisLabel, List<String> groups, List<String> series, double[][] values)
    {
        requireNonNull(title, "title is null");
        requireNonNull(axisLabel, "axisLabel is null");
        if (series.size() > COLORS.size() || values.length != series.size()) {
            throw new IllegalArgumentException("Chart needs one row of values per series, at most " + COLORS.size() + ": " + series);
        }
        double max = 0;
        for (double[] row : values) {
            if (row.length != groups.size()) {
                throw new IllegalArgumentException("Chart needs one value per group: " + groups);
            }
            for (double value : row) {
                max = Math.max(max, value);
            }
        }
        double step = niceStep(max / 5);
        double top = Math.ceil(max / step) * step;
        int width = 860;
        int height = 460;
        int left = 70;
        int right = 20;
        int plotTop = 50;
        int plotBottom = 370;
        double plotHeight = plotBottom - plotTop;
        double groupWidth = (width - left - right) / (double) groups.size();
        double barWidth = groupWidth * 0.8 / series.size();
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n", width, height, width, height));
        out.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
        out.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"24\" font-size=\"15\" font-weight=\"bold\">%s</text>%n", left, escape(title)));
        for (double tick = 0; tick <= top + step / 2; tick += step) {
            double y = plotBottom - tick / top * plotHeight;
            out.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>%n", left, y, width - right, y));
            out.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", left - 6, y + 4, trim(tick)));
        }
        out.append(String.format(Locale.ROOT, "<text transform=\"translate(18,%d) rotate(-90)\" text-anchor=\"middle\">%s</text>%n", (plotTop + plotBottom) / 2, escape(axisLabel)));
        for (int group = 0; group < groups.size(); group++) {
            double groupLeft = left + group * groupWidth + groupWidth * 0.1;
            for (int bar = 0; bar < series.size(); bar++) {
                double value = values[bar][group];
                double barHeight = value / top * plotHeight;
                double x = groupLeft + bar * barWidth;
                out.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>%n", x + 2, plotBottom - barHeight, barWidth - 4, barHeight, COLORS.get(bar)));
                out.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"11\">%.1f</text>%n", x + barWidth / 2, plotBottom - barHeight - 4, value));
            }
            out.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"13\">%s</text>%n", left + group * groupWidth + groupWidth / 2, plotBottom + 20, escape(groups.get(group))));
        }
        out.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>%n", left, plotBottom, width - right, plotBottom));
        double legendX = left;
        for (int bar = 0; bar < series.size(); bar++) {
            out.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>%n", legendX, plotBottom + 45, COLORS.get(bar)));
            out.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\">%s</text>%n", legendX + 16, plotBottom + 56, escape(series.get(bar))));
            legendX += 190;
        }
        out.append("</svg>\n");
        return out.toString();
    }

    private static String escape(String text)
    {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static double niceStep(double raw)
    {
        if (raw <= 0) {
            return 1;
        }
        double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double factor : new double[] {1, 2, 2.5, 5, 10}) {
            if (raw <= factor * magnitude) {
                return factor * magnitude;
            }
        }
        return 10 * magnitude;
    }

    private static String trim(double value)
    {
        return value == Math.rint(value) ? String.format(Locale.ROOT, "%.0f", value) : String.format(Locale.ROOT, "%.1f", value);
    }
}
