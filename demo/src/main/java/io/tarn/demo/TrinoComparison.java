package io.tarn.demo;

import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.table.PaimonTable;
import io.tarn.types.DataField;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

import static io.tarn.demo.TrinoQueries.execute;
import static io.tarn.demo.TrinoQueries.median;
import static io.tarn.demo.TrinoQueries.profilingOptions;
import static io.tarn.demo.TrinoQueries.requiredProperty;
import static io.tarn.demo.TrinoQueries.rows;
import static io.tarn.demo.TrinoQueries.timed;
import static java.util.Objects.requireNonNull;

/**
 * {@code ./tarn bench trino}: the demo's TPC-H-like data at a larger scale in one real Trino
 * server, read through the Tarn connector and through Trino's Hive connector
 * ({@code hive.metastore=file}) over the same Parquet files (hard links of Tarn's data files in a
 * Hive layout, {@code l_shipyear=Y/} partitions). Every query first runs {@value #WARMUP_ROUNDS}
 * rounds on both connectors, then each runs {@value #DEFAULT_RUNS} times per connector,
 * alternating; the medians and their ratio go to
 * {@code benchmarks/results/trino.md}. Both connectors must return the same rows.
 */
public final class TrinoComparison
{
    static final String HIVE_PLUGIN_PROPERTY = "tarn.hive.plugin.dir";
    static final String RESULTS_PROPERTY = "tarn.bench.results";
    static final int DEFAULT_ORDERS = 1_500_000;
    private static final int DEFAULT_RUNS = 9;
    // a long-running server has compiled its hot paths; a fresh one interprets them for the
    // first runs of every query, which would time the JIT rather than the connectors
    private static final int WARMUP_ROUNDS = 3;
    private static final String FLOOR_SQL = "SELECT count(*) FROM (VALUES 1, 2, 3) t(x)";
    // the point lookup's shape (filter, projection, ORDER BY) for a key below every file's
    // statistics: Trino plans and schedules its stages, but the table yields no split at all
    private static final String EMPTY_LOOKUP_SQL = "SELECT o_orderkey, o_orderdate, o_totalprice, o_orderpriority, o_orderstatus FROM tarn.tpch.orders WHERE o_custkey = -1 ORDER BY o_orderkey";
    static final List<Identifier> HIVE_TABLES = List.of(DemoWarehouse.LINEITEM, DemoWarehouse.ORDERS, DemoWarehouse.LINEITEM_ZORDER);

    private TrinoComparison() {}

    private record Timing(String title, String sql, double tarnSeconds, double hiveSeconds, double tarnCpuSeconds, double hiveCpuSeconds, int rows)
    {
        Timing
        {
            requireNonNull(title, "title is null");
            requireNonNull(sql, "sql is null");
        }
    }

    public static void main(String[] args)
            throws Exception
    {
        int orders = args.length > 0 ? Integer.parseInt(args[0]) : DEFAULT_ORDERS;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : DEFAULT_RUNS;
        Path state = Path.of(requiredProperty(TarnDemo.STATE_PROPERTY)).toAbsolutePath().resolve("bench");
        Path results = resultsFile(Path.of(requiredProperty(RESULTS_PROPERTY)).toAbsolutePath(), orders);
        Path tarnPlugin = Path.of(requiredProperty(TarnDemo.PLUGIN_PROPERTY));
        Path hivePlugin = Path.of(requiredProperty(HIVE_PLUGIN_PROPERTY));

        TpchLikeGenerator generator = new TpchLikeGenerator(orders, TpchLikeGenerator.DEFAULT_SEED);
        Path warehouse = DemoWarehouse.ensure(state.resolve("warehouse-" + orders), generator, System.err::println);
        Path hiveRoot = state.resolve("hive");
        resetHiveMetastore(hiveRoot);
        int hiveFiles = hiveLayout(warehouse, hiveRoot, HIVE_TABLES);
        System.err.println("Hive layout: " + hiveFiles + " hard-linked Parquet files under " + hiveRoot);

        TrinoInstallation installation = TrinoInstallation.fromSystemProperties();
        String trinoVersion = installation.version();
        System.err.println("Starting Trino " + trinoVersion + " with the Tarn and Hive plugins...");
        TrinoServer server = TrinoServer.start(installation, TrinoServerConfig.in(state.resolve("server"))
                        .withPlugin("tarn", tarnPlugin)
                        .withPlugin("hive", hivePlugin)
                        .withTarnCatalog("tarn", warehouse)
                        .withCatalog("hive", hiveCatalog(hiveRoot))
                        .withHeap("3G")
                        .withJvmOptions(profilingOptions()),
                Duration.ofMinutes(4)).stopOnExit();
        List<Timing> timings = new ArrayList<>();
        double floorSeconds;
        double emptyLookupSeconds;
        try (Connection connection = server.connect()) {
            createHiveTables(connection);
            List<DemoQuery> queries = DemoQuery.showcase(generator).stream()
                    // time travel has no Hive counterpart
                    .filter(query -> !query.sql().contains("FOR VERSION"))
                    .toList();
            System.err.printf("Warming up: %d rounds of every query on both connectors...%n", WARMUP_ROUNDS);
            for (int round = 0; round < WARMUP_ROUNDS; round++) {
                for (DemoQuery query : queries) {
                    execute(connection, "USE tarn.tpch");
                    timed(connection, query.sql());
                    execute(connection, "USE hive.tpch");
                    timed(connection, query.sql());
                }
            }
            for (DemoQuery query : queries) {
                timings.add(measure(connection, query, runs));
            }
            floorSeconds = floor(connection, FLOOR_SQL, runs);
            System.err.printf(Locale.ROOT, "A query reading no table: %.3f s%n", floorSeconds);
            emptyLookupSeconds = floor(connection, EMPTY_LOOKUP_SQL, runs);
            System.err.printf(Locale.ROOT, "The point lookup's shape with no split: %.3f s%n", emptyLookupSeconds);
        }
        finally {
            server.stop();
        }
        write(results, trinoVersion, timings, floorSeconds, emptyLookupSeconds, generator, hiveFiles, indexFiles(warehouse), runs);
        System.err.println("Results: " + results);
    }

