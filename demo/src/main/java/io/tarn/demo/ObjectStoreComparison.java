package io.tarn.demo;

import io.tarn.s3server.FaultInjectingProxy;
import io.tarn.s3server.S3ProxyServer;
import io.tarn.storage.catalog.Identifier;

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

import static io.tarn.demo.TrinoQueries.execute;
import static io.tarn.demo.TrinoQueries.median;
import static io.tarn.demo.TrinoQueries.profilingOptions;
import static io.tarn.demo.TrinoQueries.requiredProperty;
import static io.tarn.demo.TrinoQueries.rows;
import static io.tarn.demo.TrinoQueries.timed;
import static java.util.Objects.requireNonNull;

/**
 * {@code ./tarn bench s3}: the data of {@code ./tarn bench trino} on an S3-compatible store
 * (S3Proxy) behind a {@link FaultInjectingProxy} that holds back the first byte of every answer
 * (20 ms by default, as S3 does) and counts requests and answered bytes. One real Trino server
 * has four catalogs: Tarn and Trino's Hive connector ({@code hive.metastore=file}, Trino's native
 * S3 file system) on the object store, and both again on the local files. Every query first runs
 * {@value #WARMUP_ROUNDS} rounds on all four, then {@code runs} times on each, alternating; for
 * the object-store catalogs the proxy's counters are read around every run. Medians go to
 * {@code benchmarks/results/s3.md}, with a chart in {@code s3.svg}. Tarn and Hive must return
 * the same rows on the store and locally.
 * <p>
 * Arguments: {@code [ORDERS [RUNS]] [--latency MILLISECONDS]}.
 */
public final class ObjectStoreComparison
{
    private static final String BUCKET = "bench";
    private static final int DEFAULT_RUNS = 5;
    private static final int WARMUP_ROUNDS = 2;
    private static final Duration DEFAULT_LATENCY = Duration.ofMillis(20);
    // catalog names: Tarn and Hive on the object store, and on the local files
    private static final String TARN_S3 = "tarn_s3";
    private static final String HIVE_S3 = "hive_s3";
    private static final String TARN_LOCAL = "tarn";
    private static final String HIVE_LOCAL = "hive";
    private static final List<String> CATALOGS = List.of(TARN_S3, HIVE_S3, TARN_LOCAL, HIVE_LOCAL);
    private static final DemoQuery SCAN = new DemoQuery("Scan table: sums over seven columns of all of lineitem", """
            SELECT count(*) AS items, sum(l_quantity) AS quantity, sum(l_extendedprice) AS price,
                   sum(l_discount) AS discount, sum(l_tax) AS tax,
                   max(l_shipdate) AS last_ship, max(l_receiptdate) AS last_receipt
            FROM lineitem""", false);

    private ObjectStoreComparison() {}

    /**
     * The medians of one query on one catalog: elapsed and CPU seconds, and for an object-store
     * catalog the requests and answered bytes the proxy saw.
     */
    private record Measure(double seconds, double cpuSeconds, long requests, long bytes) {}

    private record Timing(DemoQuery query, int rows, Map<String, Measure> measures)
    {
        Timing
        {
            requireNonNull(query, "query is null");
            measures = Map.copyOf(measures);
        }

        Measure of(String catalog)
        {
            return measures.get(catalog);
        }
    }

