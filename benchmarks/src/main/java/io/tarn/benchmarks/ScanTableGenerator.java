package io.tarn.benchmarks;

import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.types.DataTypes;

import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static java.util.Objects.requireNonNull;

/**
 * Writes, with Apache Paimon's own writer and its default options (Parquet, ZSTD, default file
 * and row-group sizes), an append table of lineitem-like rows: {@code bench.lineitem} with 16
 * columns of integers, decimals, dates and short and long strings, about 2% NULLs in five of them.
 * Rows come from a fixed seed, so every generation of the same size holds the same values.
 *
 * <p>{@code shipdate} is uniform over {@link #SHIP_DAYS} days from {@link #FIRST_SHIP_DATE} and
 * not correlated with the write order, so a {@code shipdate} filter can prune no row group: every
 * engine must decode the column and test every row.
 */
public final class ScanTableGenerator
{
    public static final String DATABASE = "bench";
    public static final String TABLE = "lineitem";
    public static final LocalDate FIRST_SHIP_DATE = LocalDate.of(1992, 1, 2);
    public static final int SHIP_DAYS = 2526;
    public static final List<String> COLUMNS = List.of(
            "orderkey", "partkey", "suppkey", "linenumber",
            "quantity", "extendedprice", "discount", "tax",
            "returnflag", "linestatus", "shipdate", "commitdate", "receiptdate",
            "shipinstruct", "shipmode", "comment");

    private static final long SEED = 20261129L;
    private static final int COMMITS = 4;
    private static final String[] INSTRUCTIONS = {"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"};
    private static final String[] MODES = {"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"};
    private static final String[] WORDS = {
            "furiously", "sly", "careful", "blithely", "quickly", "fluffily", "slyly", "ironic", "final", "regular",
            "express", "pending", "bold", "even", "special", "unusual", "silent", "deposits", "requests", "accounts",
            "packages", "theodolites", "foxes", "pinto", "beans", "instructions", "dependencies", "ideas", "asymptotes", "platelets"};

    private ScanTableGenerator() {}

    /**
     * {@code ScanTableGenerator CACHE_DIRECTORY ROWS}: generates (or finds) the cached table ahead of a run.
     */
    public static void main(String[] args)
            throws Exception
    {
        if (args.length != 2) {
            throw new IllegalArgumentException("Usage: ScanTableGenerator CACHE_DIRECTORY ROWS");
        }
        long start = System.nanoTime();
        Path warehouse = cachedWarehouse(Path.of(args[0]), Long.parseLong(args[1]));
        System.out.printf("Table %s in %s ready after %.1f s%n", tableName(), warehouse, (System.nanoTime() - start) / 1e9);
    }

    public static String tableName()
    {
        return DATABASE + "." + TABLE;
    }

    /**
     * The warehouse holding a table of {@code rows} rows under {@code cacheDirectory}, generated
     * there first unless an earlier run completed it.
     */
    public static Path cachedWarehouse(Path cacheDirectory, long rows)
            throws Exception
    {
        return CachedWarehouse.ensure(cacheDirectory.resolve("rows-" + rows), rows, warehouse -> generate(warehouse, rows));
    }

    /**
     * Creates {@code bench.lineitem} in {@code warehouse} and appends {@code rows} rows in a few commits.
     */
    public static void generate(Path warehouse, long rows)
    {
        generate(warehouse, rows, Map.of());
    }

