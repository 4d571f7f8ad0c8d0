package io.tarn.testing;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * One older Apache Paimon release run as a child JVM: its class path is that release's
 * {@code paimon-bundle} (copied into this module's build directory by the build), the libraries
 * the bundles share with the oracle (Hadoop, compression, logging; taken from this JVM's class
 * path) and this module's classes, whose {@link PaimonProcessMain} does the work. So a test can
 * have Paimon 0.9 write tables and read them back with its own reader, while Tarn reads the same
 * files in the test's JVM.
 *
 * <p>Each call starts one JVM (about a second) and waits for it to end; a failure raises an
 * exception carrying the end of the child's output.
 */
public final class PaimonProcess
{
    private static final String VERSIONS_RESOURCE = "paimon-versions.properties";
    private static final long TIMEOUT_SECONDS = 180;
    // classes of the libraries the bundles do not contain, one per jar to put on the class path
    private static final List<String> SHARED_LIBRARY_CLASSES = List.of(
            "org.apache.hadoop.conf.Configuration",
            "org.apache.hadoop.shaded.com.google.common.base.Preconditions",
            "org.apache.commons.logging.LogFactory",
            "org.xerial.snappy.Snappy",
            "net.jpountz.lz4.LZ4Factory",
            "org.slf4j.LoggerFactory");

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
        return Arrays.stream(properties().getProperty("versions").split(",")).map(String::trim).toList();
    }

    public static PaimonProcess of(String version)
    {
        if (!olderVersions().contains(version)) {
            throw new IllegalArgumentException("Paimon " + version + " is not one of the releases the build provides: " + olderVersions());
        }
        Path bundle = Path.of(properties().getProperty("directory")).resolve("paimon-bundle-" + version + ".jar");
        if (!Files.isRegularFile(bundle)) {
            throw new IllegalStateException("Missing " + bundle + ": build the testing module (mvn install) to copy the Paimon bundles");
        }
        return new PaimonProcess(version, bundle);
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
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(
                "-Xmx512m",
                "-XX:TieredStopAtLevel=1",
                "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "--add-opens=java.base/java.lang=ALL-UNNAMED",
                "--add-opens=java.base/java.util=ALL-UNNAMED",
                "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
                "--sun-misc-unsafe-memory-access=allow",
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                classPath(),
                PaimonProcessMain.class.getName()));
        command.addAll(arguments);
        Path log;
        try {
            log = Files.createTempFile("tarn-paimon-" + version, ".log");
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
                throw new IllegalStateException("Paimon " + version + " did not finish '" + arguments.get(0) + "' within " + TIMEOUT_SECONDS + " s:\n" + tail(log));
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException("Paimon " + version + " failed '" + String.join(" ", arguments) + "' with exit code " + process.exitValue() + ":\n" + tail(log));
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot start Paimon " + version, e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        finally {
            try {
                Files.deleteIfExists(log);
            }
            catch (IOException e) {
                // a leftover log under the temp directory is harmless
            }
        }
    }

    private String classPath()
    {
        List<String> entries = new ArrayList<>();
        entries.add(location(PaimonProcessMain.class).toString());
        entries.add(bundle.toString());
        for (String className : SHARED_LIBRARY_CLASSES) {
            try {
                Path jar = location(Class.forName(className, false, PaimonProcess.class.getClassLoader()));
                if (!entries.contains(jar.toString())) {
                    entries.add(jar.toString());
                }
            }
            catch (ClassNotFoundException e) {
                throw new IllegalStateException("The class path of the Paimon processes needs " + className + ", which this JVM lacks", e);
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    private static Path location(Class<?> type)
    {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        }
        catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String tail(Path log)
    {
        try {
            String text = Files.readString(log, StandardCharsets.UTF_8);
            return text.length() <= 6000 ? text : "..." + text.substring(text.length() - 6000);
        }
        catch (IOException e) {
            return "(no output: " + e.getMessage() + ")";
        }
    }

    private static Properties properties()
    {
        try (InputStream in = PaimonProcess.class.getResourceAsStream(VERSIONS_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("Missing resource " + VERSIONS_RESOURCE + " of the testing module");
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties;
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String toString()
    {
        return "Paimon " + version;
    }
}
