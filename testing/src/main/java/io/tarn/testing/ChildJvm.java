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
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * How the testing module starts an Apache Paimon release in a JVM of its own: which {@code java}
 * runs it, the flags that JVM needs, its class path (a Paimon bundle, the libraries the bundles
 * share with the oracle, this module's classes) and a log whose end a failure reports.
 * {@link PaimonProcess} runs one command per JVM; {@link PaimonOnS3} keeps one JVM serving
 * requests.
 */
final class ChildJvm
{
    /**
     * Overrides where the JDK 17 of {@link #java17()} is: a JDK's home or its {@code bin/java}.
     */
    static final String JAVA_17_PROPERTY = "tarn.java17";
    static final String JAVA_17_ENVIRONMENT = "TARN_JAVA17";
    static final Path DEFAULT_JAVA_17_HOME = Path.of("/usr/lib/jvm/java-17-openjdk-amd64");

    private static final String BUILD_RESOURCE = "paimon-versions.properties";
    // classes of the libraries the bundles do not contain, one per jar to put on the class path
    private static final List<String> SHARED_LIBRARY_CLASSES = List.of(
            "org.apache.hadoop.conf.Configuration",
            "org.apache.hadoop.shaded.com.google.common.base.Preconditions",
            "org.apache.commons.logging.LogFactory",
            "org.apache.commons.io.IOUtils",
            "org.xerial.snappy.Snappy",
            "net.jpountz.lz4.LZ4Factory",
            "org.slf4j.LoggerFactory");
    private static final Pattern VERSION = Pattern.compile("version \"(1\\.)?(\\d+)");

    private ChildJvm() {}

    /**
     * A {@code java} executable and the feature release of its JDK (17 for 17.0.15).
     */
    record Java(Path executable, int feature)
    {
        Java
        {
            requireNonNull(executable, "executable is null");
        }

        /**
         * The flags a Paimon bundle needs on this release: Arrow and Paimon's memory segments
         * reach into {@code java.nio}; releases since 24 warn about, and will refuse,
         * {@code sun.misc.Unsafe} unless allowed, an option older ones do not know.
         */
        List<String> paimonFlags()
        {
            List<String> flags = new ArrayList<>(List.of(
                    "--add-opens=java.base/java.nio=ALL-UNNAMED",
                    "--add-opens=java.base/java.lang=ALL-UNNAMED",
                    "--add-opens=java.base/java.util=ALL-UNNAMED",
                    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED"));
            if (feature >= 24) {
                flags.add("--sun-misc-unsafe-memory-access=allow");
                flags.add("--enable-native-access=ALL-UNNAMED");
            }
            return flags;
        }
    }

    /**
     * The JVM running this code.
     */
    static Java current()
    {
        return new Java(Path.of(System.getProperty("java.home"), "bin", "java"), Runtime.version().feature());
    }

    /**
     * A JDK 17 (or up to 21) {@code java}, for Paimon's Hadoop-based file systems, which call
     * {@code Subject.getSubject}, refused since JDK 23 without a security manager, which JDK 24
     * removed. Looked for, in order: system property {@value #JAVA_17_PROPERTY}, environment
     * variable {@value #JAVA_17_ENVIRONMENT} (each a JDK home or its {@code bin/java}; when set,
     * it must be a JDK 17 to 21), {@link #DEFAULT_JAVA_17_HOME}, and the {@code java} on the
     * {@code PATH} if it is a JDK 17 to 21.
     */
    static Java java17()
    {
        List<String> looked = new ArrayList<>();
        Optional<String> override = Optional.ofNullable(System.getProperty(JAVA_17_PROPERTY)).filter(value -> !value.isBlank())
                .or(() -> Optional.ofNullable(System.getenv(JAVA_17_ENVIRONMENT)).filter(value -> !value.isBlank()));
        if (override.isPresent()) {
            Path path = Path.of(override.get());
            Path executable = Files.isDirectory(path) ? path.resolve("bin").resolve("java") : path;
            Optional<Java> java = probe(executable);
            if (java.isEmpty() || java.get().feature() < 17 || java.get().feature() > 21) {
                throw new IllegalStateException("%s / %s names %s, which is not a JDK 17 to 21 java (%s)".formatted(
                        JAVA_17_PROPERTY, JAVA_17_ENVIRONMENT, executable, java.map(found -> "release " + found.feature()).orElse("not runnable")));
            }
            return java.get();
        }
        looked.add("system property " + JAVA_17_PROPERTY + " and environment variable " + JAVA_17_ENVIRONMENT + " (unset)");
        Optional<Java> standard = probe(DEFAULT_JAVA_17_HOME.resolve("bin").resolve("java"));
        looked.add(DEFAULT_JAVA_17_HOME.resolve("bin").resolve("java") + standard.map(found -> " (release " + found.feature() + ")").orElse(" (missing)"));
        if (standard.isPresent() && standard.get().feature() == 17) {
            return standard.get();
        }
        Optional<Path> onPath = onPath("java");
        Optional<Java> fromPath = onPath.flatMap(ChildJvm::probe);
        looked.add("java on the PATH" + onPath.map(path -> " " + path).orElse(" (none)") + fromPath.map(found -> " (release " + found.feature() + ")").orElse(""));
        if (fromPath.isPresent() && fromPath.get().feature() >= 17 && fromPath.get().feature() <= 21) {
            return fromPath.get();
        }
        throw new IllegalStateException("No JDK 17 to 21 found to run Apache Paimon's S3 file system (Hadoop S3A calls Subject.getSubject, which JDK 23+ refuses); looked at: "
                + String.join("; ", looked) + ". Install OpenJDK 17 or set -D" + JAVA_17_PROPERTY + "=JDK_HOME");
    }

    private static Optional<Path> onPath(String name)
    {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String directory : path.split(File.pathSeparator)) {
            if (!directory.isEmpty()) {
                Path candidate = Path.of(directory, name);
                if (Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The release of a {@code java}: from the {@code release} file of its JDK when the real path
     * has one, else from what {@code java -version} prints; empty if it is not there or does not run.
     */
    private static Optional<Java> probe(Path executable)
    {
        if (!Files.isExecutable(executable)) {
            return Optional.empty();
        }
        try {
            Path real = executable.toRealPath();
            Path release = real.getParent().getParent().resolve("release");
            if (Files.isRegularFile(release)) {
                Properties properties = new Properties();
                try (InputStream in = Files.newInputStream(release)) {
                    properties.load(in);
                }
                String version = properties.getProperty("JAVA_VERSION", "").replace("\"", "");
                Matcher matcher = VERSION.matcher("version \"" + version);
                if (matcher.find()) {
                    return Optional.of(new Java(real, Integer.parseInt(matcher.group(2))));
                }
            }
            Process process = new ProcessBuilder(real.toString(), "-version").redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
                return Optional.empty();
            }
            Matcher matcher = VERSION.matcher(output);
            return matcher.find() ? Optional.of(new Java(real, Integer.parseInt(matcher.group(2)))) : Optional.empty();
        }
        catch (IOException e) {
            return Optional.empty();
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * The command that runs {@code mainClass} of this module with {@code java}, a small heap and
     * the quick-starting C1 compiler: a Paimon bundle first, then the libraries it shares with
     * the oracle, then {@code extraJars}.
     */
    static List<String> command(Java java, Path bundle, List<Path> extraJars, Class<?> mainClass, List<String> arguments)
    {
        List<String> command = new ArrayList<>();
        command.add(java.executable().toString());
        command.addAll(List.of("-Xmx512m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
        command.addAll(java.paimonFlags());
        List<String> entries = new ArrayList<>();
        entries.add(location(mainClass).toString());
        entries.add(bundle.toString());
        for (String className : SHARED_LIBRARY_CLASSES) {
            try {
                String jar = location(Class.forName(className, false, ChildJvm.class.getClassLoader())).toString();
                if (!entries.contains(jar)) {
                    entries.add(jar);
                }
            }
            catch (ClassNotFoundException e) {
                throw new IllegalStateException("The class path of a Paimon JVM needs " + className + ", which this JVM lacks", e);
            }
        }
        extraJars.forEach(jar -> entries.add(jar.toString()));
        command.add("-cp");
        command.add(String.join(File.pathSeparator, entries));
        command.add(mainClass.getName());
        command.addAll(arguments);
        return command;
    }

    /**
     * Runs {@code command} to its end, its output into a log that is deleted afterwards; fails,
     * with the end of the log, when it exits with an error or outlasts {@code timeoutSeconds}.
     */
    static void run(String name, List<String> command, long timeoutSeconds)
    {
        Path log = newLog(name);
        try {
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
                throw new IllegalStateException(name + " did not finish within " + timeoutSeconds + " s:\n" + tail(log));
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(name + " failed with exit code " + process.exitValue() + ":\n" + tail(log));
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot start " + name, e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        finally {
            deleteLog(log);
        }
    }

    static Path newLog(String name)
    {
        try {
            return Files.createTempFile("tarn-" + name.replaceAll("[^A-Za-z0-9.]+", "-"), ".log");
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void deleteLog(Path log)
    {
        try {
            Files.deleteIfExists(log);
        }
        catch (IOException e) {
            // a leftover log under the temp directory is harmless
        }
    }

    static String tail(Path log)
    {
        try {
            String text = Files.readString(log, StandardCharsets.UTF_8);
            return text.length() <= 6000 ? text : "..." + text.substring(text.length() - 6000);
        }
        catch (IOException e) {
            return "(no output: " + e.getMessage() + ")";
        }
    }

    static Path location(Class<?> type)
    {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        }
        catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * What the build wrote into this module's resources: where it copied the Paimon jars the child
     * JVMs run ({@code directory}), and which releases.
     */
    static Properties buildProperties()
    {
        try (InputStream in = ChildJvm.class.getResourceAsStream(BUILD_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("Missing resource " + BUILD_RESOURCE + " of the testing module");
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties;
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A jar the build copied into {@code directory}, failing clearly when the module was not built.
     */
    static Path builtJar(String fileName)
    {
        Path jar = Path.of(buildProperties().getProperty("directory")).resolve(fileName);
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("Missing " + jar + ": build the testing module (mvn install) to copy the Paimon jars");
        }
        return jar;
    }
}
