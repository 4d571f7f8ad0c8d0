package io.tarn.storage.snapshot;

import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.options.ExpireConfig;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A temporary warehouse whose tables are written by Apache Paimon: the oracle the metadata
 * readers are checked against.
 */
public final class PaimonTables
        implements AutoCloseable
{
    private final Path warehouse;
    private final Catalog catalog;

    public PaimonTables()
    {
        try {
            warehouse = Files.createTempDirectory("tarn-metadata-");
            Options options = new Options();
            options.set("warehouse", warehouse.toString());
            // every call must see the files as they are now
            options.set("cache-enabled", "false");
            catalog = CatalogFactory.createCatalog(CatalogContext.create(options, new org.apache.hadoop.conf.Configuration()));
            catalog.createDatabase("db", true);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    public String warehouse()
    {
        return warehouse.toString();
    }

    public Catalog catalog()
    {
        return catalog;
    }

    public String tableRoot(String table)
    {
        return warehouse + "/db.db/" + table;
    }

    public FileStoreTable create(String table, Schema schema)
            throws Exception
    {
        catalog.createTable(Identifier.create("db", table), schema, false);
        return table(table);
    }

    public FileStoreTable table(String table)
            throws Exception
    {
        return (FileStoreTable) catalog.getTable(Identifier.create("db", table));
    }

    /**
     * Writes {@code rows} in one batch commit, i.e. one new snapshot.
     */
    public void write(FileStoreTable table, InternalRow... rows)
            throws Exception
    {
        BatchWriteBuilder builder = table.newBatchWriteBuilder();
        try (BatchTableWrite write = builder.newWrite();
                BatchTableCommit commit = builder.newCommit()) {
            if (!table.primaryKeys().isEmpty()) {
                write.withIOManager(IOManager.create(warehouse.resolve("tmp").toString()));
            }
            for (InternalRow row : rows) {
                write.write(row);
            }
            commit.commit(write.prepareCommit());
        }
    }

    /**
     * Fully compacts bucket 0 of an unpartitioned primary-key table: one COMPACT snapshot.
     */
    public void compact(FileStoreTable table)
            throws Exception
    {
        BatchWriteBuilder builder = table.newBatchWriteBuilder();
        try (BatchTableWrite write = builder.newWrite();
                BatchTableCommit commit = builder.newCommit()) {
            write.withIOManager(IOManager.create(warehouse.resolve("tmp").toString()));
            write.compact(BinaryRow.EMPTY_ROW, 0, true);
            commit.commit(write.prepareCommit());
        }
    }

    /**
     * Expires all snapshots but the newest {@code retain}.
     */
    public static int expireAllBut(FileStoreTable table, int retain)
    {
        return table.newExpireSnapshots()
                .config(ExpireConfig.builder()
                        .snapshotRetainMin(retain)
                        .snapshotRetainMax(retain)
                        .snapshotTimeRetain(Duration.ZERO)
                        .build())
                .expire();
    }

    @Override
    public void close()
            throws Exception
    {
        catalog.close();
        try (Stream<Path> files = Files.walk(warehouse)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }
}
