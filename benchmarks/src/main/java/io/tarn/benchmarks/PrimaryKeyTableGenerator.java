package io.tarn.benchmarks;

import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.TableWriteImpl;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Writes, with Apache Paimon's own writer, the same primary-key data three ways: {@code bench.pk_dv}
 * (deletion vectors, the updates compacted into deletion vectors on the base files),
 * {@code bench.pk_mor} (no deletion vectors, every commit kept as its own sorted run, so reading
 * merges overlapping runs) and {@code bench.pk_final} (an append table holding the final rows).
 *
 * <p>The data: {@code rows} keys inserted, then 10% of the keys updated and 2% deleted, chosen by a
 * hash of the key so every generation is the same. Two fixed buckets.
 */
final class PrimaryKeyTableGenerator
{
    static final String DATABASE = "bench";
    static final String DV_TABLE = "pk_dv";
    static final String MOR_TABLE = "pk_mor";
    static final String FINAL_TABLE = "pk_final";
    static final int BUCKETS = 2;

    private static final String[] FLAGS = {"A", "F", "N", "R"};
    private static final String[] WORDS = {"furiously", "sly", "careful", "blithely", "quickly", "fluffily", "ironic", "final", "regular", "express",
            "pending", "bold", "even", "special", "unusual", "silent", "deposits", "requests", "accounts", "packages"};

    private PrimaryKeyTableGenerator() {}

    /**
     * The warehouse holding the three tables for {@code rows} keys, generated first unless an
     * earlier run completed it.
     */
    static Path cachedWarehouse(Path cacheDirectory, long rows)
            throws Exception
    {
        return CachedWarehouse.ensure(cacheDirectory.resolve("pk-rows-" + rows), rows, warehouse -> generate(warehouse, rows));
    }

    static boolean isUpdated(long key)
    {
        return bucketOf(key) < 10;
    }

    static boolean isDeleted(long key)
    {
        int bucket = bucketOf(key);
        return bucket >= 10 && bucket < 12;
    }

    // a stable percentile of the key: which keys are updated and deleted
    private static int bucketOf(long key)
    {
        long mixed = key * 0x9E3779B97F4A7C15L;
        mixed ^= mixed >>> 29;
        return (int) Math.floorMod(mixed, 100L);
    }

    private static void generate(Path warehouse, long rows)
    {
        requireNonNull(warehouse, "warehouse is null");
        Path spill = warehouse.resolve("spill");
        try (Catalog catalog = PlanningTableGenerator.openCatalog(warehouse);
                IOManager ioManager = IOManager.create(spill.toString())) {
            Files.createDirectories(spill);
            catalog.createDatabase(DATABASE, true);
            Table dv = create(catalog, DV_TABLE, primaryKeySchema().option("deletion-vectors.enabled", "true").build());
            Table mor = create(catalog, MOR_TABLE, primaryKeySchema().option("write-only", "true").build());
            Table finalRows = create(catalog, FINAL_TABLE, columns(Schema.newBuilder()).option("bucket", "-1").build());

            for (Table table : List.of(dv, mor)) {
                commit(table, ioManager, write -> {
                    for (long key = 0; key < rows; key++) {
                        write.write(row(RowKind.INSERT, key, 0));
                    }
                });
            }
            // the base as the top level of each bucket, as a compacted table's would be
            commit(dv, ioManager, write -> compactAll(write, true));
            for (Table table : List.of(dv, mor)) {
                commit(table, ioManager, write -> {
                    for (long key = 0; key < rows; key++) {
                        if (isUpdated(key)) {
                            write.write(row(RowKind.INSERT, key, 1));
                        }
                    }
                });
                commit(table, ioManager, write -> {
                    for (long key = 0; key < rows; key++) {
                        if (isDeleted(key)) {
                            write.write(row(RowKind.DELETE, key, 0));
                        }
                    }
                });
            }
            // level-0 updates compacted up: the base files keep their rows and get deletion vectors
            commit(dv, ioManager, write -> compactAll(write, false));
            commit(finalRows, ioManager, write -> {
                for (long key = 0; key < rows; key++) {
                    if (!isDeleted(key)) {
                        write.write(row(RowKind.INSERT, key, isUpdated(key) ? 1 : 0));
                    }
                }
            });
        }
        catch (RuntimeException e) {
            throw e;
        }
        catch (Exception e) {
            throw new IllegalStateException("Cannot generate the primary-key tables in " + warehouse, e);
        }
    }

    private static void compactAll(BatchTableWrite write, boolean full)
            throws Exception
    {
        for (int bucket = 0; bucket < BUCKETS; bucket++) {
            ((TableWriteImpl<?>) write).compact(BinaryRow.EMPTY_ROW, bucket, full);
        }
    }

    private static Schema.Builder primaryKeySchema()
    {
        return columns(Schema.newBuilder())
                .primaryKey("id")
                .option("bucket", String.valueOf(BUCKETS));
    }

    private static Schema.Builder columns(Schema.Builder builder)
    {
        return builder
                .column("id", DataTypes.BIGINT().notNull())
                .column("k", DataTypes.INT())
                .column("v", DataTypes.DOUBLE())
                .column("amount", DataTypes.DECIMAL(15, 2))
                .column("day", DataTypes.DATE())
                .column("flag", DataTypes.STRING())
                .column("comment", DataTypes.STRING());
    }

    private static Table create(Catalog catalog, String name, Schema schema)
            throws Exception
    {
        Identifier identifier = Identifier.create(DATABASE, name);
        catalog.createTable(identifier, schema, false);
        return catalog.getTable(identifier);
    }

    private interface Writing
    {
        void writeTo(BatchTableWrite write)
                throws Exception;
    }

    @SuppressWarnings("try") // Paimon's close() declares Exception
    private static void commit(Table table, IOManager ioManager, Writing writing)
            throws Exception
    {
        BatchWriteBuilder builder = table.newBatchWriteBuilder();
        List<CommitMessage> messages;
        try (BatchTableWrite write = builder.newWrite()) {
            // primary-key writes sort and look up through spill files
            write.withIOManager(ioManager);
            writing.writeTo(write);
            messages = write.prepareCommit();
        }
        try (BatchTableCommit commit = builder.newCommit()) {
            commit.commit(messages);
        }
    }

    /**
     * The row of {@code key} at {@code version} (0 inserted, 1 updated).
     */
    private static GenericRow row(RowKind kind, long key, int version)
    {
        long mixed = (key + 1) * 0xBF58476D1CE4E5B9L + version * 0x94D049BB133111EBL;
        mixed ^= mixed >>> 31;
        int k = (int) (mixed & 0xFFFF);
        double v = (mixed >>> 11) * 0x1.0p-53 * 1000;
        BigDecimal amount = BigDecimal.valueOf(Math.floorMod(mixed, 10_000_000L), 2);
        int day = 8000 + (int) Math.floorMod(mixed >>> 7, 2500L);
        String flag = FLAGS[(int) Math.floorMod(mixed >>> 3, FLAGS.length)];
        StringBuilder comment = new StringBuilder();
        int words = 2 + (int) Math.floorMod(mixed >>> 13, 4L);
        for (int i = 0; i < words; i++) {
            if (i > 0) {
                comment.append(' ');
            }
            comment.append(WORDS[(int) Math.floorMod(mixed >>> (17 + 3 * i), WORDS.length)]);
        }
        return GenericRow.ofKind(kind, key, k, v, Decimal.fromBigDecimal(amount, 15, 2), day, BinaryString.fromString(flag),
                BinaryString.fromString(comment.toString()));
    }
}
