package io.tarn.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Describes the machine a benchmark ran on from Linux's {@code /proc}; elsewhere it says unknown
 * rather than failing the run.
 */
final class MachineInfo
{
    private MachineInfo() {}

    static String cpuModel()
    {
        return field(Path.of("/proc/cpuinfo"), "model name").orElse("unknown CPU");
    }

    static String memory()
    {
        return field(Path.of("/proc/meminfo"), "MemTotal")
                .map(value -> {
                    String kilobytes = value.replace("kB", "").trim();
                    try {
                        return String.format(Locale.ROOT, "%.1f GiB total", Long.parseLong(kilobytes) / (1024.0 * 1024.0));
                    }
                    catch (NumberFormatException e) {
                        return value;
                    }
                })
                .orElse("unknown");
    }

    static String loadAverage()
    {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return parts.length >= 3 ? parts[0] + " " + parts[1] + " " + parts[2] : "unknown";
        }
        catch (IOException e) {
            return "unknown";
        }
    }

    private static Optional<String> field(Path file, String name)
    {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        }
        catch (IOException e) {
            return Optional.empty();
        }
        for (String line : lines) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equals(name)) {
                return Optional.of(line.substring(colon + 1).trim());
            }
        }
        return Optional.empty();
    }
}
