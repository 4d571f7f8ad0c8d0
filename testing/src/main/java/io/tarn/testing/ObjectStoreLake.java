package io.tarn.testing;

import io.tarn.s3server.S3ProxyServer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Reference tables on an object store: a real S3-compatible server (S3Proxy on 127.0.0.1) holds
 * bucket {@value #BUCKET}, and Apache Paimon writes the tables into it through its own S3 file
 * system ({@link PaimonOnS3}, one child JVM per lake), under {@link #location()}. The same child
 * is the oracle: {@link #paimon()} reads any table of the bucket, those Tarn writes included,
 * through S3.
 */
public final class ObjectStoreLake
        implements AutoCloseable
{
    public static final String BUCKET = "tarn-lake";
    private static final String PREFIX = "warehouse";

    private final Path directory;
    private final S3ProxyServer server;
    private final Path objects;
    private final PaimonOnS3 paimon;

    private ObjectStoreLake(Path directory, S3ProxyServer server, Path objects, PaimonOnS3 paimon)
    {
        this.directory = directory;
        this.server = server;
        this.objects = objects;
        this.paimon = paimon;
    }

    /**
     * Starts a server and has Paimon write {@code tables} into its bucket through S3.
     */
    public static ObjectStoreLake create(String name, List<ReferenceTable> tables)
            throws IOException
    {
        requireNonNull(tables, "tables is null");
        Path directory = TemporaryDirectories.create(name);
        S3ProxyServer server = null;
        PaimonOnS3 paimon = null;
        try {
            server = S3ProxyServer.start(directory.resolve("s3"));
            Path objects = server.bucket(BUCKET).resolve(PREFIX);
            paimon = PaimonOnS3.start(paimonWarehouse(server));
            paimon.createTables(tables);
            return new ObjectStoreLake(directory, server, objects, paimon);
        }
        catch (IOException | RuntimeException e) {
            if (paimon != null) {
                paimon.close();
            }
            if (server != null) {
                server.close();
            }
            TemporaryDirectories.deleteRecursively(directory);
            throw e;
        }
    }

    /**
     * The warehouse as Paimon's {@code paimon-s3} opens it: its {@code s3.*} options, which it
     * passes to Hadoop's S3A as {@code fs.s3a.*}.
     */
    private static PaimonWarehouse paimonWarehouse(S3ProxyServer server)
    {
        return new PaimonWarehouse("s3://" + BUCKET + "/" + PREFIX, Map.of(
                "s3.endpoint", server.endpoint().toString(),
                "s3.endpoint.region", "us-east-1",
                "s3.access-key", S3ProxyServer.ACCESS_KEY,
                "s3.secret-key", S3ProxyServer.SECRET_KEY,
                "s3.path.style.access", "true",
                "s3.connection.ssl.enabled", "false"));
    }

    /**
     * The warehouse on the object store: {@code s3://tarn-lake/warehouse}.
     */
    public String location()
    {
        return "s3://" + BUCKET + "/" + PREFIX;
    }

    /**
     * The settings that reach the server ({@code s3.endpoint}, keys, path-style access), in the
     * vocabulary of Tarn's catalogs.
     */
    public Map<String, String> clientProperties()
    {
        return server.clientProperties();
    }

    /**
     * Apache Paimon on this warehouse through S3: the oracle of the tests.
     */
    public PaimonOnS3 paimon()
    {
        return paimon;
    }

    /**
     * The warehouse as the server keeps it on its disk, for looking at the objects themselves
     * (which files a writer left); Paimon's reads go through S3 ({@link #paimon()}).
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
            paimon.close();
        }
        finally {
            try {
                server.close();
            }
            finally {
                TemporaryDirectories.deleteRecursively(directory);
            }
        }
    }
}
