package io.tarn.storage.scan;

import io.tarn.s3server.FaultInjectingProxy;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.catalog.Warehouse;
import io.tarn.storage.fs.FileIO;
import io.tarn.storage.fs.FileStatus;
import io.tarn.storage.fs.s3.S3Settings;
import io.tarn.storage.grammar.FilterParser;
import io.tarn.index.predicate.Predicate;
import io.tarn.storage.metrics.Counter;
import io.tarn.storage.read.ReadRequest;
import io.tarn.storage.schema.SchemaJson;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.snapshot.Snapshot;
import io.tarn.storage.source.TableRead;
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

import static java.nio.charset.StandardCharsets.UTF_8;
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
                // loading: the schema directory's listing (which also tells the table exists) and
                // the latest schema in it
                "LIST schema", 1L,
                "GET schema", 1L,
                // the current version: one listing of the snapshot and schema files (prefix
                // <table>/s), then the latest snapshot in it; the planner reuses it
                "LIST s", 1L,
                "GET snapshot", 1L,
                // the snapshot's base and delta manifest lists, and the three commits' manifests
                "GET manifest list", 2L,
                "GET manifest", 3L,
                // the index file of each data file the statistics keep
                "GET file index", 3L)));
        assertThat(loading).hasSize(12);

        // again with the table loaded and the manifests cached: the listing shows the same
        // snapshot file (by its ETag) and no newer schema, so nothing else is read but the index files
        proxy.clearRequestLog();
        plan = plan(table);
        assertThat(plan.files()).hasSize(3);
        List<String> again = proxy.requestLog();
        assertThat(byKind(again)).as(String.join("\n", again)).isEqualTo(new TreeMap<>(Map.of(
                "LIST s", 1L,
                "GET file index", 3L)));
        assertThat(again).hasSize(4);
    }

    /**
     * The one listing that finds the current version sees every change another writer makes: a
     * new snapshot, a snapshot file of the same id with other content (a rollback, then a commit
     * that created the id again), a new schema (ALTER TABLE, which adds no snapshot). On a copy
     * of the table, so that the other tests see the reference table unchanged.
     */
    @Test
    public void testListedVersionSeesEveryChange()
            throws IOException
    {
        Identifier copy = Identifier.parse(TABLE + "_changed");
        PaimonTable source = PaimonTable.load(warehouse.catalog(), Identifier.parse(TABLE), PaimonTable.MAIN_BRANCH);
        String target = warehouse.catalog().location(copy);
        FileIO fileIO = warehouse.fileIO();
        for (FileStatus file : fileIO.listFilesInOneRequest(source.location() + "/").orElseThrow()) {
            assertThat(file.path()).startsWith(source.location() + "/");
            fileIO.writeFile(target + file.path().substring(source.location().length()), fileIO.newInputFile(file.path()).readAllBytes(), false);
        }
        PaimonTable table = PaimonTable.load(warehouse.catalog(), copy, PaimonTable.MAIN_BRANCH);
        Snapshot first = table.latestVersion().snapshot().orElseThrow();
        long schemaId = table.schema().id();

        proxy.clearRequestLog();
        assertThat(table.latestVersion().snapshot().orElseThrow()).isEqualTo(first);
        assertThat(byKind(proxy.requestLog())).isEqualTo(new TreeMap<>(Map.of("LIST s", 1L)));

        // the same snapshot id, other content: as a rollback and a new commit leave it
        String snapshotPath = table.location() + "/snapshot/snapshot-" + first.id();
        String json = new String(fileIO.newInputFile(snapshotPath).readAllBytes(), UTF_8);
        assertThat(json).contains(first.commitUser());
        fileIO.writeFile(snapshotPath, json.replace(first.commitUser(), "another-writer").getBytes(UTF_8), true);
        proxy.clearRequestLog();
        Snapshot recreated = table.latestVersion().snapshot().orElseThrow();
        assertThat(recreated.id()).isEqualTo(first.id());
        assertThat(recreated.commitUser()).isEqualTo("another-writer");
        assertThat(byKind(proxy.requestLog())).isEqualTo(new TreeMap<>(Map.of("LIST s", 1L, "GET snapshot", 1L)));
        assertThat(table.pinnedSnapshot(first.id()).commitUser()).isEqualTo("another-writer");

        // a later snapshot
        String later = json.replaceFirst("\"id\"\\s*:\\s*" + first.id() + "\\b", "\"id\" : " + (first.id() + 1));
        assertThat(later).isNotEqualTo(json);
        fileIO.writeFile(table.location() + "/snapshot/snapshot-" + (first.id() + 1), later.getBytes(UTF_8), false);
        assertThat(table.latestVersion().snapshot().orElseThrow().id()).isEqualTo(first.id() + 1);
        // the latest snapshot alone (the CLI's and the C ABI's default version) comes from the listing too
        proxy.clearRequestLog();
        assertThat(table.snapshot(new ScanVersion.Latest()).orElseThrow().id()).isEqualTo(first.id() + 1);
        assertThat(byKind(proxy.requestLog())).isEqualTo(new TreeMap<>(Map.of("LIST s", 1L)));

        // a newer schema, without a snapshot
        assertThat(table.latestVersion().schema().id()).isEqualTo(schemaId);
        fileIO.writeFile(table.location() + "/schema/schema-" + (schemaId + 1), SchemaJson.toJsonBytes(table.schema().withId(schemaId + 1)), false);
        proxy.clearRequestLog();
        assertThat(table.latestVersion().schema().id()).isEqualTo(schemaId + 1);
        assertThat(byKind(proxy.requestLog())).isEqualTo(new TreeMap<>(Map.of("LIST s", 1L, "GET schema", 1L)));
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
     * Where the metadata files do not fit one listing request (or the store has no such
     * listing), the table's current version costs four requests: the {@code LATEST} hint, a
     * check for a later snapshot, the snapshot and a check for a newer schema. The checks that
     * do not depend on each other go side by side: the newer-schema check with the hint, the
     * later-snapshot check with the read of the hinted snapshot. With every answer held back, two
     * requests are in flight at once, and never only one.
     */
    @Test
    public void testLatestVersionSendsIndependentRequestsSideBySide()
            throws IOException
    {
        Warehouse unlisted = new Warehouse(warehouse.location(), new WithoutOneRequestListing(warehouse.fileIO()));
        PaimonTable table = PaimonTable.load(unlisted.catalog(), Identifier.parse(TABLE), PaimonTable.MAIN_BRANCH);
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
