package io.tarn.s3server;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;

/**
 * A real S3-compatible server, S3Proxy over a local directory, in its own JVM on 127.0.0.1: the
 * object store of the tests. Requests are signed (AWS signature V2 or V4) with the credentials
 * {@link #clientProperties()} gives. A bucket is a directory under the data directory, so a test
 * can create one, or place objects in it, by writing files.
 */
public final class S3ProxyServer
        implements AutoCloseable
{
    public static final String ACCESS_KEY = "tarn-access-key";
    public static final String SECRET_KEY = "tarn-secret-key";
    private static final long START_TIMEOUT_MILLIS = 60_000;

    private final Process process;
    // a test JVM that exits without closing the server must not leave it running
    private final Thread killOnExit;
    private final Path dataDirectory;
    private final Path log;
    private final int port;

    private S3ProxyServer(Process process, Path dataDirectory, Path log, int port)
    {
        this.process = process;
        this.killOnExit = new Thread(process::destroyForcibly, "s3proxy-kill-on-exit");
        Runtime.getRuntime().addShutdownHook(killOnExit);
        this.dataDirectory = dataDirectory;
        this.log = log;
        this.port = port;
    }

    /**
     * Starts a server that keeps its buckets under {@code workDirectory/data}; returns once it
     * accepts connections.
     */
    public static S3ProxyServer start(Path workDirectory)
            throws IOException
    {
        requireNonNull(workDirectory, "workDirectory is null");
        Path dataDirectory = Files.createDirectories(workDirectory.resolve("data"));
        int port = freePort();
        Path properties = workDirectory.resolve("s3proxy.properties");
        // Trino's native S3 file system lists with x-amz-optional-object-attributes (restore
        // status), which S3Proxy otherwise refuses with 501 Not Implemented
        Files.writeString(properties, String.join("\n",
                "s3proxy.endpoint=http://127.0.0.1:" + port,
                "s3proxy.authorization=aws-v2-or-v4",
                "s3proxy.identity=" + ACCESS_KEY,
                "s3proxy.credential=" + SECRET_KEY,
                "s3proxy.ignore-unknown-headers=true",
                "jclouds.provider=filesystem-nio2",
                "jclouds.identity=" + ACCESS_KEY,
                "jclouds.credential=" + SECRET_KEY,
                "jclouds.filesystem.basedir=" + dataDirectory.toAbsolutePath(),
                ""));
        // S3Proxy has no logging configuration of its own, and logback's default logs every byte at DEBUG
        Path logging = workDirectory.resolve("s3proxy-logback.xml");
        Files.writeString(logging, """
                <configuration>
                  <appender name="out" class="ch.qos.logback.core.ConsoleAppender">
                    <encoder><pattern>%d %-5level %logger{20} - %msg%n</pattern></encoder>
                  </appender>
                  <root level="WARN"><appender-ref ref="out"/></root>
                </configuration>
                """);
        Path log = workDirectory.resolve("s3proxy.log");
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.add("-Xmx256m");
        command.add("-Dlogback.configurationFile=" + logging.toAbsolutePath());
        command.add("-cp");
        command.add(classPath());
        command.add("org.gaul.s3proxy.Main");
        command.add("--properties");
        command.add(properties.toAbsolutePath().toString());
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        S3ProxyServer server = new S3ProxyServer(process, dataDirectory, log, port);
        try {
            server.awaitListening();
        }
        catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    public URI endpoint()
    {
        return URI.create("http://127.0.0.1:" + port);
    }

    public int port()
    {
        return port;
    }

    /**
     * The settings a client of this server needs, in the vocabulary of Trino's native S3 file
     * system, which Tarn's catalogs and command line take.
     */
    public Map<String, String> clientProperties()
    {
        return Map.of(
                "s3.endpoint", endpoint().toString(),
                "s3.region", "us-east-1",
                "s3.path-style-access", "true",
                "s3.aws-access-key", ACCESS_KEY,
                "s3.aws-secret-key", SECRET_KEY);
    }

    /**
     * The directory that holds bucket {@code bucket}, created (with the bucket) if missing.
     */
    public Path bucket(String bucket)
            throws IOException
    {
        return Files.createDirectories(dataDirectory.resolve(bucket));
    }

    /**
     * Copies the directory tree {@code source} into {@code bucket} under key prefix
     * {@code prefix}: the objects a writer would have uploaded. Returns the copy's directory, where
     * a local reader (Apache Paimon, say) reads the objects as files.
     */
    public Path copyIntoBucket(Path source, String bucket, String prefix)
            throws IOException
    {
        Path target = bucket(bucket).resolve(prefix);
        try (Stream<Path> paths = Files.walk(source)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                Path copy = target.resolve(source.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(copy);
                }
                else {
                    Files.copy(path, copy);
                }
            }
        }
        return target;
    }

    @Override
    public void close()
    {
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        }
        catch (IllegalStateException exiting) {
            // the JVM is exiting: the hook runs anyway
        }
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    private void awaitListening()
            throws IOException
    {
        long deadline = System.currentTimeMillis() + START_TIMEOUT_MILLIS;
        while (System.currentTimeMillis() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("S3Proxy exited with code " + process.exitValue() + " before listening on port " + port + ":\n" + logTail());
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            }
            catch (IOException notYet) {
                sleep(100);
            }
        }
        throw new IOException("S3Proxy did not listen on port " + port + " within " + START_TIMEOUT_MILLIS + " ms:\n" + logTail());
    }

    private String logTail()
            throws IOException
    {
        String text = Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
        return text.length() > 4000 ? text.substring(text.length() - 4000) : text;
    }

    private static String classPath()
            throws IOException
    {
        // written by the build (maven-dependency-plugin): S3Proxy's jar and its dependencies
        try (InputStream in = S3ProxyServer.class.getResourceAsStream("s3proxy.classpath")) {
            if (in == null) {
                throw new IOException("The class path of S3Proxy is missing from tarn-s3-server: build the module with Maven");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        }
    }

    private static int freePort()
            throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static void sleep(long millis)
    {
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UncheckedIOException(new IOException("Interrupted while starting S3Proxy", e));
        }
    }
}
