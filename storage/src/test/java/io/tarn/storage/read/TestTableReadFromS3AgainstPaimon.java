package io.tarn.storage.read;

import io.tarn.s3server.S3ProxyServer;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Warehouse;
import io.tarn.storage.fs.s3.S3FileIO;
import io.tarn.testing.TemporaryDirectories;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The reads of {@link TestTableReadAgainstPaimon}, every reference table at every version and
 * under filters, from an object store: the files Paimon wrote are served by a real S3-compatible
 * server (S3Proxy on 127.0.0.1), and Tarn reads them through the S3 API.
 */
public class TestTableReadFromS3AgainstPaimon
        extends TestTableReadAgainstPaimon
{
    private Path serverDirectory;
    private S3ProxyServer server;
    private S3FileIO fileIO;

    @Override
    protected FileSystemCatalog openCatalog(Path warehouse)
            throws IOException
    {
        serverDirectory = TemporaryDirectories.create("tarn-s3-read");
        server = S3ProxyServer.start(serverDirectory);
        server.copyIntoBucket(warehouse, "lake", "paimon");
        Warehouse onS3 = Warehouse.open("s3://lake/paimon", server.clientProperties());
        fileIO = (S3FileIO) onS3.fileIO();
        return onS3.catalog();
    }

    @Override
    protected void closeCatalog()
            throws IOException
    {
        if (fileIO != null) {
            fileIO.close();
        }
        if (server != null) {
            server.close();
        }
        if (serverDirectory != null) {
            TemporaryDirectories.deleteRecursively(serverDirectory);
        }
    }
}
