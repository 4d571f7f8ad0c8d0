package io.tarn.benchmarks;

import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryArray;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.serializer.InternalRowSerializer;
import org.apache.paimon.io.CompactIncrement;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.io.DataIncrement;
import org.apache.paimon.manifest.FileSource;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.stats.SimpleStats;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.CommitMessageImpl;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.apache.hadoop.conf.Configuration;

import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static java.util.Objects.requireNonNull;

/**
 * Creates, through Apache Paimon's own commit path, an append table whose manifests describe many
 * data files that do not exist: planning reads only snapshots, manifest lists and manifests, so the
 * table is as real as a planner can tell while costing no data on disk.
 *
 * <p>Layout: {@code bench.planning(dt STRING, id INT, v_long BIGINT, v_string STRING, v_double DOUBLE)}
 * partitioned by {@code dt}, unaware bucket ({@code bucket = -1}). There is one commit per
 * partition, as a daily ingest would make, each adding {@code filesPerPartition} files. File
 * {@code k} (counted over the whole table, in commit order) holds ids
 * {@code [k * ROWS_PER_FILE, (k + 1) * ROWS_PER_FILE)}, so an {@code id = x} filter matches exactly
 * one file by its value statistics. Paimon merges the small manifests as it does by default.
 */
public final class PlanningTableGenerator
{
    public static final String DATABASE = "bench";
    public static final String TABLE = "planning";
    public static final int ROWS_PER_FILE = 10_000;

    private static final long FILE_SIZE = 128L * 1024 * 1024;
    private static final LocalDate FIRST_DAY = LocalDate.of(2025, 1, 1);

    private static final RowType ROW_TYPE = RowType.of(
            new org.apache.paimon.types.DataType[] {DataTypes.STRING(), DataTypes.INT(), DataTypes.BIGINT(), DataTypes.STRING(), DataTypes.DOUBLE()},
            new String[] {"dt", "id", "v_long", "v_string", "v_double"});

    private PlanningTableGenerator() {}

    public static String tableName()
    {
        return DATABASE + "." + TABLE;
    }

    /**
     * The value of {@code dt} of partition {@code index}, counted from 0.
     */
    public static String partitionValue(int index)
    {
        return FIRST_DAY.plusDays(index).toString();
    }

    /**
     * The smallest id of file {@code fileIndex}, counted over the whole table from 0.
     */
    public static int firstId(int fileIndex)
    {
        return Math.multiplyExact(fileIndex, ROWS_PER_FILE);
    }

    /**
     * Opens Paimon's filesystem catalog on {@code warehouse}, without the catalog's table and
     * manifest caches so every plan reads its manifests as a cold engine would.
     */
    public static Catalog openCatalog(Path warehouse)
    {
        requireNonNull(warehouse, "warehouse is null");
        Map<String, String> options = new HashMap<>();
        options.put("warehouse", warehouse.toAbsolutePath().toUri().toString());
        options.put("cache-enabled", "false");
        return CatalogFactory.createCatalog(CatalogContext.create(Options.fromMap(options), new Configuration()));
    }

    /**
     * Creates {@code bench.planning} in {@code warehouse} with {@code partitions} commits of
     * {@code filesPerPartition} fabricated files each.
     */
    @SuppressWarnings("try") // Paimon's close() declares Exception, which the catch below handles
    public static void generate(Path warehouse, int partitions, int filesPerPartition)
    {
        requireNonNull(warehouse, "warehouse is null");
        if (partitions <= 0 || filesPerPartition <= 0) {
            throw new IllegalArgumentException("Partitions and files per partition must be positive: " + partitions + ", " + filesPerPartition);
        }
        Math.multiplyExact(Math.multiplyExact(partitions, filesPerPartition), ROWS_PER_FILE);
        try (Catalog catalog = openCatalog(warehouse)) {
            catalog.createDatabase(DATABASE, true);
            Identifier identifier = Identifier.create(DATABASE, TABLE);
            Schema schema = Schema.newBuilder()
                    .column("dt", DataTypes.STRING())
                    .column("id", DataTypes.INT())
                    .column("v_long", DataTypes.BIGINT())
                    .column("v_string", DataTypes.STRING())
                    .column("v_double", DataTypes.DOUBLE())
                    .partitionKeys("dt")
                    .option("bucket", "-1")
                    .option("file.format", "parquet")
                    .build();
            catalog.createTable(identifier, schema, false);
            FileStoreTable table = (FileStoreTable) catalog.getTable(identifier);
            InternalRowSerializer partitionSerializer = new InternalRowSerializer(DataTypes.STRING());
            InternalRowSerializer valueSerializer = new InternalRowSerializer(ROW_TYPE);
            int fileIndex = 0;
            for (int partition = 0; partition < partitions; partition++) {
                BinaryString day = BinaryString.fromString(partitionValue(partition));
                BinaryRow partitionRow = partitionSerializer.toBinaryRow(GenericRow.of(day)).copy();
                List<DataFileMeta> files = new ArrayList<>(filesPerPartition);
                for (int file = 0; file < filesPerPartition; file++) {
                    files.add(dataFile(valueSerializer, day, fileIndex, file, table.schema().id()));
                    fileIndex++;
                }
                List<CommitMessage> messages = List.of(new CommitMessageImpl(
                        partitionRow,
                        0,
                        -1,
                        new DataIncrement(files, Collections.emptyList(), Collections.emptyList()),
                        CompactIncrement.emptyIncrement()));
                // Paimon wants a new builder per commit
                try (BatchTableCommit commit = table.newBatchWriteBuilder().newCommit()) {
                    commit.commit(messages);
                }
            }
        }
        catch (RuntimeException e) {
            throw e;
        }
        catch (Exception e) {
            throw new IllegalStateException("Cannot generate the planning table in " + warehouse, e);
        }
    }

    private static DataFileMeta dataFile(InternalRowSerializer valueSerializer, BinaryString day, int fileIndex, int fileInPartition, long schemaId)
    {
        int minId = firstId(fileIndex);
        int maxId = minId + ROWS_PER_FILE - 1;
        BinaryRow min = valueSerializer.toBinaryRow(GenericRow.of(
                day,
                minId,
                (long) minId * 1_000,
                BinaryString.fromString(String.format("name-%09d", minId)),
                minId / 10.0)).copy();
        BinaryRow max = valueSerializer.toBinaryRow(GenericRow.of(
                day,
                maxId,
                (long) maxId * 1_000,
                BinaryString.fromString(String.format("name-%09d", maxId)),
                maxId / 10.0)).copy();
        // a fifth of the v_string values are null, the other columns have none
        BinaryArray nullCounts = BinaryArray.fromLongArray(new Long[] {0L, 0L, 0L, (long) ROWS_PER_FILE / 5, 0L});
        long firstSequence = (long) fileInPartition * ROWS_PER_FILE;
        return DataFileMeta.forAppend(
                "data-" + UUID.randomUUID() + "-" + fileInPartition + ".parquet",
                FILE_SIZE,
                ROWS_PER_FILE,
                new SimpleStats(min, max, nullCounts),
                firstSequence,
                firstSequence + ROWS_PER_FILE - 1,
                schemaId,
                Collections.emptyList(),
                null,
                FileSource.APPEND,
                null,
                null,
                null,
                null);
    }
}