    /**
     * The default scale writes {@code results}; another scale writes beside it, named by its
     * order count ({@code trino-6000000.md}), so that runs at several scales stand side by side.
     */
    static Path resultsFile(Path results, int orders)
    {
        if (orders == DEFAULT_ORDERS) {
            return results;
        }
        String name = results.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String scaled = dot < 0 ? name + "-" + orders : name.substring(0, dot) + "-" + orders + name.substring(dot);
        return results.resolveSibling(scaled);
    }

    private static Timing measure(Connection connection, DemoQuery query, int runs)
            throws SQLException
    {
        String tarnSql = "USE tarn.tpch";
        String hiveSql = "USE hive.tpch";
        execute(connection, tarnSql);
        List<String> tarnRows = rows(connection, query.sql());
        execute(connection, hiveSql);
        List<String> hiveRows = rows(connection, query.sql());
        if (!tarnRows.equals(hiveRows)) {
            throw new IllegalStateException("Tarn and Hive disagree on " + query.title() + ":\nTarn: " + tarnRows + "\nHive: " + hiveRows);
        }
        double[] tarn = new double[runs];
        double[] hive = new double[runs];
        double[] tarnCpu = new double[runs];
        double[] hiveCpu = new double[runs];
        for (int run = 0; run < runs; run++) {
            execute(connection, tarnSql);
            double[] tarnRun = timed(connection, query.sql());
            tarn[run] = tarnRun[0];
            tarnCpu[run] = tarnRun[1];
            execute(connection, hiveSql);
            double[] hiveRun = timed(connection, query.sql());
            hive[run] = hiveRun[0];
            hiveCpu[run] = hiveRun[1];
        }
        Timing timing = new Timing(query.title(), query.sql(), median(tarn), median(hive), median(tarnCpu), median(hiveCpu), tarnRows.size());
        System.err.printf(Locale.ROOT, "%s: Tarn %.3f s (CPU %.3f s), Hive %.3f s (CPU %.3f s)%n",
                query.title(), timing.tarnSeconds(), timing.tarnCpuSeconds(), timing.hiveSeconds(), timing.hiveCpuSeconds());
        return timing;
    }

    /**
     * The median elapsed seconds of a query whose connector work is nil, after warming it up:
     * what Trino itself takes for a query of its shape on this machine (parsing, planning,
     * scheduling, the client's round trips).
     */
    private static double floor(Connection connection, String sql, int runs)
            throws SQLException
    {
        for (int round = 0; round < WARMUP_ROUNDS; round++) {
            timed(connection, sql);
        }
        double[] seconds = new double[runs];
        for (int run = 0; run < runs; run++) {
            seconds[run] = timed(connection, sql)[0];
        }
        return median(seconds);
    }

    /**
     * An empty Hive file metastore under {@code hiveRoot}: the benchmarks create their Hive tables
     * anew on every run, and the file metastore refuses what another Trino release wrote.
     */
    static void resetHiveMetastore(Path hiveRoot)
            throws IOException
    {
        TrinoServer.deleteRecursively(hiveRoot.resolve("metastore"));
        Files.createDirectories(hiveRoot);
    }

