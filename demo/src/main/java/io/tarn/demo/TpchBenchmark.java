package io.tarn.demo;

import io.tarn.storage.catalog.Identifier;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
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
import java.util.Optional;

import static io.tarn.demo.TrinoQueries.execute;
import static io.tarn.demo.TrinoQueries.median;
import static io.tarn.demo.TrinoQueries.profilingOptions;
import static io.tarn.demo.TrinoQueries.requiredProperty;
import static io.tarn.demo.TrinoQueries.rows;
import static io.tarn.demo.TrinoQueries.timed;
import static java.util.Objects.requireNonNull;
import static java.util.stream.Collectors.joining;

/**
 * {@code ./tarn bench tpch [SCHEMA [RUNS]] [--queries N,M,...] [--warmup ROUNDS] [--dynamic-filtering-wait DURATION]}: the eight TPC-H tables of Trino's TPC-H generator
 * (schema {@code sf1} by default, {@code tiny} for a quick check) written by Tarn through
 * {@code CREATE TABLE AS} into one warehouse, then the 22 TPC-H queries (the specification's texts
 * with its validation parameters, only the syntax adapted to Trino) in one real Trino server:
 * through the Tarn connector, through the Tarn connector with dynamic filtering off, and through
 * Trino's Hive connector ({@code hive.metastore=file}) over hard links of the same Parquet files,
 * every table of both catalogs analyzed first. The answers of every query must be equal. After {@value #WARMUP_ROUNDS} warm-up rounds,
 * each query runs {@code RUNS} times per configuration, alternating; medians of elapsed and CPU
 * time go to {@code benchmarks/results/tpch.md} (or {@code tpch-SCHEMA.md}). {@code --queries}
 * runs only the listed queries (while working on some of them) and writes
 * {@code tpch-subset.md} (or {@code tpch-SCHEMA-subset.md}) instead, so that a partial run never
 * replaces the full report. {@code --dynamic-filtering-wait} sets the Tarn catalog's
 * {@code tarn.dynamic-filtering.wait-timeout} (a subset run then, whatever the queries).
 */
public final class TpchBenchmark
{
    static final String TPCH_PLUGIN_PROPERTY = "tarn.tpch.plugin.dir";
    private static final String DEFAULT_SCHEMA = "sf1";
    private static final int DEFAULT_RUNS = 5;
    private static final int WARMUP_ROUNDS = 3;
    private static final int QUERY_COUNT = 22;
    private static final String DATABASE = "tpch";
    private static final List<String> TABLES = List.of("nation", "region", "part", "supplier", "partsupp", "customer", "orders", "lineitem");
    // written when every table is loaded: a warehouse without it is from an interrupted load
    private static final String LOADED_MARKER = "tpch-loaded";

    private TpchBenchmark() {}

    /**
     * @param dynamicFilteringWait the Tarn catalog's {@code tarn.dynamic-filtering.wait-timeout}
     *         when not its default (for example {@code 0s}, to measure what the wait buys)
     */
    record Arguments(String schema, int runs, List<Integer> queries, int warmupRounds, Optional<String> dynamicFilteringWait)
    {
        Arguments
        {
            requireNonNull(schema, "schema is null");
            queries = List.copyOf(queries);
            requireNonNull(dynamicFilteringWait, "dynamicFilteringWait is null");
        }

        boolean subset()
        {
            return queries.size() < QUERY_COUNT || dynamicFilteringWait.isPresent();
        }

