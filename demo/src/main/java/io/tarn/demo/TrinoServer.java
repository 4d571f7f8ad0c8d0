package io.tarn.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;

/**
 * A real Trino server process started from the server module {@code demo-server} lays out with the
 * airlift launcher ({@code bin/launcher start}, which daemonizes it and writes its pid file).
 *
 * <p>Layout below the configured directory: {@code etc/} (node.properties, jvm.config,
 * config.properties, log.properties, {@code catalog/NAME.properties}), {@code plugin/} (a copy of
 * each installed plugin directory, so that rebuilding a plugin does not pull jars from under a
 * running server), {@code data/} (the node's data directory: {@code var/log/server.log},
 * {@code var/run/launcher.pid}) and {@code server.port}. The server binds to 127.0.0.1 on a free
 * port. A stopped or crashed server is detected by its pid, and a pid reused by another process
 * is recognised by the data directory on its command line.
 */
public final class TrinoServer
{
    private static final String USER = "tarn";
    private static final String PORT_FILE = "server.port";
    private static final int STOP_TIMEOUT_SECONDS = 30;

    private final Path directory;
    private final int port;
    private final long pid;

    private TrinoServer(Path directory, int port, long pid)
    {
        this.directory = requireNonNull(directory, "directory is null");
        this.port = port;
        this.pid = pid;
    }

    /**
     * Lays out the server's directory (replacing what an earlier server left there), starts the
     * server and waits until it answers a query, at most {@code timeout}. A server that exits or
     * does not answer in time is stopped, and the exception shows the end of its log.
     */
    public static TrinoServer start(TrinoInstallation installation, TrinoServerConfig config, Duration timeout)
            throws IOException
    {
        requireNonNull(installation, "installation is null");
        requireNonNull(config, "config is null");
        installation.verify();
        Path directory = config.directory();
        Optional<TrinoServer> previous = running(directory);
        if (previous.isPresent()) {
            throw new IOException("A Trino server (pid " + previous.get().pid() + ") already runs from " + directory + "; stop it first");
        }
        // a pid file left by a crashed server would make the launcher refuse to start, or name another process
        Files.deleteIfExists(pidFile(directory));
        int port = freePort();
        layOut(config, port);

        List<String> command = List.of(
                installation.launcher().toString(),
                "--etc-dir=" + directory.resolve("etc"),
                "--data-dir=" + dataDirectory(directory),
                "--pid-file=" + pidFile(directory),
                "--jvm-dir=" + installation.javaHome(),
                "start");
        Process launcher = new ProcessBuilder(command)
                .directory(directory.toFile())
                .redirectErrorStream(true)
                .redirectOutput(directory.resolve("launcher.out").toFile())
                .start();
        try {
            if (!launcher.waitFor(60, TimeUnit.SECONDS) || launcher.exitValue() != 0) {
                launcher.destroyForcibly();
                throw new IOException("Trino's launcher failed: " + String.join(" ", command) + "\n" + tail(directory.resolve("launcher.out"), 20));
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while starting Trino", e);
        }
        long launched = readPid(directory).orElseThrow(() -> new IOException("Trino's launcher wrote no pid file " + pidFile(directory)));
        TrinoServer server = new TrinoServer(directory, port, serverPid(directory, launched));
        try {
            if (config.isWorker()) {
                server.awaitStarted(timeout);
            }
            else {
                server.awaitReady(timeout);
            }
        }
        catch (IOException | RuntimeException e) {
            server.stop();
            throw e;
        }
        return server;
    }

    /**
     * The server started earlier from {@code directory}, if its process still runs.
     */
    public static Optional<TrinoServer> running(Path directory)
            throws IOException
    {
        Path absolute = directory.toAbsolutePath();
        Optional<Long> pid = readPid(absolute);
        Path portFile = absolute.resolve(PORT_FILE);
        if (pid.isEmpty() || !Files.isRegularFile(portFile)) {
            return Optional.empty();
        }
        int port;
        try {
            port = Integer.parseInt(Files.readString(portFile).trim());
        }
        catch (NumberFormatException e) {
            return Optional.empty();
        }
        TrinoServer server = new TrinoServer(absolute, port, pid.get());
        return server.isThisServer() ? Optional.of(server) : Optional.empty();
    }

    public long pid()
    {
        return pid;
    }

    public int port()
    {
        return port;
    }

    public Path directory()
    {
        return directory;
    }

    public URI uri()
    {
        return URI.create("http://127.0.0.1:" + port);
    }

    public Path serverLog()
    {
        return dataDirectory(directory).resolve("var/log/server.log");
    }

    /**
     * Whether the server's process runs.
     */
    public boolean isAlive()
    {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /**
     * The pid of the server's JVM. The launcher reports the process it started, which usually
     * becomes the JVM; on a loaded machine it was seen to report a process that exited while the
     * JVM it started ran on under another pid (2026-12-03, `./tarn bench s3`: "started as 3759",
     * the JVM 3763). The JVM is the process whose command line names this server's data
     * directory; while none does yet, the reported pid stands.
     */
    private static long serverPid(Path directory, long launched)
            throws IOException
    {
        String marker = "-Dnode.data-dir=" + dataDirectory(directory);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            Optional<ProcessHandle> jvm = ProcessHandle.allProcesses()
                    .filter(process -> process.info().arguments().map(arguments -> Stream.of(arguments).anyMatch(marker::equals)).orElse(false))
                    .findFirst();
            if (jvm.isPresent()) {
                return jvm.get().pid();
            }
            sleep(Duration.ofMillis(100));
        }
        return launched;
    }

    /**
     * Whether the pid is this server's: its command line names this server's data directory. Right
     * after start-up the pid may still be the launcher's before it becomes Java, so only a pid
     * read back later (from the pid file of an earlier run) is checked this way.
     */
    private boolean isThisServer()
    {
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isEmpty() || !handle.get().isAlive()) {
            return false;
        }
        String marker = "-Dnode.data-dir=" + dataDirectory(directory);
        Optional<String[]> arguments = handle.get().info().arguments();
        // without access to the command line (another user's process), trust the pid file
        return arguments.isEmpty() || Stream.of(arguments.get()).anyMatch(marker::equals);
    }