    static Map<String, String> hiveCatalog(Path hiveRoot)
    {
        Map<String, String> hive = new LinkedHashMap<>();
        hive.put("connector.name", "hive");
        hive.put("hive.metastore", "file");
        hive.put("hive.metastore.catalog.dir", "local:///metastore");
        hive.put("fs.native-local.enabled", "true");
        hive.put("local.location", hiveRoot.toAbsolutePath().toString());
        return hive;
    }

    static void createHiveTables(Connection connection)
            throws SQLException
    {
        createHiveTables(connection, "hive", "local:///");
    }

    /**
     * The Hive tables of the benchmarks, created anew in catalog {@code catalog} over a layout of
     * {@link #hiveLayout} at location {@code root} (ending in {@code /}: {@code local:///},
     * {@code s3://bucket/hive/}).
     */
    static void createHiveTables(Connection connection, String catalog, String root)
            throws SQLException
    {
        execute(connection, "CREATE SCHEMA IF NOT EXISTS %s.tpch WITH (location = '%stpch')".formatted(catalog, root));
        execute(connection, "DROP TABLE IF EXISTS %s.tpch.lineitem".formatted(catalog));
        execute(connection, "DROP TABLE IF EXISTS %s.tpch.orders".formatted(catalog));
        execute(connection, "CREATE TABLE %s.tpch.lineitem (%s) ".formatted(catalog, columns(DemoWarehouse.lineitemFields()))
                + "WITH (format = 'PARQUET', external_location = '%slineitem', partitioned_by = ARRAY['l_shipyear'])".formatted(root));
        execute(connection, "CALL %s.system.sync_partition_metadata('tpch', 'lineitem', 'FULL')".formatted(catalog));
        execute(connection, "CREATE TABLE %s.tpch.orders (%s) ".formatted(catalog, columns(DemoWarehouse.ordersFields()))
                + "WITH (format = 'PARQUET', external_location = '%sorders')".formatted(root));
        execute(connection, "DROP TABLE IF EXISTS %s.tpch.lineitem_zorder".formatted(catalog));
        execute(connection, "CREATE TABLE %s.tpch.lineitem_zorder (%s) ".formatted(catalog, columns(DemoWarehouse.lineitemFields()))
                + "WITH (format = 'PARQUET', external_location = '%slineitem_zorder')".formatted(root));
    }

    private static String columns(List<DataField> fields)
    {
        List<String> columns = new ArrayList<>();
        for (DataField field : fields) {
            String type = switch (field.type().root()) {
                case BIGINT -> "bigint";
                case INT -> "integer";
                case DATE -> "date";
                case VARCHAR -> "varchar";
                case DECIMAL -> "decimal(15, 2)";
                default -> throw new IllegalArgumentException("No Hive column type for " + field);
            };
            columns.add(field.name() + " " + type);
        }
        return String.join(", ", columns);
    }

    /**
     * Hard links of the live Parquet data files of every table (those the latest snapshot lists,
     * so that the files the z-order copy's sort-compact replaced stay out) in a Hive layout.
     */
    static int hiveLayout(Path warehouse, Path hiveRoot, List<Identifier> tables)
            throws IOException
    {
        FileSystemCatalog catalog = new FileSystemCatalog(new LocalFileIO(), warehouse.toString());
        int files = 0;
        for (Identifier identifier : tables) {
            TrinoServer.deleteRecursively(hiveRoot.resolve(identifier.table()));
            PaimonTable table = PaimonTable.load(catalog, identifier);
            Path tableDirectory = Path.of(table.location());
            for (PlannedFile planned : new ScanPlanner(table).plan(table.snapshotManager().latest()).files()) {
                Path file = Path.of(table.dataFilePath(planned.partition(), planned.bucket(), planned.file(), planned.file().fileName()));
                Path relative = tableDirectory.relativize(file);
                // l_shipyear=1994/bucket-0/data-….parquet → l_shipyear=1994/data-….parquet
                Path partition = relative.getNameCount() > 2 ? relative.getName(0) : Path.of("");
                Path link = hiveRoot.resolve(identifier.table()).resolve(partition.toString()).resolve(file.getFileName().toString());
                Files.createDirectories(link.getParent());
                Files.createLink(link, file);
                files++;
            }
        }
        return files;
    }

