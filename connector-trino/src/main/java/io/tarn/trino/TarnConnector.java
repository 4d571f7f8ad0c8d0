package io.tarn.trino;

import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Warehouse;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.fs.s3.S3FileIO;
import io.tarn.storage.sort.SpillDirectory;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorCapabilities;
import io.trino.spi.connector.ConnectorMetadata;
import io.trino.spi.connector.ConnectorPageSinkProvider;
import io.trino.spi.connector.ConnectorPageSourceProvider;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplitManager;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.procedure.Procedure;
import io.trino.spi.session.PropertyMetadata;
import io.trino.spi.transaction.IsolationLevel;
import io.trino.spi.type.TypeManager;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.time.Duration;
import java.util.Set;

import static io.trino.spi.StandardErrorCode.CONFIGURATION_INVALID;
import static io.trino.spi.transaction.IsolationLevel.READ_COMMITTED;
import static io.trino.spi.transaction.IsolationLevel.checkConnectorSupports;
import static java.util.Objects.requireNonNull;

/**
 * The Tarn connector: one catalog over one Paimon warehouse on the local file system. It owns
 * the root Arrow allocator of the catalog. Page sources read in children of one child of it that
 * {@code tarn.reader.max-memory} bounds, so that concurrent scans cannot take the node's direct
 * memory; page sinks write in children of the root.
 */
public class TarnConnector
        implements Connector
{
    // past this wait for tarn.max-concurrent-file-reads a page source reads anyway (see FileReadLimiter)
    private static final Duration FILE_READ_MAX_WAIT = Duration.ofSeconds(2);

    private final String catalogName;
    private final Warehouse warehouse;
    private final BufferAllocator allocator;
    private final BufferAllocator readerAllocator;
    private final TarnTables tables;
    private final TarnTypes types;
    private final TarnTableProperties tableProperties;
    private final TarnSplitManager splitManager;
    private final TarnPageSourceProvider pageSourceProvider;
    private final TarnPageSinkProvider pageSinkProvider;
    private final Set<Procedure> procedures;
    private final TarnSessionProperties sessionProperties;

    public TarnConnector(String catalogName, TarnConfig config, Map<String, String> storageProperties, TypeManager typeManager)
    {
        this.catalogName = requireNonNull(catalogName, "catalogName is null");
        requireNonNull(config, "config is null");
        this.warehouse = warehouse(catalogName, config.getWarehouse(), storageProperties);
        this.tables = new TarnTables(new FileSystemCatalog(warehouse.fileIO(), warehouse.location(), config.getManifestCacheSize().toBytes()), config);
        this.types = new TarnTypes(typeManager.getTypeOperators());
        this.tableProperties = new TarnTableProperties(typeManager);
        this.allocator = new RootAllocator();
        this.readerAllocator = allocator.newChildAllocator("tarn-readers", 0, config.getReaderMaxMemory().toBytes());
        this.splitManager = new TarnSplitManager(tables, config);
        this.pageSourceProvider = new TarnPageSourceProvider(tables, types, readerAllocator,
                new FileReadLimiter(config.getMaxConcurrentFileReads(), FILE_READ_MAX_WAIT));
        this.pageSinkProvider = new TarnPageSinkProvider(tables, allocator);
        this.sessionProperties = new TarnSessionProperties(config);
        this.procedures = new TarnProcedures(tables, spillDirectory(catalogName, config.getSpillDirectory())).procedures();
    }

    /**
     * The spill directory, cleared at start-up of what killed servers left in it.
     */
    private static SpillDirectory spillDirectory(String catalogName, String configured)
    {
        Path root = configured == null ? SpillDirectory.defaultRoot() : Path.of(configured.trim());
        try {
            return SpillDirectory.open(root);
        }
        catch (IOException | RuntimeException e) {
            throw new TrinoException(CONFIGURATION_INVALID, "Catalog %s: cannot use spill directory %s: %s".formatted(catalogName, root, e.getMessage()), e);
        }
    }

    /**
     * The warehouse: an object-store location ({@code s3://bucket/path}), reached with the
     * {@code s3.*} properties, or a local directory, given as a path or a {@code file:} URI,
     * that exists.
     */
    static Warehouse warehouse(String catalogName, String warehouse, Map<String, String> storageProperties)
    {
        String text = warehouse.trim();
        if (S3FileIO.handles(text)) {
            try {
                return Warehouse.open(text, storageProperties);
            }
            catch (IllegalArgumentException e) {
                throw new TrinoException(CONFIGURATION_INVALID, "Catalog %s: %s".formatted(catalogName, e.getMessage()), e);
            }
        }
        return new Warehouse(warehouseDirectory(catalogName, text), new LocalFileIO());
    }

    /**
     * A local directory, given as a path or a {@code file:} URI, that exists.
     */
    static String warehouseDirectory(String catalogName, String warehouse)
    {
        String text = warehouse.trim();
        Path path;
        if (text.contains("://") || text.startsWith("file:")) {
            URI uri = URI.create(text);
            if (!"file".equalsIgnoreCase(uri.getScheme())) {
                throw new TrinoException(CONFIGURATION_INVALID, "Catalog %s: warehouse '%s' uses the file system '%s'; Tarn supports local directories (a path or a file: URI) and object stores (s3://, s3a://, oss://)"
                        .formatted(catalogName, warehouse, uri.getScheme()));
            }
            path = Path.of(uri);
        }
        else {
            path = Path.of(text);
        }
        if (!path.isAbsolute()) {
            throw new TrinoException(CONFIGURATION_INVALID, "Catalog %s: warehouse '%s' must be an absolute path".formatted(catalogName, warehouse));
        }
        if (!Files.isDirectory(path)) {
            throw new TrinoException(CONFIGURATION_INVALID, "Catalog %s: warehouse directory %s does not exist".formatted(catalogName, path));
        }
        return path.normalize().toString();
    }

    @Override
    public ConnectorTransactionHandle beginTransaction(IsolationLevel isolationLevel, boolean readOnly, boolean autoCommit)
    {
        checkConnectorSupports(READ_COMMITTED, isolationLevel);
        return TarnTransactionHandle.INSTANCE;
    }

    @Override
    public ConnectorMetadata getMetadata(ConnectorSession session, ConnectorTransactionHandle transaction)
    {
        return new TarnMetadata(catalogName, tables, types);
    }

    @Override
    public ConnectorSplitManager getSplitManager()
    {
        return splitManager;
    }

    @Override
    public ConnectorPageSourceProvider getPageSourceProvider()
    {
        return pageSourceProvider;
    }

    @Override
    public ConnectorPageSinkProvider getPageSinkProvider()
    {
        return pageSinkProvider;
    }

    @Override
    public List<PropertyMetadata<?>> getTableProperties()
    {
        return tableProperties.properties();
    }

    @Override
    public Set<Procedure> getProcedures()
    {
        return procedures;
    }

    @Override
    public List<PropertyMetadata<?>> getSessionProperties()
    {
        return sessionProperties.properties();
    }

    @Override
    public Set<ConnectorCapabilities> getCapabilities()
    {
        return Set.of(ConnectorCapabilities.NOT_NULL_COLUMN_CONSTRAINT);
    }

    @Override
    public void shutdown()
    {
        try {
            readerAllocator.close();
        }
        finally {
            allocator.close();
            if (warehouse.fileIO() instanceof Closeable closeable) {
                try {
                    closeable.close();
                }
                catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
    }
}
