package io.tarn.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * One older Apache Paimon release run as a child JVM ({@link ChildJvm}, on this JVM's
 * {@code java}): its class path is that release's {@code paimon-bundle} (copied into this module's
 * build directory by the build), the libraries the bundles share with the oracle (Hadoop,
 * compression, logging; taken from this JVM's class path) and this module's classes, whose
 * {@link PaimonProcessMain} does the work. So a test can have Paimon 0.9 write tables and read
 * them back with its own reader, while Tarn reads the same files in the test's JVM.
 *
 * <p>Each call starts one JVM (about a second) and waits for it to end; a failure raises an
 * exception carrying the end of the child's output.
 */
public final class PaimonProcess
{
    private static final long TIMEOUT_SECONDS = 180;

    private final String version;
    private final Path bundle;

    private PaimonProcess(String version, Path bundle)
    {
        this.version = requireNonNull(version, "version is null");
        this.bundle = requireNonNull(bundle, "bundle is null");
    }

    /**
     * The older releases the build provides, oldest first (0.9.0, 1.0.1, 1.2.0, 1.3.1).
     */
    public static List<String> olderVersions()
    {
        return Arrays.stream(ChildJvm.buildProperties().getProperty("versions").split(",")).map(String::trim).toList();
    }

    public static PaimonProcess of(String version)
    {
        if (!olderVersions().contains(version)) {
            throw new IllegalArgumentException("Paimon " + version + " is not one of the releases the build provides: " + olderVersions());
        }
        return new PaimonProcess(version, ChildJvm.builtJar("paimon-bundle-" + version + ".jar"));
    }

    public String version()
    {
        return version;
    }

    /**
     * The tables {@link #writeTables} writes, as {@code db.table}.
     */
    public static List<String> tables()
    {
        return PaimonProcessMain.TABLES;
    }

    /**
     * Writes {@link #tables()} into {@code warehouse} with this release, their data files laid out
     * as {@code layout} says. Releases before 1.0 default to ORC data files; unless the layout
     * chooses a format, the tables are written in Parquet, the default since 1.0.
     */
    public void writeTables(Path warehouse, ReferenceLayout layout)
    {
        requireNonNull(warehouse, "warehouse is null");
        Map<String, String> options = new LinkedHashMap<>();
        options.put("file.format", "parquet");
        options.putAll(layout.options());
        List<String> arguments = new ArrayList<>(List.of("write", warehouse.toAbsolutePath().toString()));
        options.forEach((key, value) -> arguments.add(key + "=" + value));
        run(arguments);
    }

    /**
     * Reads each table with this release's own reader, as {@link ReferenceReader#read} reads with
     * the oracle's.
     */
    public Map<String, CanonicalRows> readTables(Path warehouse, List<String> tables)
    {
        requireNonNull(warehouse, "warehouse is null");
        Path output = TemporaryDirectories.create("tarn-paimon-" + version + "-rows");
        try {
            List<String> arguments = new ArrayList<>(List.of("read", warehouse.toAbsolutePath().toString(), output.toString()));
            arguments.addAll(tables);
            run(arguments);
            Map<String, CanonicalRows> rows = new LinkedHashMap<>();
            for (String table : tables) {
                rows.put(table, parse(Files.readString(output.resolve(table + ".txt"), StandardCharsets.UTF_8)));
            }
            return rows;
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        finally {
            TemporaryDirectories.deleteRecursively(output);
        }
    }

    public CanonicalRows readTable(Path warehouse, String table)
    {
        return readTables(warehouse, List.of(table)).get(table);
    }

    // the text is the sorted lines and a summary line; the lines alone rebuild the same value
    private static CanonicalRows parse(String text)
    {
        List<String> lines = new ArrayList<>(Arrays.asList(text.split("\n", -1)));
        if (lines.size() < 2 || !lines.get(lines.size() - 1).isEmpty()) {
            throw new IllegalStateException("Canonical text does not end with a line break");
        }
        lines.remove(lines.size() - 1);
        String summary = lines.remove(lines.size() - 1);
        CanonicalRows rows = CanonicalRows.of(lines);
        if (!rows.summary().equals(summary)) {
            throw new IllegalStateException("Canonical text has summary '" + summary + "' but its lines give '" + rows.summary() + "'");
        }
        return rows;
    }

    private void run(List<String> arguments)
    {
        List<String> command = ChildJvm.command(ChildJvm.current(), bundle, List.of(), PaimonProcessMain.class, arguments);
        ChildJvm.run("Paimon " + version + " '" + String.join(" ", arguments) + "'", command, TIMEOUT_SECONDS);
    }

    @Override
    public String toString()
    {
        return "Paimon " + version;
    }
}