    private static void write(Path results, String trinoVersion, List<Timing> timings, double floorSeconds, double emptyLookupSeconds, TpchLikeGenerator generator, int files, long indexFiles, int runs)
            throws IOException
    {
        StringBuilder text = new StringBuilder();
        text.append("# Tarn connector vs Trino's Hive connector, one real Trino ").append(trinoVersion).append(" server\n\n");
        text.append("Written by `./tarn bench trino` on ").append(Instant.now()).append(" (")
                .append(Runtime.getRuntime().availableProcessors()).append(" cores seen by the JVM, system load average ")
                .append(String.format(Locale.ROOT, "%.1f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()))
                .append(" at the end: other work shared the machine, so compare the ratios, not the seconds).\n\n");
        text.append("Data: the demo's TPC-H-like tables written by Tarn, %,d orders and their line items; `lineitem` partitioned by `l_shipyear`, "
                .formatted(generator.orderCount()))
                .append("%d Parquet files in all. The Hive catalog (`hive.metastore=file`, local file system) reads hard links of the same Parquet files. ".formatted(files))
                .append("Every query first ran %d rounds on both connectors to warm the server up (its JIT), then %d times per connector, alternating; the table shows medians. ".formatted(WARMUP_ROUNDS, runs))
                .append("Both connectors returned the same rows for every query. A ratio above 1 means Tarn is faster.\n\n");
        text.append("| query | rows | Tarn (s) | Hive (s) | Hive / Tarn | Hive / Tarn above the floor | Tarn CPU (s) | Hive CPU (s) | Hive / Tarn CPU |\n"
                + "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Timing timing : timings) {
            double aboveFloor = (timing.hiveSeconds() - floorSeconds) / Math.max(timing.tarnSeconds() - floorSeconds, 0.001);
            text.append(String.format(Locale.ROOT, "| %s | %d | %.3f | %.3f | %.2f | %.2f | %.3f | %.3f | %.2f |%n",
                    timing.title(), timing.rows(), timing.tarnSeconds(), timing.hiveSeconds(), timing.hiveSeconds() / timing.tarnSeconds(), aboveFloor,
                    timing.tarnCpuSeconds(), timing.hiveCpuSeconds(), timing.hiveCpuSeconds() / Math.max(timing.tarnCpuSeconds(), 0.001)));
        }
        text.append("\nSeconds are the elapsed time the JDBC client saw; CPU is the CPU time Trino reported for the query (all threads), which other work on the machine inflates much less.\n");
        text.append(String.format(Locale.ROOT, "%nThe floor: a query that reads no table (`SELECT count(*) FROM (VALUES 1, 2, 3) t(x)`) took %.3f s (median of %d), "
                + "Trino's own parsing, planning, scheduling and client round trips, which every query above pays whatever its connector does. "
                + "\"Above the floor\" compares what is left: (Hive − floor) / (Tarn − floor).%n", floorSeconds, runs));
        text.append(String.format(Locale.ROOT, "%nThe point lookup's own floor: the same query for a key below every file's statistics (`o_custkey = -1`), which plans no split, "
                + "took %.3f s through Tarn (median of %d): Trino's parsing, planning and scheduling of its three stages. "
                + "However fast a connector reads, a point lookup of this shape takes at least that long on this machine.%n", emptyLookupSeconds, runs));
        if (indexFiles == 0) {
            text.append("\nThe tables declare Bloom-filter and bitmap file indexes, but the warehouse holds no index file: ")
                    .append("the selective queries skip by partitions and min/max statistics only.\n");
        }
        else {
            text.append("\nTarn's writer wrote %,d file-index files beside the data files (Bloom filters on `o_custkey` and `l_partkey`, bitmaps on `o_orderpriority`, `l_shipmode` and `l_returnflag`); ".formatted(indexFiles))
                    .append("Trino's Hive connector does not read them. `lineitem_zorder` is a copy of `lineitem` that Tarn's sort-compact rewrote in z-order of ")
                    .append("`%s`; both connectors read the same sorted files, Hive skipping row groups by their Parquet statistics.\n".formatted(String.join("`, `", DemoWarehouse.ZORDER_COLUMNS)));
        }
        text.append("\n");
        text.append("Queries:\n");
        for (Timing timing : timings) {
            text.append("\n").append(timing.title()).append(":\n\n```sql\n").append(timing.sql()).append("\n```\n");
        }
        Files.createDirectories(results.getParent());
        Files.writeString(results, text.toString());
    }

    private static long indexFiles(Path warehouse)
            throws IOException
    {
        try (Stream<Path> paths = Files.walk(warehouse)) {
            return paths.filter(path -> path.getFileName().toString().endsWith(".index")).count();
        }
    }
}
