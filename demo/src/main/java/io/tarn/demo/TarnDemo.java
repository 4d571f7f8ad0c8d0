package io.tarn.demo;

import io.tarn.s3server.S3ProxyServer;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ./tarn demo}: writes the sample warehouse with Tarn's writer (unless one is given), starts
 * a real Trino server with the Tarn plugin over it, runs the showcase queries with their timings
 * and what the connector skipped, and opens Trino's CLI.
 *
 * <pre>
 * ./tarn demo                      showcase, then the interactive CLI (the server stops when it exits)
 * ./tarn demo --query SQL          one statement, rows as the Trino CLI's CSV (no header); the server stays up
 * ./tarn demo --warehouse DIR      serve an existing Paimon warehouse instead of the sample
 * ./tarn demo --stop               stop a server left running
 * </pre>
 *
 * <p>State lives in the directory of system property {@value #STATE_PROPERTY}: {@code warehouse/}
 * (the sample), {@code server/} (the running server's etc/, plugin/, data/ and pid file). Without
 * {@code --interactive} (the script passes it only when stdin and stdout are terminals) nothing
 * waits for input: the showcase ends by stopping the server.
 */
public final class TarnDemo
{
    static final String STATE_PROPERTY = "tarn.demo.dir";
    static final String PLUGIN_PROPERTY = "tarn.plugin.dir";
    private static final String CATALOG = "tarn";
    private static final String DEMO_BUCKET = "tarn-demo";
    private static final Duration START_TIMEOUT = Duration.ofMinutes(4);
    private static final int SHOWN_ROWS = 12;
    private static final Pattern SCAN_NODE = Pattern.compile("(?:TableScan|ScanProject|ScanFilter|ScanFilterProject)\\[table = (tarn:[^,\\]]+)");
    private static final Pattern COUNTER = Pattern.compile("'([a-z_.]+)' = LongCount\\{total=([0-9]+)}");

    private final PrintStream out;
    private final PrintStream progress;

    private TarnDemo(PrintStream out, PrintStream progress)
    {
        this.out = out;
        this.progress = progress;
    }

    public static void main(String[] args)
    {
        int exitCode;
        try {
            exitCode = new TarnDemo(System.out, System.err).run(DemoOptions.parse(args));
        }
        catch (IllegalArgumentException e) {
            System.err.println("tarn demo: " + e.getMessage());
            System.err.println(DemoOptions.USAGE);
            exitCode = 2;
        }
        catch (IOException | SQLException e) {
            System.err.println("tarn demo: " + e.getMessage());
            exitCode = 1;
        }
        System.exit(exitCode);
    }

    private int run(DemoOptions options)
            throws IOException, SQLException
    {
        Path state = Path.of(requiredProperty(STATE_PROPERTY)).toAbsolutePath();
        Path serverDirectory = state.resolve("server");
        if (options.stop()) {
            Optional<TrinoServer> running = TrinoServer.running(serverDirectory);
            if (running.isEmpty()) {
                progress.println("No demo Trino server is running.");
                return 0;
            }
            running.get().stop();
            progress.println("Stopped Trino server pid " + running.get().pid() + ".");
            return 0;
        }

        TrinoInstallation installation = TrinoInstallation.fromSystemProperties();
        TpchLikeGenerator generator = new TpchLikeGenerator(options.orders(), TpchLikeGenerator.DEFAULT_SEED);
        if (options.cluster()) {
            return runCluster(installation, generator, state, options.interactive());
        }
        Path warehouse = options.warehouse().isPresent() ? options.warehouse().get() : DemoWarehouse.ensure(state.resolve("warehouse"), generator, progress::println);
        if (!Files.isDirectory(warehouse)) {
            throw new IOException("Warehouse directory does not exist: " + warehouse);
        }
        TrinoServer server = ensureServer(installation, serverDirectory, warehouse);
        TrinoCli cli = new TrinoCli(installation, server.uri(), CATALOG,
                options.warehouse().isEmpty() ? Optional.of(DemoWarehouse.DATABASE) : Optional.empty());

        if (options.query().isPresent()) {
            TrinoCli.Result result = cli.execute(options.query().get(), "CSV");
            out.print(result.output());
            out.flush();
            progress.print(result.errors().lines().filter(line -> !line.contains("jline") && !line.contains("dumb terminal")).map(line -> line + "\n").reduce("", String::concat));
            progress.println("(Trino stays up for the next --query; ./tarn demo --stop stops it)");
            return result.exitCode();
        }

        // from here on the server belongs to this session, also when it ends by Ctrl-C
        server.stopOnExit();
        if (options.warehouse().isEmpty()) {
            showcase(server, generator);
        }
        else {
            progress.println("Serving " + warehouse + " as catalog '" + CATALOG + "'.");
        }
        if (!options.interactive()) {
            progress.println("No terminal on stdin: stopping Trino instead of opening its CLI.");
            server.stop();
            return 0;
        }
        out.println();
        out.println("Opening Trino's CLI on catalog '" + CATALOG + "'" + (options.warehouse().isEmpty() ? ", schema '" + DemoWarehouse.DATABASE + "'" : "")
                + ". Try SHOW TABLES; DESCRIBE lineitem; SELECT * FROM \"lineitem$snapshots\"; quit with 'quit' or Ctrl-D.");
        try {
            cli.interactive();
        }
        finally {
            progress.println("Stopping Trino (pid " + server.pid() + ")...");
            server.stop();
        }
        return 0;
    }

    /**
     * The sample warehouse in a bucket of an S3-compatible server, a Trino coordinator and a
     * worker reading it, the showcase queries and where their tasks ran; everything stops at the end.
     */
    private int runCluster(TrinoInstallation installation, TpchLikeGenerator generator, Path state, boolean interactive)
            throws IOException, SQLException
    {
        Path warehouse = DemoWarehouse.ensure(state.resolve("warehouse"), generator, progress::println);
        Path clusterDirectory = state.resolve("cluster");
        TrinoServer.deleteRecursively(clusterDirectory.resolve("s3"));
        progress.println("Starting an S3-compatible server (S3Proxy) and uploading the sample warehouse into bucket '" + DEMO_BUCKET + "'...");
        try (S3ProxyServer objectStore = S3ProxyServer.start(Files.createDirectories(clusterDirectory.resolve("s3")))) {
            objectStore.bucket(DEMO_BUCKET);
            BucketUpload.upload(warehouse, "s3://" + DEMO_BUCKET + "/warehouse", objectStore.clientProperties());
            Map<String, String> catalog = new LinkedHashMap<>();
            catalog.put("connector.name", "tarn");
            catalog.put("warehouse", "s3://" + DEMO_BUCKET + "/warehouse");
            catalog.putAll(objectStore.clientProperties());
            progress.println("Starting a Trino " + installation.version() + " coordinator and a worker with the Tarn plugin, warehouse s3://" + DEMO_BUCKET + "/warehouse at " + objectStore.endpoint() + " (takes 30-90 s)...");
            TrinoCluster cluster = TrinoCluster.start(installation, TrinoServerConfig.in(clusterDirectory.resolve("coordinator"))
                    .withPlugin("tarn", pluginDirectory())
                    .withCatalog(CATALOG, catalog)
                    .withHeap("1G"), clusterDirectory.resolve("worker"), START_TIMEOUT);
            try {
                progress.println("Cluster is up: coordinator " + cluster.coordinator().uri() + ", worker " + cluster.worker().uri() + ", " + cluster.activeNodes() + " active nodes.");
                showcase(cluster.coordinator(), generator);
                out.println();
                out.println("== Tasks of the queries above, per node");
                try (Connection connection = cluster.coordinator().connect()) {
                    printTable(timed(connection, "SELECT n.node_id, n.http_uri, n.coordinator, count(t.task_id) AS tasks FROM system.runtime.nodes n " +
                            "LEFT JOIN system.runtime.tasks t ON t.node_id = n.node_id GROUP BY 1, 2, 3 ORDER BY 3 DESC"));
                }
                if (interactive) {
                    out.println();
                    out.println("Opening Trino's CLI on the coordinator, catalog '" + CATALOG + "', schema '" + DemoWarehouse.DATABASE + "'; quit with 'quit' or Ctrl-D.");
                    new TrinoCli(installation, cluster.coordinator().uri(), CATALOG, Optional.of(DemoWarehouse.DATABASE)).interactive();
                }
            }
            finally {
                progress.println("Stopping the cluster and the S3-compatible server...");
                cluster.stop();
            }
        }
        return 0;
    }

    private static Path pluginDirectory()
            throws IOException
    {
        Path plugin = Path.of(requiredProperty(PLUGIN_PROPERTY)).toAbsolutePath();
        if (!Files.isDirectory(plugin)) {
            throw new IOException("No Tarn plugin directory at " + plugin + ": package connector-trino first (./tarn demo does)");
        }
        return plugin;
    }

    private TrinoServer ensureServer(TrinoInstallation installation, Path serverDirectory, Path warehouse)
            throws IOException
    {
        Optional<TrinoServer> running = TrinoServer.running(serverDirectory);
        if (running.isPresent()) {
            if (servedWarehouse(serverDirectory).equals(Optional.of(warehouse.toAbsolutePath().toString()))) {
                progress.println("Using the Trino server already running (pid " + running.get().pid() + ", " + running.get().uri() + ").");
                return running.get();
            }
            progress.println("Stopping the Trino server that serves another warehouse (pid " + running.get().pid() + ")...");
            running.get().stop();
        }
        Path plugin = pluginDirectory();
        progress.println("Starting Trino " + installation.version() + " with the Tarn plugin (takes 20-60 s)...");
        long started = System.nanoTime();
        TrinoServer server = TrinoServer.start(installation, TrinoServerConfig.in(serverDirectory)
                .withPlugin("tarn", plugin)
                .withTarnCatalog(CATALOG, warehouse)
                .withHeap("2G"), START_TIMEOUT);
        progress.println("Trino is up in %.1f s: %s (pid %d, log %s)".formatted((System.nanoTime() - started) / 1e9, server.uri(), server.pid(), server.serverLog()));
        return server;
    }

    private static Optional<String> servedWarehouse(Path serverDirectory)
            throws IOException
    {
        Path catalog = serverDirectory.resolve("etc/catalog/" + CATALOG + ".properties");
        if (!Files.isRegularFile(catalog)) {
            return Optional.empty();
        }
        Properties properties = new Properties();
        try (var reader = Files.newBufferedReader(catalog)) {
            properties.load(reader);
        }
        return Optional.ofNullable(properties.getProperty("warehouse"));
    }

    private void showcase(TrinoServer server, TpchLikeGenerator generator)
            throws SQLException
    {
        try (Connection connection = server.connect()) {
            connection.setCatalog(CATALOG);
            connection.setSchema(DemoWarehouse.DATABASE);
            for (DemoQuery query : DemoQuery.showcase(generator)) {
                out.println();
                out.println("== " + query.title());
                out.println(indent(query.sql()));
                try {
                    // the first run pays for planning caches and JIT; the second is the one users see
                    timed(connection, query.sql());
                    long started = System.nanoTime();
                    List<List<String>> rows = timed(connection, query.sql());
                    double seconds = (System.nanoTime() - started) / 1e9;
                    printTable(rows);
                    out.printf(Locale.ROOT, "(%d row%s in %.3f s)%n", rows.size() - 1, rows.size() == 2 ? "" : "s", seconds);
                    if (query.explain()) {
                        printExplainExcerpt(connection, query.sql());
                    }
                }
                catch (SQLException e) {
                    out.println("FAILED: " + e.getMessage());
                }
            }
        }
    }

    private void printExplainExcerpt(Connection connection, String sql)
            throws SQLException
    {
        List<List<String>> plan = timed(connection, "EXPLAIN ANALYZE VERBOSE " + sql);
        StringBuilder text = new StringBuilder();
        for (List<String> row : plan.subList(1, plan.size())) {
            text.append(row.get(0)).append('\n');
        }
        explainExcerpt(text.toString()).forEach(out::println);
    }

    /**
     * The scan nodes of an {@code EXPLAIN ANALYZE VERBOSE} text over catalog {@code tarn}: the
     * node, its non-zero connector and split-generation counters, and its input line.
     */
    static List<String> explainExcerpt(String plan)
    {
        List<String> excerpt = new ArrayList<>();
        String[] lines = plan.split("\n");
        for (int i = 0; i < lines.length; i++) {
            Matcher node = SCAN_NODE.matcher(lines[i]);
            if (!node.find()) {
                continue;
            }
            excerpt.add("EXPLAIN ANALYZE VERBOSE, scan of " + node.group(1) + " (non-zero counters):");
            List<String> planning = new ArrayList<>();
            List<String> reading = new ArrayList<>();
            String input = null;
            for (int j = i + 1; j < lines.length && !SCAN_NODE.matcher(lines[j]).find() && !lines[j].contains("─ "); j++) {
                Matcher counter = COUNTER.matcher(lines[j]);
                if (counter.find() && !counter.group(2).equals("0")) {
                    String name = counter.group(1);
                    (name.startsWith("planning.") ? planning : reading).add(name.substring(name.indexOf('.') + 1) + "=" + counter.group(2));
                }
                else if (lines[j].strip().startsWith("Input:")) {
                    input = lines[j].strip();
                }
            }
            excerpt.add("    planning: " + String.join(" ", planning));
            excerpt.add("    reading:  " + String.join(" ", reading));
            if (input != null) {
                excerpt.add("    " + input);
            }
        }
        return excerpt;
    }

    // the header row first, then the rows, every value as text
    private static List<List<String>> timed(Connection connection, String sql)
            throws SQLException
    {
        try (Statement statement = connection.createStatement();
                ResultSet resultSet = statement.executeQuery(sql)) {
            ResultSetMetaData metadata = resultSet.getMetaData();
            List<List<String>> rows = new ArrayList<>();
            List<String> header = new ArrayList<>();
            for (int column = 1; column <= metadata.getColumnCount(); column++) {
                header.add(metadata.getColumnLabel(column));
            }
            rows.add(header);
            while (resultSet.next()) {
                List<String> row = new ArrayList<>();
                for (int column = 1; column <= metadata.getColumnCount(); column++) {
                    row.add(String.valueOf(resultSet.getString(column)));
                }
                rows.add(row);
            }
            return rows;
        }
    }

    private void printTable(List<List<String>> rows)
    {
        int columns = rows.get(0).size();
        int[] widths = new int[columns];
        List<List<String>> shown = rows.subList(0, Math.min(rows.size(), SHOWN_ROWS + 1));
        for (List<String> row : shown) {
            for (int column = 0; column < columns; column++) {
                widths[column] = Math.max(widths[column], row.get(column).length());
            }
        }
        for (int i = 0; i < shown.size(); i++) {
            StringBuilder line = new StringBuilder(" ");
            for (int column = 0; column < columns; column++) {
                line.append(' ').append(String.format(Locale.ROOT, "%-" + widths[column] + "s", shown.get(i).get(column))).append(" |");
            }
            out.println(line.substring(0, line.length() - 2));
            if (i == 0) {
                StringBuilder rule = new StringBuilder(" ");
                for (int width : widths) {
                    rule.append('-').append("-".repeat(width)).append("-+");
                }
                out.println(rule.substring(0, rule.length() - 2));
            }
        }
        if (rows.size() > shown.size()) {
            out.println("  ... " + (rows.size() - shown.size()) + " more rows");
        }
    }

    private static String indent(String sql)
    {
        return sql.lines().map(line -> "    " + line).reduce((left, right) -> left + "\n" + right).orElse("");
    }

    private static String requiredProperty(String name)
            throws IOException
    {
        String value = System.getProperty(name);
        if (value == null || value.isBlank()) {
            throw new IOException("System property " + name + " is not set: run the demo through ./tarn demo");
        }
        return value;
    }
}