    public static void main(String[] args)
            throws Exception
    {
        List<String> positional = new ArrayList<>();
        Duration latency = DEFAULT_LATENCY;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--latency") && i + 1 < args.length) {
                latency = Duration.ofMillis(Long.parseLong(args[++i]));
            }
            else if (args[i].startsWith("--latency=")) {
                latency = Duration.ofMillis(Long.parseLong(args[i].substring("--latency=".length())));
            }
            else {
                positional.add(args[i]);
            }
        }
        int orders = positional.size() > 0 ? Integer.parseInt(positional.get(0)) : TrinoComparison.DEFAULT_ORDERS;
        int runs = positional.size() > 1 ? Integer.parseInt(positional.get(1)) : DEFAULT_RUNS;
        Path state = Path.of(requiredProperty(TarnDemo.STATE_PROPERTY)).toAbsolutePath().resolve("bench");
        Path results = Path.of(requiredProperty(TrinoComparison.RESULTS_PROPERTY)).toAbsolutePath();
        Path tarnPlugin = Path.of(requiredProperty(TarnDemo.PLUGIN_PROPERTY));
        Path hivePlugin = Path.of(requiredProperty(TrinoComparison.HIVE_PLUGIN_PROPERTY));

        TpchLikeGenerator generator = new TpchLikeGenerator(orders, TpchLikeGenerator.DEFAULT_SEED);
        Path warehouse = DemoWarehouse.ensure(state.resolve("warehouse-" + orders), generator, System.err::println);
        Path hiveRoot = state.resolve("hive");
        TrinoComparison.resetHiveMetastore(hiveRoot);
        int hiveFiles = TrinoComparison.hiveLayout(warehouse, hiveRoot, TrinoComparison.HIVE_TABLES);
        // the S3 Hive catalog keeps its file metastore on the local disk, as a metastore service
        // would keep it off the store: the proxy counts the data reads only
        Path hiveS3Root = state.resolve("hive-s3");
        TrinoComparison.resetHiveMetastore(hiveS3Root);

        Path storeDirectory = state.resolve("s3");
        TrinoServer.deleteRecursively(storeDirectory);
        System.err.println("Starting S3Proxy and uploading the warehouse and its Hive layout into bucket '" + BUCKET + "'...");
        try (S3ProxyServer store = S3ProxyServer.start(Files.createDirectories(storeDirectory));
                FaultInjectingProxy proxy = FaultInjectingProxy.start(store.endpoint())) {
            store.bucket(BUCKET);
            long dataBytes = BucketUpload.upload(warehouse, "s3://" + BUCKET + "/warehouse", store.clientProperties());
            for (Identifier table : TrinoComparison.HIVE_TABLES) {
                BucketUpload.upload(hiveRoot.resolve(table.table()), "s3://" + BUCKET + "/hive/" + table.table(), store.clientProperties());
            }
            proxy.setLatency(latency);
            Map<String, String> s3Properties = proxy.clientProperties(store.clientProperties());

            Map<String, String> tarnS3 = new LinkedHashMap<>();
            tarnS3.put("connector.name", "tarn");
            tarnS3.put("warehouse", "s3://" + BUCKET + "/warehouse");
            tarnS3.putAll(s3Properties);
            Map<String, String> hiveS3 = new LinkedHashMap<>(TrinoComparison.hiveCatalog(hiveS3Root));
            hiveS3.put("fs.native-s3.enabled", "true");
            hiveS3.putAll(s3Properties);

            TrinoInstallation installation = TrinoInstallation.fromSystemProperties();
            String trinoVersion = installation.version();
            System.err.println("Starting Trino " + trinoVersion + " with Tarn and Hive catalogs on S3 (through the proxy, " + latency.toMillis() + " ms first-byte latency) and on local files...");
            TrinoServer server = TrinoServer.start(installation, TrinoServerConfig.in(state.resolve("server"))
                            .withPlugin("tarn", tarnPlugin)
                            .withPlugin("hive", hivePlugin)
                            .withTarnCatalog(TARN_LOCAL, warehouse)
                            .withCatalog(HIVE_LOCAL, TrinoComparison.hiveCatalog(hiveRoot))
                            .withCatalog(TARN_S3, tarnS3)
                            .withCatalog(HIVE_S3, hiveS3)
                            .withHeap("3G")
                            .withJvmOptions(profilingOptions()),
                    Duration.ofMinutes(4)).stopOnExit();
            List<Timing> timings = new ArrayList<>();
            try (Connection connection = server.connect()) {
                TrinoComparison.createHiveTables(connection, HIVE_LOCAL, "local:///");
                TrinoComparison.createHiveTables(connection, HIVE_S3, "s3://" + BUCKET + "/hive/");
                List<DemoQuery> queries = new ArrayList<>();
                queries.add(SCAN);
                DemoQuery.showcase(generator).stream()
                        // time travel has no Hive counterpart
                        .filter(query -> !query.sql().contains("FOR VERSION"))
                        .forEach(queries::add);
                System.err.printf("Warming up: %d rounds of every query on the four catalogs...%n", WARMUP_ROUNDS);
                for (int round = 0; round < WARMUP_ROUNDS; round++) {
                    for (DemoQuery query : queries) {
                        for (String catalog : CATALOGS) {
                            execute(connection, "USE " + catalog + ".tpch");
                            timed(connection, query.sql());
                        }
                    }
                }
                for (DemoQuery query : queries) {
                    timings.add(measure(connection, proxy, query, runs));
                }
            }
            finally {
                server.stop();
            }
            Files.writeString(results.resolveSibling("s3.svg"), svg(timings));
            write(results, trinoVersion, timings, generator, hiveFiles, dataBytes, latency, runs);
            System.err.println("Results: " + results);
        }
    }

    private static void measureRun(Connection connection, FaultInjectingProxy proxy, String catalog, String sql, double[] seconds, double[] cpu, long[] requests, long[] bytes, int run)
            throws SQLException
    {
        execute(connection, "USE " + catalog + ".tpch");
        long requestsBefore = proxy.requestCount();
        long bytesBefore = proxy.answeredBytes();
        proxy.clearRequestLog();
        double[] timing = timed(connection, sql);
        seconds[run] = timing[0];
        cpu[run] = timing[1];
        requests[run] = proxy.requestCount() - requestsBefore;
        bytes[run] = proxy.answeredBytes() - bytesBefore;
        // TARN_BENCH_REQUESTS=1: every request of each measured run, to see where a count comes from
        if ("1".equals(System.getenv("TARN_BENCH_REQUESTS"))) {
            System.err.printf("%s run %s, %s requests:%n  %s%n", catalog, run, requests[run], String.join("\n  ", proxy.requestLog()));
        }
    }

    private static Timing measure(Connection connection, FaultInjectingProxy proxy, DemoQuery query, int runs)
            throws SQLException
    {
        List<String> expected = null;
        for (String catalog : CATALOGS) {
            execute(connection, "USE " + catalog + ".tpch");
            List<String> rows = rows(connection, query.sql());
            if (expected == null) {
                expected = rows;
            }
            else if (!rows.equals(expected)) {
                throw new IllegalStateException("Catalogs %s and %s disagree on %s:%n%s: %s%n%s: %s".formatted(
                        CATALOGS.get(0), catalog, query.title(), CATALOGS.get(0), expected, catalog, rows));
            }
        }
        Map<String, double[]> seconds = new LinkedHashMap<>();
        Map<String, double[]> cpu = new LinkedHashMap<>();
        Map<String, long[]> requests = new LinkedHashMap<>();
        Map<String, long[]> bytes = new LinkedHashMap<>();
        for (String catalog : CATALOGS) {
            seconds.put(catalog, new double[runs]);
            cpu.put(catalog, new double[runs]);
            requests.put(catalog, new long[runs]);
            bytes.put(catalog, new long[runs]);
        }
        for (int run = 0; run < runs; run++) {
            for (String catalog : CATALOGS) {
                measureRun(connection, proxy, catalog, query.sql(), seconds.get(catalog), cpu.get(catalog), requests.get(catalog), bytes.get(catalog), run);
            }
        }
        Map<String, Measure> measures = new LinkedHashMap<>();
        for (String catalog : CATALOGS) {
            measures.put(catalog, new Measure(median(seconds.get(catalog)), median(cpu.get(catalog)), medianCount(requests.get(catalog)), medianCount(bytes.get(catalog))));
        }
        Timing timing = new Timing(query, expected.size(), measures);
        Measure tarn = timing.of(TARN_S3);
        Measure hive = timing.of(HIVE_S3);
        System.err.printf(Locale.ROOT, "%s: on S3 Tarn %.3f s, %d requests, %,d bytes; Hive %.3f s, %d requests, %,d bytes; locally Tarn %.3f s, Hive %.3f s%n",
                query.title(), tarn.seconds(), tarn.requests(), tarn.bytes(), hive.seconds(), hive.requests(), hive.bytes(),
                timing.of(TARN_LOCAL).seconds(), timing.of(HIVE_LOCAL).seconds());
        return timing;
    }

    private static long medianCount(long[] values)
    {
        double[] asDoubles = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            asDoubles[i] = values[i];
        }
        return Math.round(median(asDoubles));
    }

    private static boolean selective(DemoQuery query)
    {
        return query != SCAN && !query.title().startsWith("TPC-H Q1");
    }

    private static void write(Path results, String trinoVersion, List<Timing> timings, TpchLikeGenerator generator, int hiveFiles, long dataBytes, Duration latency, int runs)
            throws IOException
    {
        StringBuilder text = new StringBuilder();
        text.append("# Tarn vs Trino's Hive connector on an object store (S3 API), one real Trino ").append(trinoVersion).append(" server\n\n");
        text.append("Written by `./tarn bench s3` on ").append(Instant.now()).append(" (")
                .append(Runtime.getRuntime().availableProcessors()).append(" cores seen by the JVM, system load average ")
                .append(String.format(Locale.ROOT, "%.1f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()))
                .append(" at the end: other work shared the machine, so compare the ratios and the request counts, not the seconds).\n\n");
        text.append("Data: the demo's TPC-H-like tables written by Tarn, %,d orders and their line items (%,d MB in the warehouse); `lineitem` partitioned by `l_shipyear`; "
                        .formatted(generator.orderCount(), dataBytes / 1_000_000))
                .append("%d Parquet data files read by Hive, the same files Tarn reads. ".formatted(hiveFiles))
                .append("The store: S3Proxy (filesystem backend) on this machine, behind a proxy that holds back the first byte of every answer by %d ms, as S3 does, and counts requests and answered body bytes. "
                        .formatted(latency.toMillis()))
                .append("Catalogs: Tarn with `warehouse=s3://%s/warehouse`; Hive with `hive.metastore=file` (the metastore on local disk, off the store, as a metastore service would be), `fs.native-s3.enabled=true` (Trino's file system layer) and `external_location = 's3://%s/hive/...'`; both again on the local files. "
                        .formatted(BUCKET, BUCKET))
                .append("Both connectors use their default caches (Tarn: table metadata for 1 minute, decoded manifests; Hive with a file metastore: none), which is what a query pays in each. ")
                .append("Every query first ran %d rounds on all four catalogs, then %d times on each, alternating; the tables show medians (requests and bytes per query too). ".formatted(WARMUP_ROUNDS, runs))
                .append("All four catalogs returned the same rows for every query.\n\n");
        text.append("Targets: no more requests than Hive on any query; elapsed time on S3 at least 1.0× Hive's on scans (the scan table, Q1) and at least 2× on selective queries.\n\n");
        text.append("![Hive / Tarn on S3](s3.svg)\n\n");
        text.append("| query | rows | Tarn requests | Hive requests | Tarn MB | Hive MB | Tarn s | Hive s | Hive / Tarn elapsed | Tarn CPU s | Hive CPU s | Hive / Tarn CPU | Tarn S3 / local | Hive S3 / local | target met |\n"
                + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (Timing timing : timings) {
            Measure tarn = timing.of(TARN_S3);
            Measure hive = timing.of(HIVE_S3);
            double ratio = hive.seconds() / tarn.seconds();
            boolean met = tarn.requests() <= hive.requests() && ratio >= (selective(timing.query()) ? 2.0 : 1.0);
            text.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %.1f | %.1f | %.3f | %.3f | %.2f | %.3f | %.3f | %.2f | %.2f | %.2f | %s |%n",
                    shortTitle(timing.query()), timing.rows(), tarn.requests(), hive.requests(), tarn.bytes() / 1e6, hive.bytes() / 1e6,
                    tarn.seconds(), hive.seconds(), ratio, tarn.cpuSeconds(), hive.cpuSeconds(), hive.cpuSeconds() / Math.max(tarn.cpuSeconds(), 0.001),
                    tarn.seconds() / timing.of(TARN_LOCAL).seconds(), hive.seconds() / timing.of(HIVE_LOCAL).seconds(), met ? "yes" : "no"));
        }
        text.append("\nLocal medians (the same server, the same files on local disk):\n\n| query | Tarn s | Hive s | Hive / Tarn | Tarn CPU s | Hive CPU s |\n|---|---:|---:|---:|---:|---:|\n");
        for (Timing timing : timings) {
            Measure tarn = timing.of(TARN_LOCAL);
            Measure hive = timing.of(HIVE_LOCAL);
            text.append(String.format(Locale.ROOT, "| %s | %.3f | %.3f | %.2f | %.3f | %.3f |%n",
                    shortTitle(timing.query()), tarn.seconds(), hive.seconds(), hive.seconds() / tarn.seconds(), tarn.cpuSeconds(), hive.cpuSeconds()));
        }
        text.append("\nSeconds are the elapsed time the JDBC client saw; CPU is the CPU time Trino reported for the query (all threads). ")
                .append("Requests are every HTTP request the proxy received during the query (GET of ranges and listings, HEAD), bytes the answers' bodies. ")
                .append("A ratio Hive / Tarn above 1 means Tarn is faster; S3 / local is each connector's own cost of the object store.\n");
        text.append("\nQueries:\n");
        for (Timing timing : timings) {
            text.append("\n").append(timing.query().title()).append(":\n\n```sql\n").append(timing.query().sql()).append("\n```\n");
        }
        Files.createDirectories(results.getParent());
        Files.writeString(results, text.toString());
    }

    private static String shortTitle(DemoQuery query)
    {
        String title = query.title();
        int colon = title.indexOf(':');
        int parenthesis = title.indexOf(" (");
        int end = colon > 0 ? colon : parenthesis > 0 ? parenthesis : title.length();
        return title.substring(0, end);
    }

    /**
     * Grouped horizontal bars per query: Hive / Tarn on S3 for elapsed time, CPU time and requests,
     * with the line at 1 (above it Tarn does better).
     */
    static String svg(List<Timing> timings)
    {
        String[] series = {"elapsed", "CPU", "requests"};
        String[] colors = {"#4e79a7", "#f28e2b", "#59a14f"};
        int barHeight = 14;
        int groupHeight = barHeight * series.length + 16;
        int left = 170;
        int plotWidth = 420;
        int top = 50;
        int width = left + plotWidth + 40;
        int height = top + groupHeight * timings.size() + 40;
        double max = 1.0;
        List<double[]> ratios = new ArrayList<>();
        for (Timing timing : timings) {
            Measure tarn = timing.of(TARN_S3);
            Measure hive = timing.of(HIVE_S3);
            double[] values = {
                    hive.seconds() / tarn.seconds(),
                    hive.cpuSeconds() / Math.max(tarn.cpuSeconds(), 0.001),
                    (double) hive.requests() / Math.max(tarn.requests(), 1)};
            ratios.add(values);
            for (double value : values) {
                max = Math.max(max, value);
            }
        }
        double scale = plotWidth / Math.ceil(max);
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n", width, height, width, height));
        out.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"20\" font-size=\"14\">Hive / Tarn on S3 (%s; above 1: Tarn better)</text>%n", left, String.join(", ", series)));
        for (int i = 0; i < series.length; i++) {
            out.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>%n",
                    left + i * 90, 28, colors[i], left + i * 90 + 14, 38, series[i]));
        }
        for (int t = 0; t < timings.size(); t++) {
            int y = top + t * groupHeight;
            out.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n", left - 6, y + groupHeight / 2, escape(shortTitle(timings.get(t).query()))));
            double[] values = ratios.get(t);
            for (int s = 0; s < series.length; s++) {
                int barY = y + s * barHeight;
                int barWidth = (int) Math.round(values[s] * scale);
                out.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/><text x=\"%d\" y=\"%d\" font-size=\"10\">%.2f×</text>%n",
                        left, barY, barWidth, barHeight - 2, colors[s], left + barWidth + 3, barY + barHeight - 4, values[s]));
            }
        }
        int one = left + (int) Math.round(scale);
        out.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\" stroke-dasharray=\"4 3\"/>%n", one, top - 6, one, height - 30));
        out.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">1×</text>%n", one, height - 16));
        out.append("</svg>\n");
        return out.toString();
    }

    private static String escape(String text)
    {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
