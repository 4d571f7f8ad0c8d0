package io.tarn.testing;

import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.CommitMessage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;

/**
 * Writes through Paimon's batch API: one {@link BatchWriteBuilder} per commit, as Paimon
 * requires, with a spill directory for primary-key writers.
 */
final class ReferenceTableWriter
        implements AutoCloseable
{
    static final String DATABASE = "ref";

    private final Catalog catalog;
    private final ReferenceLayout layout;
    private final Path spillDirectory;
    private final IOManager ioManager;

    ReferenceTableWriter(PaimonWarehouse warehouse, ReferenceLayout layout)
    {
        requireNonNull(warehouse, "warehouse is null");
        this.layout = requireNonNull(layout, "layout is null");
        try {
            if (warehouse.localDirectory().isPresent()) {
                Files.createDirectories(warehouse.localDirectory().get());
            }
            this.spillDirectory = Files.createTempDirectory("tarn-oracle-spill");
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot prepare warehouse " + warehouse, e);
        }
        this.catalog = ReferenceCatalog.open(warehouse);
        this.ioManager = IOManager.create(spillDirectory.toString());
        try {
            catalog.createDatabase(DATABASE, true);
        }
        catch (Catalog.DatabaseAlreadyExistException e) {
            throw new IllegalStateException(e);
        }
    }

    FileStoreTable create(String table, Schema schema)
    {
        try {
            catalog.createTable(ReferenceCatalog.identifier(table), layout.apply(schema), false);
        }
        catch (Catalog.TableAlreadyExistException | Catalog.DatabaseNotExistException e) {
            throw new IllegalStateException("Cannot create " + table + ": " + e.getMessage(), e);
        }
        return table(table);
    }

    FileStoreTable table(String table)
    {
        return ReferenceCatalog.load(catalog, table);
    }

    FileStoreTable alter(String table, SchemaChange change)
    {
        try {
            catalog.alterTable(ReferenceCatalog.identifier(table), change, false);
        }
        catch (Exception e) {
            throw new IllegalStateException("Cannot alter " + table + ": " + e.getMessage(), e);
        }
        return table(table);
    }

    void commit(FileStoreTable table, List<GenericRow> rows)
    {
        write(table, table.newBatchWriteBuilder(), rows);
    }

    /**
     * Replaces the rows of one partition (all its buckets) with {@code rows}: an OVERWRITE snapshot.
     */
    void overwrite(FileStoreTable table, Map<String, String> partition, List<GenericRow> rows)
    {
        write(table, table.newBatchWriteBuilder().withOverwrite(partition), rows);
    }

    /**
     * Fully compacts every partition and bucket holding files in the latest snapshot, in one commit.
     */
    @SuppressWarnings("try") // Paimon's close() declares Exception, which the catch below handles
    void compactAll(FileStoreTable table)
    {
        Set<PartitionBucket> targets = new LinkedHashSet<>();
        for (ManifestEntry entry : table.store().newScan().plan().files()) {
            targets.add(new PartitionBucket(entry.partition().copy(), entry.bucket()));
        }
        BatchWriteBuilder builder = table.newBatchWriteBuilder();
        try (BatchTableWrite write = builder.newWrite(); BatchTableCommit commit = builder.newCommit()) {
            write.withIOManager(ioManager);
            for (PartitionBucket target : targets) {
                write.compact(target.partition(), target.bucket(), true);
            }
            commit.commit(write.prepareCommit());
        }
        catch (Exception e) {
            throw new IllegalStateException("Paimon failed to compact " + table.fullName(), e);
        }
        pause();
    }

    @SuppressWarnings("try") // Paimon's close() declares Exception, which the catch below handles
    private void write(FileStoreTable table, BatchWriteBuilder builder, List<GenericRow> rows)
    {
        try (BatchTableWrite write = builder.newWrite(); BatchTableCommit commit = builder.newCommit()) {
            write.withIOManager(ioManager);
            for (GenericRow row : rows) {
                write.write(row);
            }
            List<CommitMessage> messages = write.prepareCommit();
            commit.commit(messages);
        }
        catch (Exception e) {
            throw new IllegalStateException("Paimon failed to write " + table.fullName(), e);
        }
        pause();
    }

    // snapshots must have distinct timeMillis so that time travel by timestamp is unambiguous
    private static void pause()
    {
        try {
            Thread.sleep(3);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close()
    {
        try {
            ioManager.close();
            catalog.close();
        }
        catch (Exception e) {
            throw new IllegalStateException("Cannot close the Paimon catalog", e);
        }
        finally {
            deleteRecursively(spillDirectory);
        }
    }

    private static void deleteRecursively(Path directory)
    {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
        catch (IOException e) {
            // a leftover spill directory under the temp directory is harmless
        }
    }

    private record PartitionBucket(BinaryRow partition, int bucket)
    {
        PartitionBucket
        {
            requireNonNull(partition, "partition is null");
        }
    }
}