    public Connection connect()
            throws SQLException
    {
        Properties properties = new Properties();
        properties.setProperty("user", USER);
        return DriverManager.getConnection("jdbc:trino://127.0.0.1:" + port, properties);
    }

    /**
     * Runs one statement through JDBC and returns its rows, each value as JDBC's
     * {@code getObject} returns it.
     */
    public List<List<Object>> query(String sql)
            throws SQLException
    {
        try (Connection connection = connect();
                Statement statement = connection.createStatement();
                ResultSet resultSet = statement.executeQuery(sql)) {
            int columns = resultSet.getMetaData().getColumnCount();
            List<List<Object>> rows = new ArrayList<>();
            while (resultSet.next()) {
                List<Object> row = new ArrayList<>(columns);
                for (int column = 1; column <= columns; column++) {
                    row.add(resultSet.getObject(column));
                }
                rows.add(Collections.unmodifiableList(row));
            }
            return List.copyOf(rows);
        }
    }

    /**
     * Waits until the server says it has started ({@code /v1/info}): a worker answers no query.
     */
    private void awaitStarted(Duration timeout)
            throws IOException
    {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest info = HttpRequest.newBuilder(URI.create(uri() + "/v1/info")).timeout(Duration.ofSeconds(5)).build();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!isAlive()) {
                throw new IOException("Trino worker (pid " + pid + ") exited during start-up; " + logTails());
            }
            try {
                HttpResponse<String> response = client.send(info, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200 && response.body().replace(" ", "").contains("\"starting\":false")) {
                    return;
                }
            }
            catch (IOException notYet) {
                // not listening yet
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("Interrupted while starting a Trino worker", e);
            }
            sleep(Duration.ofMillis(500));
        }
        throw new IOException("Trino worker (pid " + pid + ") did not start within " + timeout + "; " + logTails());
    }

    /**
     * Waits until {@code SELECT 1} succeeds: for a few seconds after start-up the coordinator
     * knows no active node and fails every query.
     */
    public void awaitReady(Duration timeout)
            throws IOException
    {
        long deadline = System.nanoTime() + timeout.toNanos();
        SQLException lastFailure = null;
        while (System.nanoTime() < deadline) {
            if (!isAlive()) {
                throw new IOException("Trino server (pid " + pid + ") exited during start-up; " + logTails(), lastFailure);
            }
            try {
                query("SELECT 1");
                return;
            }
            catch (SQLException e) {
                lastFailure = e;
            }
            sleep(Duration.ofMillis(500));
        }
        throw new IOException("Trino server (pid " + pid + ") did not answer a query within " + timeout.toSeconds() + "s; " + logTails(), lastFailure);
    }

    // the JVM's own output (before Trino's logging starts) goes to the launcher log, the rest to the server log
    private String logTails()
    {
        Path launcherLog = dataDirectory(directory).resolve("var/log/launcher.log");
        // the launcher logs its whole environment, which has no place in an error message
        String launcherTail = tail(launcherLog, 15).lines().filter(line -> !line.startsWith("Environment:")).collect(Collectors.joining("\n"));
        return "end of " + launcherLog + ":\n" + launcherTail + "\nend of " + serverLog() + ":\n" + tail(serverLog(), 40);
    }

    /**
     * Stops the server by its pid (SIGTERM, then SIGKILL after {@value #STOP_TIMEOUT_SECONDS}
     * seconds) and waits until its process is gone.
     */
    public void stop()
            throws IOException
    {
        if (isAlive()) {
            ProcessHandle handle = ProcessHandle.of(pid).orElseThrow();
            handle.destroy();
            try {
                handle.onExit().get(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            }
            catch (TimeoutException e) {
                handle.destroyForcibly();
                awaitExit(handle);
            }
            catch (ExecutionException e) {
                throw new IOException("Cannot wait for Trino server pid " + pid, e);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                handle.destroyForcibly();
                throw new IOException("Interrupted while stopping Trino server pid " + pid, e);
            }
        }
        Files.deleteIfExists(pidFile(directory));
        Files.deleteIfExists(directory.resolve(PORT_FILE));
    }

    /**
     * Stops the server when this JVM exits, for servers that must not outlive their user.
     */
    public TrinoServer stopOnExit()
    {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                stop();
            }
            catch (IOException e) {
                System.err.println("Cannot stop Trino server pid " + pid + ": " + e.getMessage());
            }
        }, "stop-trino-" + pid));
        return this;
    }

    @Override
    public String toString()
    {
        return "Trino server pid " + pid + " at " + uri();
    }

    private static void layOut(TrinoServerConfig config, int port)
            throws IOException
    {
        Path directory = config.directory();
        Path etc = directory.resolve("etc");
        Path plugins = directory.resolve("plugin");
        deleteRecursively(etc);
        deleteRecursively(plugins);
        Files.createDirectories(etc.resolve("catalog"));
        Files.createDirectories(plugins);
        Files.createDirectories(dataDirectory(directory));

        writeLines(etc.resolve("node.properties"),
                "node.environment=tarn",
                "node.id=" + UUID.randomUUID(),
                "node.data-dir=" + dataDirectory(directory),
                "node.bind-ip=127.0.0.1",
                "node.internal-address=127.0.0.1");
        List<String> jvm = new ArrayList<>(List.of(
                "-server",
                "-Xmx" + config.heap(),
                "-XX:+UseG1GC",
                "-XX:+ExplicitGCInvokesConcurrent",
                "-XX:+ExitOnOutOfMemoryError",
                "-XX:-OmitStackTraceInFastThrow",
                "-XX:ReservedCodeCacheSize=256M",
                "-XX:+EnableDynamicAgentLoading",
                "-Djdk.attach.allowAttachSelf=true",
                "-Dfile.encoding=UTF-8",
                // Trino 483 refuses to start without the Vector API
                "--add-modules=jdk.incubator.vector",
                // Arrow's memory (inside the Tarn plugin) reaches into java.nio and sun.misc.Unsafe
                "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "--sun-misc-unsafe-memory-access=allow",
                "--enable-native-access=ALL-UNNAMED"));
        jvm.addAll(config.jvmOptions());
        writeLines(etc.resolve("jvm.config"), jvm.toArray(String[]::new));
        writeLines(etc.resolve("config.properties"),
                "coordinator=" + !config.isWorker(),
                // a worker joins its coordinator; the coordinator of a cluster also runs tasks
                config.isWorker() ? "" : "node-scheduler.include-coordinator=true",
                "http-server.http.port=" + port,
                "discovery.uri=" + config.coordinator().map(URI::toString).orElse("http://127.0.0.1:" + port),
                "plugin.dir=" + plugins,
                // with static catalogs the coordinator learns which nodes serve a catalog from its own
                // announcement, re-read every 5 s: for those first seconds 'SELECT 1' answers but every
                // table scan fails with "No nodes available". Dynamic management serves every catalog on
                // every node, which is the truth for one node; the catalogs still come from the files below
                "catalog.management=dynamic",
                // a worker takes its catalogs from the coordinator
                config.isWorker() ? "" : "catalog.store=file",
                // (no failure-detector.enabled=false: Trino 483's default node inventory, announce, has
                // no failure detector, and the server refuses a property nothing uses)
                // one node: no spilling, no fault-tolerant exchange, the web UI stays quiet
                "query.max-memory=" + halfOf(config.heap()),
                "query.max-memory-per-node=" + halfOf(config.heap()));
        // the file catalog store reads the catalogs below; they are written from the configuration at
        // every start, so CREATE CATALOG and DROP CATALOG are refused rather than silently undone
        writeLines(etc.resolve("catalog-store.properties"),
                "catalog.config-dir=" + etc.resolve("catalog"),
                "catalog.read-only=true");
        // parquet-mr (inside the Hive plugin) logs every file it filters at INFO
        writeLines(etc.resolve("log.properties"), "io.trino=INFO", "org.apache.parquet=WARN");
        for (Map.Entry<String, Map<String, String>> catalog : config.catalogs().entrySet()) {
            List<String> lines = new ArrayList<>();
            catalog.getValue().forEach((key, value) -> lines.add(key + "=" + value));
            writeLines(etc.resolve("catalog").resolve(catalog.getKey() + ".properties"), lines.toArray(String[]::new));
        }
        for (Map.Entry<String, Path> plugin : config.plugins().entrySet()) {
            if (!Files.isDirectory(plugin.getValue())) {
                throw new IOException("Plugin directory " + plugin.getValue() + " for plugin '" + plugin.getKey() + "' does not exist");
            }
            copyRecursively(plugin.getValue(), plugins.resolve(plugin.getKey()));
        }
        Files.writeString(directory.resolve(PORT_FILE), port + "\n");
    }

    private static String halfOf(String heap)
    {
        long megabytes = Long.parseLong(heap.substring(0, heap.length() - 1)) * (heap.endsWith("G") ? 1024 : 1);
        return Math.max(megabytes / 2, 64) + "MB";
    }

    private static Path dataDirectory(Path directory)
    {
        return directory.resolve("data");
    }

    private static Path pidFile(Path directory)
    {
        return dataDirectory(directory).resolve("var/run/launcher.pid");
    }

    private static Optional<Long> readPid(Path directory)
            throws IOException
    {
        Path file = pidFile(directory);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(Long.parseLong(Files.readString(file).trim()));
        }
        catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static int freePort()
            throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
    }

    private static void awaitExit(ProcessHandle handle)
            throws IOException
    {
        try {
            handle.onExit().get(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        catch (ExecutionException | TimeoutException e) {
            throw new IOException("Trino server pid " + handle.pid() + " survived SIGKILL", e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while stopping Trino server pid " + handle.pid(), e);
        }
    }

    static String tail(Path file, int lines)
    {
        if (!Files.isRegularFile(file)) {
            return "(no " + file + ")";
        }
        try {
            List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        }
        catch (IOException e) {
            return "(cannot read " + file + ": " + e.getMessage() + ")";
        }
    }

    private static void writeLines(Path file, String... lines)
            throws IOException
    {
        Files.writeString(file, String.join("\n", lines) + "\n");
    }

    private static void copyRecursively(Path source, Path target)
            throws IOException
    {
        try (Stream<Path> paths = Files.walk(source)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                Path destination = target.resolve(source.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(destination);
                }
                else {
                    Files.copy(path, destination, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    static void deleteRecursively(Path directory)
            throws IOException
    {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(path);
            }
        }
        catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static void sleep(Duration duration)
            throws IOException
    {
        try {
            Thread.sleep(duration.toMillis());
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while waiting for Trino", e);
        }
    }
}
