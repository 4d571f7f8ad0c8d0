package io.tarn.storage.scan;

import io.tarn.s3server.FaultInjectingProxy;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.catalog.Warehouse;
import io.tarn.storage.fs.s3.S3Settings;
import io.tarn.storage.grammar.FilterParser;
import io.tarn.index.predicate.Predicate;
import io.tarn.storage.metrics.Counter;
import io.tarn.storage.read.ReadRequest;
import io.tarn.storage.read.TableRead;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.ObjectStoreLake;
import io.tarn.testing.ReferenceTables;
import org.apache.arrow.memory.RootAllocator;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The requests that planning a selective query of a small table sends to an object store, by
 * the kind of file each asks for, as a proxy in front of the store (S3Proxy on 127.0.0.1) saw
 * them. The table has three data files, one per commit, each with a {@code .index} file (Bloom
 * filters on {@code id} and {@code name}, a bitmap on {@code category}).
 */
public class TestObjectStorePlanningRequests
{
    private static final String TABLE = ReferenceTables.APPEND_FILE_INDEX_FILES.identifier();
    // one id in each of the three files (ids are commit * 1000 + 0..49): statistics keep every file
    private static final String FILTER = "id IN (10, 1010, 2010)";

    private ObjectStoreLake lake;
    private FaultInjectingProxy proxy;
    // data files read in pieces (no small-object threshold): index files are worth a request
    private Warehouse warehouse;
    // the default threshold: the few-kB data files come whole in one request each
    private Warehouse wholeFiles;