    /**
     * Creates {@code bench.lineitem} with {@code tableOptions} added to its defaults (for example
     * {@code file.format=orc}) in {@code warehouse} and appends {@code rows} rows in a few commits:
     * the same rows whatever the options.
     */
    @SuppressWarnings("try") // Paimon's close() declares Exception, which the catch below handles
    public static void generate(Path warehouse, long rows, Map<String, String> tableOptions)
    {
        requireNonNull(warehouse, "warehouse is null");
        requireNonNull(tableOptions, "tableOptions is null");
        if (rows <= 0) {
            throw new IllegalArgumentException("Rows must be positive: " + rows);
        }
        try (Catalog catalog = PlanningTableGenerator.openCatalog(warehouse)) {
            catalog.createDatabase(DATABASE, true);
            Identifier identifier = Identifier.create(DATABASE, TABLE);
            Schema schema = Schema.newBuilder()
                    .column("orderkey", DataTypes.BIGINT().notNull())
                    .column("partkey", DataTypes.BIGINT())
                    .column("suppkey", DataTypes.INT())
                    .column("linenumber", DataTypes.INT())
                    .column("quantity", DataTypes.DECIMAL(15, 2))
                    .column("extendedprice", DataTypes.DECIMAL(15, 2))
                    .column("discount", DataTypes.DECIMAL(15, 2))
                    .column("tax", DataTypes.DECIMAL(15, 2))
                    .column("returnflag", DataTypes.STRING())
                    .column("linestatus", DataTypes.STRING())
                    .column("shipdate", DataTypes.DATE())
                    .column("commitdate", DataTypes.DATE())
                    .column("receiptdate", DataTypes.DATE())
                    .column("shipinstruct", DataTypes.STRING())
                    .column("shipmode", DataTypes.STRING())
                    .column("comment", DataTypes.STRING())
                    // Paimon's defaults otherwise: Parquet, ZSTD, its default file and row-group sizes
                    .option("bucket", "-1")
                    .options(tableOptions)
                    .build();
            catalog.createTable(identifier, schema, false);
            Table table = catalog.getTable(identifier);
            SplittableRandom random = new SplittableRandom(SEED);
            int firstShipDay = (int) FIRST_SHIP_DATE.toEpochDay();
            long written = 0;
            for (int commit = 0; commit < COMMITS; commit++) {
                long end = rows * (commit + 1) / COMMITS;
                if (end == written) {
                    continue;
                }
                // Paimon wants a new builder per commit
                BatchWriteBuilder builder = table.newBatchWriteBuilder();
                List<CommitMessage> messages;
                try (BatchTableWrite write = builder.newWrite()) {
                    for (long row = written; row < end; row++) {
                        write.write(row(random, row, firstShipDay));
                    }
                    messages = write.prepareCommit();
                }
                try (BatchTableCommit tableCommit = builder.newCommit()) {
                    tableCommit.commit(messages);
                }
                written = end;
            }
        }
        catch (RuntimeException e) {
            throw e;
        }
        catch (Exception e) {
            throw new IllegalStateException("Cannot generate the scan table in " + warehouse, e);
        }
    }

    private static GenericRow row(SplittableRandom random, long row, int firstShipDay)
    {
        int shipDay = firstShipDay + random.nextInt(SHIP_DAYS);
        int quantity = 1 + random.nextInt(50);
        long partkey = 1 + random.nextInt(2_000_000);
        // price per unit between 900.00 and 2099.99, in cents
        long extendedPrice = quantity * (90_000L + random.nextInt(120_000));
        return GenericRow.of(
                row / 4 * 8 + row % 4 + 1,
                partkey,
                nullOr(random, 1 + random.nextInt(100_000)),
                1 + random.nextInt(7),
                Decimal.fromUnscaledLong(quantity * 100L, 15, 2),
                Decimal.fromUnscaledLong(extendedPrice, 15, 2),
                nullOr(random, Decimal.fromUnscaledLong(random.nextInt(11), 15, 2)),
                Decimal.fromUnscaledLong(random.nextInt(9), 15, 2),
                BinaryString.fromString(random.nextInt(2) == 0 ? "N" : (random.nextInt(2) == 0 ? "R" : "A")),
                BinaryString.fromString(random.nextInt(2) == 0 ? "O" : "F"),
                shipDay,
                nullOr(random, shipDay - 30 + random.nextInt(90)),
                shipDay + 1 + random.nextInt(30),
                BinaryString.fromString(INSTRUCTIONS[random.nextInt(INSTRUCTIONS.length)]),
                nullOr(random, BinaryString.fromString(MODES[random.nextInt(MODES.length)])),
                nullOr(random, BinaryString.fromString(comment(random))));
    }

    private static <T> T nullOr(SplittableRandom random, T value)
    {
        // the random draw is taken whether or not the value is kept, so the sequence stays fixed
        return random.nextInt(50) == 0 ? null : value;
    }

    private static String comment(SplittableRandom random)
    {
        int length = 10 + random.nextInt(31);
        StringBuilder text = new StringBuilder(length + 16);
        while (text.length() < length) {
            if (!text.isEmpty()) {
                text.append(' ');
            }
            text.append(WORDS[random.nextInt(WORDS.length)]);
        }
        text.setLength(length);
        return text.toString();
    }
}