        static Arguments parse(String... args)
        {
            List<String> positional = new ArrayList<>();
            List<Integer> queries = new ArrayList<>();
            int warmup = WARMUP_ROUNDS;
            Optional<String> wait = Optional.empty();
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--queries" -> {
                        if (i + 1 >= args.length) {
                            throw new IllegalArgumentException("--queries needs a list of query numbers, such as 1,3,6");
                        }
                        for (String number : args[++i].split(",")) {
                            int query = wholeNumber("--queries", number.strip());
                            if (query < 1 || query > QUERY_COUNT) {
                                throw new IllegalArgumentException("--queries: TPC-H has queries 1 to %d, not %d".formatted(QUERY_COUNT, query));
                            }
                            if (!queries.contains(query)) {
                                queries.add(query);
                            }
                        }
                    }
                    case "--warmup" -> {
                        if (i + 1 >= args.length) {
                            throw new IllegalArgumentException("--warmup needs a number of rounds");
                        }
                        warmup = wholeNumber("--warmup", args[++i]);
                        if (warmup < 0) {
                            throw new IllegalArgumentException("--warmup cannot be negative: " + warmup);
                        }
                    }
                    case "--dynamic-filtering-wait" -> {
                        if (i + 1 >= args.length || !args[i + 1].matches("\\d+(ms|s|m)")) {
                            throw new IllegalArgumentException("--dynamic-filtering-wait needs a duration, such as 0s, 500ms or 1s");
                        }
                        wait = Optional.of(args[++i]);
                    }
                    default -> positional.add(args[i]);
                }
            }
            if (positional.size() > 2) {
                throw new IllegalArgumentException("Usage: ./tarn bench tpch [SCHEMA [RUNS]] [--queries N,M,...] [--warmup ROUNDS] [--dynamic-filtering-wait DURATION]");
            }
            String schema = positional.isEmpty() ? DEFAULT_SCHEMA : positional.get(0);
            int runs = positional.size() > 1 ? wholeNumber("RUNS", positional.get(1)) : DEFAULT_RUNS;
            if (runs < 1) {
                throw new IllegalArgumentException("RUNS must be at least 1: " + runs);
            }
            if (queries.isEmpty()) {
                for (int query = 1; query <= QUERY_COUNT; query++) {
                    queries.add(query);
                }
            }
            queries.sort(null);
            return new Arguments(schema, runs, queries, warmup, wait);
        }

        private static int wholeNumber(String name, String value)
        {
            try {
                return Integer.parseInt(value);
            }
            catch (NumberFormatException e) {
                throw new IllegalArgumentException(name + " needs a whole number: " + value);
            }
        }
    }

    record Timing(int query, int rows, double tarnSeconds, double tarnCpuSeconds, double withoutDynamicFilteringSeconds, double withoutDynamicFilteringCpuSeconds,
            double hiveSeconds, double hiveCpuSeconds, double hiveWithoutDynamicFilteringSeconds)
    {
        double hiveOverTarn()
        {
            return hiveSeconds / tarnSeconds;
        }

        double withoutOverWithDynamicFiltering()
        {
            return withoutDynamicFilteringSeconds / tarnSeconds;
        }

        double hiveWithoutOverWithDynamicFiltering()
        {
            return hiveWithoutDynamicFilteringSeconds / hiveSeconds;
        }
    }

    private enum Configuration
    {
        TARN("USE tarn." + DATABASE, "RESET SESSION enable_dynamic_filtering"),
        TARN_WITHOUT_DYNAMIC_FILTERING("USE tarn." + DATABASE, "SET SESSION enable_dynamic_filtering = false"),
        HIVE("USE hive." + DATABASE, "RESET SESSION enable_dynamic_filtering"),
        // what dynamic filtering costs or saves in Trino's engine, whatever the connector
        HIVE_WITHOUT_DYNAMIC_FILTERING("USE hive." + DATABASE, "SET SESSION enable_dynamic_filtering = false");

        private final String use;
        private final String session;

        Configuration(String use, String session)
        {
            this.use = use;
            this.session = session;
        }

        void apply(Connection connection)
                throws SQLException
        {
            execute(connection, use);
            execute(connection, session);
        }
    }

    public static void main(String[] args)
            throws Exception
    {
        Arguments arguments = Arguments.parse(args);
        String schema = arguments.schema();
        int runs = arguments.runs();
        double scaleFactor = scaleFactor(schema);
        Path state = Path.of(requiredProperty(TarnDemo.STATE_PROPERTY)).toAbsolutePath().resolve("bench-tpch");
        Path results = resultsFile(Path.of(requiredProperty(TrinoComparison.RESULTS_PROPERTY)).toAbsolutePath(), schema, arguments.subset());
        Path warehouse = state.resolve("warehouse-" + schema);
        Path hiveRoot = state.resolve("hive-" + schema);
        boolean loaded = Files.exists(warehouse.resolve(LOADED_MARKER));
        if (!loaded) {
            TrinoServer.deleteRecursively(warehouse);
        }
        Files.createDirectories(warehouse);
        // the Hive catalog's local file system root must exist when the server starts
        TrinoComparison.resetHiveMetastore(hiveRoot);
        List<String> queries = queries(scaleFactor);

        TrinoInstallation installation = TrinoInstallation.fromSystemProperties();
        String trinoVersion = installation.version();
        System.err.println("Starting Trino " + trinoVersion + " with the Tarn, Hive and TPC-H plugins...");
        TrinoServer server = TrinoServer.start(installation, TrinoServerConfig.in(state.resolve("server"))
                        .withPlugin("tarn", Path.of(requiredProperty(TarnDemo.PLUGIN_PROPERTY)))
                        .withPlugin("hive", Path.of(requiredProperty(TrinoComparison.HIVE_PLUGIN_PROPERTY)))
                        .withPlugin("tpch", Path.of(requiredProperty(TPCH_PLUGIN_PROPERTY)))
                        .withCatalog("tarn", tarnCatalog(warehouse, arguments.dynamicFilteringWait()))
                        .withCatalog("hive", TrinoComparison.hiveCatalog(hiveRoot))
                        .withCatalog("tpch", tpchCatalog())
                        .withHeap("3G")
                        .withJvmOptions(profilingOptions()),
                Duration.ofMinutes(4)).stopOnExit();
        List<Timing> timings = new ArrayList<>();
        double loadSeconds = 0;
        int hiveFiles;
        try (Connection connection = server.connect()) {
            if (!loaded) {
                loadSeconds = load(connection, schema);
                Files.writeString(warehouse.resolve(LOADED_MARKER), Instant.now() + "\n");
            }
            hiveFiles = TrinoComparison.hiveLayout(warehouse, hiveRoot, TABLES.stream().map(table -> new Identifier(DATABASE, table)).toList());
            createHiveTables(connection);
            analyze(connection);
            System.err.printf("Warming up: %d rounds of the %d queries in every configuration...%n", arguments.warmupRounds(), arguments.queries().size());
            for (int round = 0; round < arguments.warmupRounds(); round++) {
                for (int query : arguments.queries()) {
                    for (Configuration configuration : Configuration.values()) {
                        configuration.apply(connection);
                        timed(connection, queries.get(query - 1));
                    }
                }
            }
            for (int query : arguments.queries()) {
                timings.add(measure(connection, query, queries.get(query - 1), runs));
            }
        }
        finally {
            server.stop();
        }
        write(results, trinoVersion, arguments, timings, hiveFiles, loadSeconds);
        System.err.println("Results: " + results);
    }

    /**
     * The scale factor of a schema of Trino's TPC-H connector: {@code tiny} is 0.01, {@code sfN}
     * is N.
     */
    static double scaleFactor(String schema)
    {
        if (schema.equals("tiny")) {
            return 0.01;
        }
        if (schema.startsWith("sf")) {
            try {
                double scale = Double.parseDouble(schema.substring(2));
                if (scale > 0) {
                    return scale;
                }
            }
            catch (NumberFormatException ignored) {
                // reported below
            }
        }
        throw new IllegalArgumentException("Unknown TPC-H schema '" + schema + "': use tiny, sf1, sf10, ...");
    }

    static Path resultsFile(Path trinoResults, String schema, boolean subset)
    {
        return trinoResults.resolveSibling("tpch" + (schema.equals(DEFAULT_SCHEMA) ? "" : "-" + schema) + (subset ? "-subset" : "") + ".md");
    }

    /**
     * The 22 query texts; Q11's fraction is the specification's 0.0001 divided by the scale factor.
     */
    static List<String> queries(double scaleFactor)
            throws IOException
    {
        List<String> queries = new ArrayList<>();
        for (int query = 1; query <= QUERY_COUNT; query++) {
            String name = String.format(Locale.ROOT, "tpch/q%02d.sql", query);
            try (InputStream in = TpchBenchmark.class.getResourceAsStream(name)) {
                requireNonNull(in, () -> "Missing resource " + name);
                String text = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
                queries.add(text.replace("${FRACTION}", String.format(Locale.ROOT, "%.10f", 0.0001 / scaleFactor)));
            }
        }
        return List.copyOf(queries);
    }

    private static Map<String, String> tpchCatalog()
    {
        Map<String, String> tpch = new LinkedHashMap<>();
        tpch.put("connector.name", "tpch");
        // the specification's column names (l_orderkey) and DECIMAL(12, 2) money, not DOUBLE
        tpch.put("tpch.column-naming", "STANDARD");
        tpch.put("tpch.double-type-mapping", "DECIMAL");
        return tpch;
    }

    private static double load(Connection connection, String schema)
            throws SQLException
    {
        long started = System.nanoTime();
        execute(connection, "CREATE SCHEMA IF NOT EXISTS tarn." + DATABASE);
        for (String table : TABLES) {
            System.err.printf("Writing tarn.%s.%s from tpch.%s.%s with Tarn's writer...%n", DATABASE, table, schema, table);
            execute(connection, "DROP TABLE IF EXISTS tarn.%s.%s".formatted(DATABASE, table));
            execute(connection, "CREATE TABLE tarn.%s.%s AS SELECT * FROM tpch.%s.%s".formatted(DATABASE, table, schema, table));
        }
        return (System.nanoTime() - started) / 1e9;
    }

    /**
     * {@code ANALYZE} of every table in both catalogs, so that Trino's cost-based optimizer plans
     * both from the same kind of statistics (row counts, distinct values, nulls, sizes): what is
     * compared is the connectors' reading, not one plan made with statistics against another made
     * without. Tarn keeps them as Paimon's statistics file, Hive in its metastore (reset every run).
     */
    private static void analyze(Connection connection)
            throws SQLException
    {
        System.err.println("Analyzing the tables of both catalogs...");
        for (String catalog : List.of("tarn", "hive")) {
            for (String table : TABLES) {
                execute(connection, "ANALYZE %s.%s.%s".formatted(catalog, DATABASE, table));
            }
        }
    }

    /**
     * Hive tables over the hard links, with the column types Trino reports for Tarn's tables.
     */
    private static void createHiveTables(Connection connection)
            throws SQLException
    {
        execute(connection, "CREATE SCHEMA IF NOT EXISTS hive.%s WITH (location = 'local:///%s')".formatted(DATABASE, DATABASE));
        for (String table : TABLES) {
            List<String> columns = new ArrayList<>();
            for (String column : rows(connection, "SELECT column_name, data_type FROM tarn.information_schema.columns WHERE table_schema = '%s' AND table_name = '%s' ORDER BY ordinal_position"
                    .formatted(DATABASE, table))) {
                columns.add(column.replace('|', ' '));
            }
            execute(connection, "DROP TABLE IF EXISTS hive.%s.%s".formatted(DATABASE, table));
            execute(connection, "CREATE TABLE hive.%s.%s (%s) WITH (format = 'PARQUET', external_location = 'local:///%s')".formatted(DATABASE, table, String.join(", ", columns), table));
        }
    }

    private static Timing measure(Connection connection, int query, String sql, int runs)
            throws SQLException
    {
        Map<Configuration, List<String>> answers = new LinkedHashMap<>();
        for (Configuration configuration : Configuration.values()) {
            configuration.apply(connection);
            answers.put(configuration, rows(connection, sql));
        }
        List<String> expected = answers.get(Configuration.HIVE);
        answers.forEach((configuration, actual) -> {
            if (!actual.equals(expected)) {
                throw new IllegalStateException("Q%d: %s and Hive disagree:%n%s: %s%nHive: %s".formatted(query, configuration, configuration, actual, expected));
            }
        });
        Map<Configuration, double[]> elapsed = new LinkedHashMap<>();
        Map<Configuration, double[]> cpu = new LinkedHashMap<>();
        for (Configuration configuration : Configuration.values()) {
            elapsed.put(configuration, new double[runs]);
            cpu.put(configuration, new double[runs]);
        }
        for (int run = 0; run < runs; run++) {
            for (Configuration configuration : Configuration.values()) {
                configuration.apply(connection);
                double[] seconds = timed(connection, sql);
                elapsed.get(configuration)[run] = seconds[0];
                cpu.get(configuration)[run] = seconds[1];
            }
        }
        Timing timing = new Timing(query, expected.size(),
                median(elapsed.get(Configuration.TARN)), median(cpu.get(Configuration.TARN)),
                median(elapsed.get(Configuration.TARN_WITHOUT_DYNAMIC_FILTERING)), median(cpu.get(Configuration.TARN_WITHOUT_DYNAMIC_FILTERING)),
                median(elapsed.get(Configuration.HIVE)), median(cpu.get(Configuration.HIVE)), median(elapsed.get(Configuration.HIVE_WITHOUT_DYNAMIC_FILTERING)));
        System.err.printf(Locale.ROOT, "Q%d: Tarn %.3f s, Tarn without dynamic filtering %.3f s, Hive %.3f s, Hive without dynamic filtering %.3f s%n",
                query, timing.tarnSeconds(), timing.withoutDynamicFilteringSeconds(), timing.hiveSeconds(), timing.hiveWithoutDynamicFilteringSeconds());
        return timing;
    }

    static double geometricMean(List<Double> values)
    {
        double logSum = 0;
        for (double value : values) {
            logSum += Math.log(value);
        }
        return Math.exp(logSum / values.size());
    }

    private static Map<String, String> tarnCatalog(Path warehouse, Optional<String> dynamicFilteringWait)
    {
        Map<String, String> properties = new LinkedHashMap<>(TrinoServerConfig.tarnCatalog(warehouse));
        dynamicFilteringWait.ifPresent(wait -> properties.put("tarn.dynamic-filtering.wait-timeout", wait));
        return properties;
    }

    private static void write(Path results, String trinoVersion, Arguments arguments, List<Timing> timings, int hiveFiles, double loadSeconds)
            throws IOException
    {
        String schema = arguments.schema();
        int runs = arguments.runs();
        StringBuilder text = new StringBuilder();
        text.append("# TPC-H: the Tarn connector vs Trino's Hive connector, one real Trino ").append(trinoVersion).append(" server\n\n");
        text.append("Written by `./tarn bench tpch").append(schema.equals(DEFAULT_SCHEMA) ? "" : " " + schema).append("` on ").append(Instant.now())
                .append(String.format(Locale.ROOT, " (%d cores seen by the JVM, %.1f GiB of memory, %s, system load average %.1f at the end).%n%n",
                        Runtime.getRuntime().availableProcessors(), totalMemoryGib(), Runtime.version(), ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()));
        text.append("Data: the eight tables of schema `").append(schema).append("` of Trino's TPC-H generator (DECIMAL money, the specification's column names), ")
                .append("written by Tarn's writer through `CREATE TABLE AS`")
                .append(loadSeconds > 0 ? String.format(Locale.ROOT, " in %.0f s", loadSeconds) : " (in an earlier run)")
                .append("; the Hive catalog (`hive.metastore=file`, local file system) reads hard links of the same %d Parquet files. ".formatted(hiveFiles))
                .append("Every table of both catalogs was analyzed (`ANALYZE`) before the runs, so the cost-based optimizer had the same statistics for both. ")
                .append(arguments.dynamicFilteringWait().map(wait -> "The Tarn catalog sets `tarn.dynamic-filtering.wait-timeout=" + wait + "`. ").orElse(""))
                .append("Every query ran %d warm-up rounds in each configuration, then %d times in each, alternating; the table shows medians. ".formatted(arguments.warmupRounds(), runs))
                .append("All four configurations (Tarn and Hive, each with and without dynamic filtering) returned the same rows for every query. ")
                .append("A ratio above 1 means Tarn is faster, or dynamic filtering helps.\n\n");
        text.append("| query | rows | Tarn (s) | Tarn without DF (s) | Hive (s) | Hive without DF (s) | Hive / Tarn | Tarn without DF / with DF | Hive without DF / with DF | Tarn CPU (s) | Hive CPU (s) |\n"
                + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        List<Double> ratios = new ArrayList<>();
        List<String> behindHive = new ArrayList<>();
        List<String> slowerWithDynamicFiltering = new ArrayList<>();
        for (Timing timing : timings) {
            ratios.add(timing.hiveOverTarn());
            if (timing.hiveOverTarn() < 1.0) {
                behindHive.add("Q" + timing.query());
            }
            if (timing.withoutOverWithDynamicFiltering() < 1.0) {
                slowerWithDynamicFiltering.add("Q" + timing.query());
            }
            text.append(String.format(Locale.ROOT, "| Q%d | %d | %.3f | %.3f | %.3f | %.3f | %.2f | %.2f | %.2f | %.3f | %.3f |%n",
                    timing.query(), timing.rows(), timing.tarnSeconds(), timing.withoutDynamicFilteringSeconds(), timing.hiveSeconds(), timing.hiveWithoutDynamicFilteringSeconds(),
                    timing.hiveOverTarn(), timing.withoutOverWithDynamicFiltering(), timing.hiveWithoutOverWithDynamicFiltering(), timing.tarnCpuSeconds(), timing.hiveCpuSeconds()));
        }
        text.append(String.format(Locale.ROOT, "%nGeometric mean of Hive / Tarn%s: **%.2f** (target ≥ 1.5). ",
                arguments.subset() ? " over queries " + arguments.queries().stream().map(String::valueOf).collect(joining(", ")) + " only" : "", geometricMean(ratios)));
        text.append(behindHive.isEmpty() ? "Every query is at least as fast through Tarn as through Hive (target). "
                : "Slower through Tarn than through Hive (target: none): %s. ".formatted(String.join(", ", behindHive)));
        text.append(slowerWithDynamicFiltering.isEmpty() ? "No query is slower with dynamic filtering than without.\n"
                : "Slower with dynamic filtering than without (medians; the target is none, and differences of a few percent are within this machine's noise): %s.\n"
                        .formatted(String.join(", ", slowerWithDynamicFiltering)));
        text.append("\nSeconds are the elapsed time the JDBC client saw; CPU is the CPU time Trino reported for the query (all threads). ")
                .append("The query texts are in `demo/src/main/resources/io/tarn/demo/tpch/`.\n");
        Files.createDirectories(results.getParent());
        Files.writeString(results, text.toString());
    }

    private static double totalMemoryGib()
    {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean system) {
            return system.getTotalMemorySize() / (1024.0 * 1024 * 1024);
        }
        return Double.NaN;
    }
}