    @BeforeClass
    public void setUp()
            throws IOException
    {
        lake = ObjectStoreLake.create("tarn-planning-requests", List.of(ReferenceTables.APPEND_FILE_INDEX_FILES));
        proxy = FaultInjectingProxy.start(lake.server().endpoint());
        Map<String, String> properties = new HashMap<>(proxy.clientProperties(lake.clientProperties()));
        wholeFiles = Warehouse.open(lake.location(), properties);
        properties.put(S3Settings.SMALL_OBJECT_THRESHOLD, "0B");
        warehouse = Warehouse.open(lake.location(), properties);
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
            throws Exception
    {
        if (warehouse != null) {
            ((AutoCloseable) warehouse.fileIO()).close();
            warehouse = null;
        }
        if (wholeFiles != null) {
            ((AutoCloseable) wholeFiles.fileIO()).close();
            wholeFiles = null;
        }
        if (proxy != null) {
            proxy.close();
            proxy = null;
        }
        if (lake != null) {
            lake.close();
            lake = null;
        }
    }

    @Test
    public void testPlanningRequests()
            throws IOException
    {
        proxy.clearRequestLog();
        PaimonTable table = PaimonTable.load(warehouse.catalog(), Identifier.parse(TABLE), PaimonTable.MAIN_BRANCH);
        ScanPlan plan = plan(table);
        assertThat(plan.files()).hasSize(3);
        assertThat(plan.metrics().get(Counter.INDEX_FILES_READ)).isEqualTo(3);
        List<String> loading = proxy.requestLog();
        assertThat(byKind(loading)).as(String.join("\n", loading)).isEqualTo(new TreeMap<>(Map.of(
                // loading: the schema directory's listing (which also tells the table exists), the
                // latest schema in it; then the check that no newer schema exists since
                "LIST schema", 1L,
                "GET schema", 1L,
                "HEAD schema", 1L,
                // the latest snapshot: the LATEST hint, a HEAD that finds no later snapshot, then
                // the snapshot the hint names (whose read proves it exists); the planner reuses it
                "GET LATEST", 1L,
                "HEAD snapshot", 1L,
                "GET snapshot", 1L,
                // the snapshot's base and delta manifest lists, and the three commits' manifests
                "GET manifest list", 2L,
                "GET manifest", 3L,
                // the index file of each data file the statistics keep
                "GET file index", 3L)));
        assertThat(loading).hasSize(14);

        // again with the table loaded and the manifests cached: the snapshot and the schema are
        // checked for newer ones, the index files read again
        proxy.clearRequestLog();
        plan = plan(table);
        assertThat(plan.files()).hasSize(3);
        List<String> again = proxy.requestLog();
        assertThat(byKind(again)).as(String.join("\n", again)).isEqualTo(new TreeMap<>(Map.of(
                "GET LATEST", 1L,
                "HEAD snapshot", 1L,
                "GET snapshot", 1L,
                // no schema file of the next id: the schema read before is still the latest
                "HEAD schema", 1L,
                "GET file index", 3L)));
        assertThat(again).hasSize(7);
    }

    /**
     * Each data file, of a few kB, is fetched whole by one request, however its rows are read
     * (filter columns first and the other columns of the matching rows after, or all at once);
     * its index file is not read, since it could save at most that one request: at planning
     * neither, so every data file becomes a split and its rows are tested.
     */
    @Test(dataProvider = "dataFilters")
    public void testEveryDataFileIsOneRequest(String filter)
            throws IOException
    {
        PaimonTable table = PaimonTable.load(wholeFiles.catalog(), Identifier.parse(TABLE), PaimonTable.MAIN_BRANCH);
        Predicate predicate = FilterParser.parse(filter, table.schema().rowType());
        table.snapshot(new ScanVersion.Latest());
        proxy.clearRequestLog();
        ScanPlan plan = new ScanPlanner(table).withFilter(predicate).withIndexFiles(100).plan(table.snapshot(new ScanVersion.Latest()));
        assertThat(plan.files()).hasSize(3);
        assertThat(byKind(proxy.requestLog())).doesNotContainKey("GET file index");
        proxy.clearRequestLog();
        long[] rows = new long[1];
        try (RootAllocator allocator = new RootAllocator()) {
            TableRead.forEachBatch(table, plan, ReadRequest.of(plan.readSchema().fields()).withFilter(predicate), allocator, batch -> rows[0] += batch.getRowCount());
        }
        List<String> reads = proxy.requestLog();
        assertThat(rows[0]).isPositive();
        assertThat(byKind(reads)).as(String.join("\n", reads)).isEqualTo(new TreeMap<>(Map.of("GET data file", 3L)));
    }

    @DataProvider
    public Object[][] dataFilters()
    {
        return new Object[][] {{FILTER}, {"v > 5"}, {"name <> 'x'"}};
    }

    /**
     * Data files read in pieces: a file's index file is read only when the table indexes a
     * column the filter reads.
     */
    @Test(dataProvider = "indexedFilters")
    public void testIndexFilesOnlyForIndexedColumns(String filter, long indexFilesRead)
            throws IOException
    {
        PaimonTable table = PaimonTable.load(warehouse.catalog(), Identifier.parse(TABLE), PaimonTable.MAIN_BRANCH);
        Predicate predicate = FilterParser.parse(filter, table.schema().rowType());
        ScanPlan plan = new ScanPlanner(table).withFilter(predicate).withoutFileIndexes().plan(table.snapshot(new ScanVersion.Latest()));
        proxy.clearRequestLog();
        try (RootAllocator allocator = new RootAllocator()) {
            TableRead.forEachBatch(table, plan, ReadRequest.of(plan.readSchema().fields()).withFilter(predicate), allocator, batch -> {});
        }
        List<String> reads = proxy.requestLog();
        assertThat(byKind(reads).getOrDefault("GET file index", 0L)).as(String.join("\n", reads)).isEqualTo(indexFilesRead);
    }

    @DataProvider
    public Object[][] indexedFilters()
    {
        return new Object[][] {
                // v has no index
                {"v > 5", 0L},
                {"v >= 0 AND v < 1000000", 0L},
                // name has a Bloom filter, which a <> cannot use, but the reader looks (its evaluator decides)
                {"name <> 'x'", 3L},
        };
    }

    /**
     * The table's current version costs the four requests of {@link #testPlanningRequests}, but
     * the checks that do not depend on each other go side by side: the newer-schema check with
     * the {@code LATEST} hint, the later-snapshot check with the read of the hinted snapshot. With
     * every answer held back, two requests are in flight at once, and never only one.
     */
    @Test
    public void testLatestVersionSendsIndependentRequestsSideBySide()
            throws IOException
    {
        PaimonTable table = PaimonTable.load(warehouse.catalog(), Identifier.parse(TABLE), PaimonTable.MAIN_BRANCH);
        PaimonTable.LatestVersion expected = table.latestVersion();
        proxy.setLatency(Duration.ofMillis(400));
        try {
            proxy.clearRequestLog();
            PaimonTable.LatestVersion latest = table.latestVersion();
            List<String> requests = proxy.requestLog();
            assertThat(byKind(requests)).as(String.join("\n", requests)).isEqualTo(new TreeMap<>(Map.of(
                    "GET LATEST", 1L,
                    "HEAD snapshot", 1L,
                    "GET snapshot", 1L,
                    "HEAD schema", 1L)));
            assertThat(proxy.mostRequestsInFlight()).isGreaterThanOrEqualTo(2);
            assertThat(latest.snapshot().orElseThrow().id()).isEqualTo(expected.snapshot().orElseThrow().id());
            assertThat(latest.schema().id()).isEqualTo(expected.schema().id());
        }
        finally {
            proxy.setLatency(Duration.ZERO);
        }
    }

    private static ScanPlan plan(PaimonTable table)
            throws IOException
    {
        // as Trino's connector does: the table handle pins the latest snapshot and schema, then
        // the split source plans with the pinned snapshot, read by id without another request
        long snapshotId = table.latestVersion().snapshot().orElseThrow().id();
        return new ScanPlanner(table)
                .withFilter(FilterParser.parse(FILTER, table.schema().rowType()))
                .withIndexFiles(100)
                .plan(Optional.of(table.pinnedSnapshot(snapshotId)));
    }

    private static TreeMap<String, Long> byKind(List<String> requests)
    {
        TreeMap<String, Long> counts = new TreeMap<>();
        for (String request : requests) {
            counts.merge(kind(request), 1L, Long::sum);
        }
        return counts;
    }

    /**
     * The kind of file a request ({@code METHOD /bucket/key} or a listing
     * {@code GET /bucket?...prefix=key/...}) is about: a listing by the directory it lists, an
     * object by its file name.
     */
    private static String kind(String request)
    {
        String method = request.substring(0, request.indexOf(' '));
        String target = request.substring(request.indexOf(' ') + 1);
        int query = target.indexOf('?');
        if (query >= 0 && target.contains("prefix=")) {
            String prefix = target.substring(target.indexOf("prefix=") + "prefix=".length());
            prefix = prefix.contains("&") ? prefix.substring(0, prefix.indexOf('&')) : prefix;
            prefix = prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
            return "LIST " + prefix.substring(prefix.lastIndexOf('/') + 1);
        }
        String path = query >= 0 ? target.substring(0, query) : target;
        String name = path.substring(path.lastIndexOf('/') + 1);
        String file;
        if (name.equals("LATEST") || name.equals("EARLIEST")) {
            file = name;
        }
        else if (name.startsWith("snapshot-")) {
            file = "snapshot";
        }
        else if (name.startsWith("schema-")) {
            file = "schema";
        }
        else if (name.startsWith("manifest-list-")) {
            file = "manifest list";
        }
        else if (name.startsWith("index-manifest-")) {
            file = "index manifest";
        }
        else if (name.startsWith("manifest-")) {
            file = "manifest";
        }
        else if (name.endsWith(".index")) {
            file = "file index";
        }
        else if (name.startsWith("index-")) {
            file = "deletion vectors";
        }
        else if (name.startsWith("data-")) {
            file = "data file";
        }
        else {
            file = name;
        }
        return method + " " + file;
    }
}
