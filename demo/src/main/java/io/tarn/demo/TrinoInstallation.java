package io.tarn.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;

/**
 * Where the Trino server and CLI that the build fetched live: the server that module
 * {@code demo-server} lays out as Trino's {@code trino-server-core} tarball does ({@code bin/launcher},
 * {@code lib/}), the executable {@code trino-cli} jar, and the JDK that runs both (Trino 483 needs JDK 25 or newer).
 */
public record TrinoInstallation(Path serverHome, Path cliJar, Path javaHome)
{
    public static final String SERVER_HOME_PROPERTY = "tarn.trino.home";
    public static final String CLI_JAR_PROPERTY = "tarn.trino.cli";
    private static final int MINIMUM_JAVA_VERSION = 25;
    private static final String MAIN_JAR_PREFIX = "trino-main-";

    public TrinoInstallation
    {
        requireNonNull(serverHome, "serverHome is null");
        requireNonNull(cliJar, "cliJar is null");
        requireNonNull(javaHome, "javaHome is null");
    }

    /**
     * The installation named by the system properties {@value #SERVER_HOME_PROPERTY} and
     * {@value #CLI_JAR_PROPERTY} (set by the demo module's pom and by {@code ./tarn demo}), run by
     * the JDK of this process.
     */
    public static TrinoInstallation fromSystemProperties()
            throws IOException
    {
        TrinoInstallation installation = new TrinoInstallation(
                Path.of(requiredProperty(SERVER_HOME_PROPERTY)).toAbsolutePath(),
                Path.of(requiredProperty(CLI_JAR_PROPERTY)).toAbsolutePath(),
                Path.of(System.getProperty("java.home")));
        installation.verify();
        return installation;
    }

    /**
     * Checks the layout and the JDK, and makes the launcher executable (archive extraction does
     * not always keep the mode bits).
     */
    public void verify()
            throws IOException
    {
        if (!Files.isRegularFile(launcher()) || !Files.isDirectory(serverHome.resolve("lib"))) {
            throw new IOException("No Trino server at " + serverHome + " (expected bin/launcher and lib/): build the demo module first (./tarn demo does)");
        }
        if (!Files.isRegularFile(cliJar)) {
            throw new IOException("No Trino CLI jar at " + cliJar + ": build the demo module first (./tarn demo does)");
        }
        if (!Files.isExecutable(javaHome.resolve("bin/java"))) {
            throw new IOException("No java executable in " + javaHome);
        }
        if (Runtime.version().feature() < MINIMUM_JAVA_VERSION && javaHome.equals(Path.of(System.getProperty("java.home")))) {
            throw new IOException("Trino " + version() + " needs JDK " + MINIMUM_JAVA_VERSION + " or newer; this is JDK " + Runtime.version().feature() + " at " + javaHome);
        }
        makeExecutable(launcher());
        makeExecutable(nativeLauncher());
    }

    /**
     * The Trino release of the server, as its {@code lib/trino-main-VERSION.jar} names it (Trino's
     * own tarball prefixes the group id: {@code io.trino_trino-main-VERSION.jar}).
     */
    public String version()
            throws IOException
    {
        try (Stream<Path> jars = Files.list(serverHome.resolve("lib"))) {
            return jars.map(jar -> jar.getFileName().toString())
                    .map(name -> name.substring(name.lastIndexOf('_') + 1))
                    .filter(name -> name.startsWith(MAIN_JAR_PREFIX) && name.endsWith(".jar"))
                    .map(name -> name.substring(MAIN_JAR_PREFIX.length(), name.length() - ".jar".length()))
                    .findFirst()
                    .orElseThrow(() -> new IOException("No lib/" + MAIN_JAR_PREFIX + "VERSION.jar in the Trino server at " + serverHome));
        }
    }

    public Path launcher()
    {
        return serverHome.resolve("bin/launcher");
    }

    public Path java()
    {
        return javaHome.resolve("bin/java");
    }

    private Path nativeLauncher()
    {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT).startsWith("mac") ? "darwin" : "linux";
        String arch = switch (System.getProperty("os.arch")) {
            case "aarch64", "arm64" -> "arm64";
            case "ppc64le" -> "ppc64le";
            default -> "amd64";
        };
        return serverHome.resolve("bin").resolve(os + "-" + arch).resolve("launcher");
    }

    private static void makeExecutable(Path file)
            throws IOException
    {
        if (!Files.isRegularFile(file) || Files.isExecutable(file)) {
            return;
        }
        Set<PosixFilePermission> permissions = EnumSet.copyOf(Files.getPosixFilePermissions(file));
        permissions.add(PosixFilePermission.OWNER_EXECUTE);
        permissions.add(PosixFilePermission.GROUP_EXECUTE);
        permissions.add(PosixFilePermission.OTHERS_EXECUTE);
        Files.setPosixFilePermissions(file, permissions);
    }

    private static String requiredProperty(String name)
            throws IOException
    {
        String value = System.getProperty(name);
        if (value == null || value.isBlank()) {
            throw new IOException("System property " + name + " is not set: run through ./tarn demo or the demo module's tests");
        }
        return value;
    }
}
