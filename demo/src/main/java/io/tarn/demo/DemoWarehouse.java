package io.tarn.demo;

import io.tarn.demo.TpchLikeGenerator.LineItem;
import io.tarn.demo.TpchLikeGenerator.Order;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.commit.TableCommit;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.snapshot.CommitKind;
import io.tarn.storage.commit.SnapshotExpiration;
import io.tarn.storage.sort.SortCompactRequest;
import io.tarn.storage.sort.SortCompaction;
import io.tarn.storage.sort.SortStrategy;
import io.tarn.storage.table.PaimonTable;
import io.tarn.storage.write.AppendTableWriter;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.DataTypes;
import io.tarn.vector.ArrowTypes;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * The demo's sample warehouse, written with Tarn's own writer ({@link AppendTableWriter} and
 * {@link TableCommit}): database {@value #DATABASE} with TPC-H-like {@code orders} and
 * {@code lineitem} from {@link TpchLikeGenerator}, each in two commits (the first 80% of the
 * orders, then the rest), so that time travel has something to show.
 *
 * <p>{@code lineitem} is partitioned by {@code l_shipyear} (the year of {@code l_shipdate}) and
 * has a Bloom-filter index on {@code l_partkey} and bitmap indexes on {@code l_shipmode} and
 * {@code l_returnflag}; {@code orders} has a Bloom filter on {@code o_custkey} and a bitmap on
 * {@code o_orderpriority}. Small target file sizes give several files per partition, so that
 * skipping by statistics and indexes shows; the indexes go to {@code .index} files beside the
 * data files. {@code lineitem_zorder} holds the same line items, unpartitioned, rewritten by
 * Tarn's sort-compact in z-order of {@link #ZORDER_COLUMNS}; the snapshots before the sort are
 * expired and the files they alone referenced deleted. A primary-key table is left out until Tarn
 * writes them.
 */
public final class DemoWarehouse
{
    public static final String DATABASE = "tpch";
    public static final Identifier ORDERS = new Identifier(DATABASE, "orders");
    public static final Identifier LINEITEM = new Identifier(DATABASE, "lineitem");
    public static final Identifier LINEITEM_ZORDER = new Identifier(DATABASE, "lineitem_zorder");
    public static final List<String> ZORDER_COLUMNS = List.of("l_partkey", "l_suppkey");
    public static final int DEFAULT_ORDERS = 300_000;

    private static final String COMPLETE_MARKER = "demo-warehouse.complete";
    // 2: file-index files written by Tarn's writer; the z-ordered copy without the files it replaced
    private static final int LAYOUT_VERSION = 2;
    private static final int BATCH_ROWS = 16_384;
    private static final String COMMIT_USER = "tarn-demo";

    private final Path warehouse;
    private final TpchLikeGenerator generator;
    private final Consumer<String> progress;

    public DemoWarehouse(Path warehouse, TpchLikeGenerator generator, Consumer<String> progress)
    {
        this.warehouse = requireNonNull(warehouse, "warehouse is null").toAbsolutePath();
        this.generator = requireNonNull(generator, "generator is null");
        this.progress = requireNonNull(progress, "progress is null");
    }

    public static List<DataField> ordersFields()
    {
        return fields(
                "o_orderkey", DataTypes.bigint(),
                "o_custkey", DataTypes.bigint(),
                "o_orderstatus", DataTypes.string(),
                "o_totalprice", DataTypes.decimal(15, 2),
                "o_orderdate", DataTypes.date(),
                "o_orderpriority", DataTypes.string(),
                "o_clerk", DataTypes.string(),
                "o_shippriority", DataTypes.integer(),
                "o_comment", DataTypes.string());
    }

    public static List<DataField> lineitemFields()
    {
        return fields(
                "l_orderkey", DataTypes.bigint(),
                "l_partkey", DataTypes.bigint(),
                "l_suppkey", DataTypes.bigint(),
                "l_linenumber", DataTypes.integer(),
                "l_quantity", DataTypes.decimal(15, 2),
                "l_extendedprice", DataTypes.decimal(15, 2),
                "l_discount", DataTypes.decimal(15, 2),
                "l_tax", DataTypes.decimal(15, 2),
                "l_returnflag", DataTypes.string(),
                "l_linestatus", DataTypes.string(),
                "l_shipdate", DataTypes.date(),
                "l_commitdate", DataTypes.date(),
                "l_receiptdate", DataTypes.date(),
                "l_shipinstruct", DataTypes.string(),
                "l_shipmode", DataTypes.string(),
                "l_comment", DataTypes.string(),
                "l_shipyear", DataTypes.integer());
    }

    /**
     * The sample warehouse in {@code warehouse}: kept when a complete one of the same scale and
     * seed is there, otherwise deleted and written anew. Returns the directory.
     */
    public static Path ensure(Path warehouse, TpchLikeGenerator generator, Consumer<String> progress)
            throws IOException
    {
        Path marker = warehouse.resolve(COMPLETE_MARKER);
        // the layout version changes whenever the writer or the tables change, so a warehouse of an older Tarn is rewritten
        String expected = "orders=" + generator.orderCount() + " seed=" + generator.seed() + " layout=" + LAYOUT_VERSION + "\n";
        if (Files.isRegularFile(marker) && Files.readString(marker).equals(expected)) {
            progress.accept("Sample warehouse: " + warehouse + " (written earlier)");
            return warehouse;
        }
        TrinoServer.deleteRecursively(warehouse);
        progress.accept("Writing the sample warehouse with Tarn's writer: %,d TPC-H-like orders and their line items into %s".formatted(generator.orderCount(), warehouse));
        long started = System.nanoTime();
        new DemoWarehouse(warehouse, generator, progress).write();
        Files.writeString(marker, expected);
        progress.accept("Sample warehouse written in %.1f s.".formatted(seconds(started)));
        return warehouse;
    }

    /**
     * Creates the database and both tables and fills them. Fails if a table exists already.
     */
    public void write()
            throws IOException
    {
        Files.createDirectories(warehouse);
        FileSystemCatalog catalog = new FileSystemCatalog(new LocalFileIO(), warehouse.toString());
        catalog.createDatabase(DATABASE);
        createTable(catalog, ORDERS, ordersFields(), List.of(), ordersOptions());
        createTable(catalog, LINEITEM, lineitemFields(), List.of("l_shipyear"), lineitemOptions());
        createTable(catalog, LINEITEM_ZORDER, lineitemFields(), List.of(), Map.of("bucket", "-1", "target-file-size", "2 mb"));

        long started = System.nanoTime();
        int firstCommitOrders = Math.max(1, generator.orderCount() * 4 / 5);
        try (BufferAllocator allocator = new RootAllocator();
                TableFiller orders = new TableFiller(PaimonTable.load(catalog, ORDERS), allocator);
                TableFiller lineitem = new TableFiller(PaimonTable.load(catalog, LINEITEM), allocator);
                TableFiller lineitemZorder = new TableFiller(PaimonTable.load(catalog, LINEITEM_ZORDER), allocator)) {
            long[] lines = new long[1];
            generator.generate((order, orderLines) -> {
                orders.add(order);
                for (LineItem line : orderLines) {
                    lineitem.add(line);
                    lineitemZorder.add(line);
                }
                lines[0] += orderLines.size();
                if (order.orderKey() == firstCommitOrders || order.orderKey() == generator.orderCount()) {
                    orders.commit();
                    lineitem.commit();
                    lineitemZorder.commit();
                    progress.accept("  committed %,d orders and %,d line items (%.1f s)".formatted(order.orderKey(), lines[0], seconds(started)));
                }
                else if (order.orderKey() % 50_000 == 0) {
                    progress.accept("  %,d orders and %,d line items written (%.1f s)".formatted(order.orderKey(), lines[0], seconds(started)));
                }
            });
            long sortStarted = System.nanoTime();
            progress.accept("  sort-compacting %s in z-order of %s (%,d line items, the longest step)...".formatted(LINEITEM_ZORDER, ZORDER_COLUMNS, lines[0]));
            SortCompaction.run(PaimonTable.load(catalog, LINEITEM_ZORDER), SortCompactRequest.of(SortStrategy.ZORDER, ZORDER_COLUMNS), allocator);
            PaimonTable sorted = PaimonTable.load(catalog, LINEITEM_ZORDER);
            SnapshotExpiration.Result expired = SnapshotExpiration.expire(sorted, 1);
            progress.accept("  %s sort-compacted in z-order of %s, %d files it replaced deleted (%.1f s)".formatted(
                    LINEITEM_ZORDER, ZORDER_COLUMNS, expired.deletedDataFiles(), seconds(sortStarted)));
        }
    }

    private static Map<String, String> ordersOptions()
    {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("bucket", "-1");
        options.put("target-file-size", "2 mb");
        options.put("file-index.bloom-filter.columns", "o_custkey");
        options.put("file-index.bloom-filter.o_custkey.items", "100000");
        options.put("file-index.bitmap.columns", "o_orderpriority");
        return options;
    }

    private static Map<String, String> lineitemOptions()
    {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("bucket", "-1");
        options.put("target-file-size", "2 mb");
        options.put("file-index.bloom-filter.columns", "l_partkey");
        options.put("file-index.bloom-filter.l_partkey.items", "100000");
        options.put("file-index.bitmap.columns", "l_shipmode,l_returnflag");
        return options;
    }

    private static void createTable(FileSystemCatalog catalog, Identifier identifier, List<DataField> fields, List<String> partitionKeys, Map<String, String> options)
            throws IOException
    {
        int highestFieldId = fields.stream().mapToInt(DataField::id).max().orElse(-1);
        catalog.createTable(identifier, new TableSchema(TableSchema.CURRENT_VERSION, 0, fields, highestFieldId, partitionKeys, List.of(),
                options, Optional.of("TPC-H-like demo table written by Tarn"), System.currentTimeMillis()));
    }

    private static List<DataField> fields(Object... namesAndTypes)
    {
        List<DataField> fields = new ArrayList<>();
        for (int i = 0; i < namesAndTypes.length; i += 2) {
            fields.add(new DataField(i / 2, (String) namesAndTypes[i], (DataType) namesAndTypes[i + 1]));
        }
        return List.copyOf(fields);
    }

    private static double seconds(long startNanos)
    {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    /**
     * Buffers rows into Arrow batches for one table and commits what was written so far on
     * {@link #commit()}. Values go into the vectors by column position, in the fields' order.
     */
    private static final class TableFiller
            implements AutoCloseable
    {
        private final PaimonTable table;
        private final BufferAllocator allocator;
        private final VectorSchemaRoot batch;
        private AppendTableWriter writer;
        private long commitIdentifier;
        private int rows;

        TableFiller(PaimonTable table, BufferAllocator allocator)
                throws IOException
        {
            this.table = requireNonNull(table, "table is null");
            this.allocator = requireNonNull(allocator, "allocator is null");
            this.batch = VectorSchemaRoot.create(ArrowTypes.toArrowSchema(table.latestSchema().fields()), allocator);
            this.batch.allocateNew();
            this.writer = new AppendTableWriter(table, allocator);
        }

        void add(Order order)
                throws IOException
        {
            setLong(0, order.orderKey());
            setLong(1, order.custKey());
            setString(2, order.orderStatus());
            setDecimal(3, order.totalPriceCents());
            setDate(4, order.orderDate());
            setString(5, order.orderPriority());
            setString(6, order.clerk());
            setInt(7, order.shipPriority());
            setString(8, order.comment());
            rowAdded();
        }

        void add(LineItem line)
                throws IOException
        {
            setLong(0, line.orderKey());
            setLong(1, line.partKey());
            setLong(2, line.suppKey());
            setInt(3, line.lineNumber());
            setDecimal(4, line.quantityCents());
            setDecimal(5, line.extendedPriceCents());
            setDecimal(6, line.discountCents());
            setDecimal(7, line.taxCents());
            setString(8, line.returnFlag());
            setString(9, line.lineStatus());
            setDate(10, line.shipDate());
            setDate(11, line.commitDate());
            setDate(12, line.receiptDate());
            setString(13, line.shipInstruct());
            setString(14, line.shipMode());
            setString(15, line.comment());
            setInt(16, line.shipYear());
            rowAdded();
        }

        void commit()
                throws IOException
        {
            flush();
            commitIdentifier++;
            new TableCommit(table, COMMIT_USER).commit(writer.prepareCommit(), CommitKind.APPEND, commitIdentifier);
            writer.close();
            writer = new AppendTableWriter(table, allocator);
        }

        @Override
        public void close()
                throws IOException
        {
            try (batch) {
                writer.close();
            }
        }

        private void rowAdded()
                throws IOException
        {
            rows++;
            if (rows == BATCH_ROWS) {
                flush();
            }
        }

        private void flush()
                throws IOException
        {
            if (rows == 0) {
                return;
            }
            batch.setRowCount(rows);
            writer.write(batch);
            batch.allocateNew();
            rows = 0;
        }

        private void setLong(int column, long value)
        {
            ((BigIntVector) batch.getVector(column)).setSafe(rows, value);
        }

        private void setInt(int column, int value)
        {
            ((IntVector) batch.getVector(column)).setSafe(rows, value);
        }

        private void setDate(int column, int epochDay)
        {
            ((DateDayVector) batch.getVector(column)).setSafe(rows, epochDay);
        }

        private void setDecimal(int column, long unscaled)
        {
            ((DecimalVector) batch.getVector(column)).setSafe(rows, unscaled);
        }

        private void setString(int column, String value)
        {
            ((VarCharVector) batch.getVector(column)).setSafe(rows, value.getBytes(StandardCharsets.UTF_8));
        }
    }
}
