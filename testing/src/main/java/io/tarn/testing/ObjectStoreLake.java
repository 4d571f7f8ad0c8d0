package io.tarn.testing;

import io.tarn.s3server.S3ProxyServer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Reference tables on an object store: Apache Paimon writes them into a local warehouse, the
 * oracle's copy, and a real S3-compatible server (S3Proxy on 127.0.0.1) serves the same files
 * from bucket {@value #BUCKET} under {@link #location()}. What a writer puts into the bucket lies
 * in {@link #objects()}, where Paimon reads it as a local warehouse.
 */
public final class ObjectStoreLake
        implements AutoCloseable
{
    public static final String BUCKET = "tarn-lake";
    private static final String PREFIX = "warehouse";

    private final Path directory;
    private final S3ProxyServer server;
    private final Path objects;

    private ObjectStoreLake(Path directory, S3ProxyServer server, Path objects)
    {
        this.directory = directory;
        this.server = server;
        this.objects = objects;
    }

    /**
     * Writes {@code tables} with Paimon and serves them from a new server.
     */
    public static ObjectStoreLake create(String name, List<ReferenceTable> tables)
            throws IOException
    {
        requireNonNull(tables, "tables is null");
        Path directory = TemporaryDirectories.create(name);
        S3ProxyServer server = null;
        try {
            for (ReferenceTable table : tables) {
                ReferenceTables.create(directory.resolve("local"), table);
            }
            server = S3ProxyServer.start(directory.resolve("s3"));
            Path objects = server.copyIntoBucket(directory.resolve("local"), BUCKET, PREFIX);
            return new ObjectStoreLake(directory, server, objects);
        }
        catch (IOException | RuntimeException e) {
            if (server != null) {
                server.close();
            }
            TemporaryDirectories.deleteRecursively(directory);
            throw e;
        }
    }

    /**
     * The warehouse on the object store: {@code s3://tarn-lake/warehouse}.
     */
    public String location()
    {
        return "s3://" + BUCKET + "/" + PREFIX;
    }

    /**
     * The settings that reach the server ({@code s3.endpoint}, keys, path-style access).
     */
    public Map<String, String> clientProperties()
    {
        return server.clientProperties();
    }

    /**
     * The warehouse Paimon wrote: what the oracle reads.
     */
    public Path local()
    {
        return directory.resolve("local");
    }

    /**
     * The warehouse as the server holds it, including what writers added: Paimon reads it as a
     * local warehouse.
     */
    public Path objects()
    {
        return objects;
    }

    public S3ProxyServer server()
    {
        return server;
    }

    @Override
    public void close()
    {
        try {
            server.close();
        }
        finally {
            TemporaryDirectories.deleteRecursively(directory);
        }
    }
}
