package io.tarn.trino;

import io.tarn.testing.CanonicalRows;
import io.tarn.testing.ObjectStoreLake;
import io.tarn.testing.PaimonOnS3;
import io.tarn.testing.ReferenceFilter;
import io.tarn.testing.ReferenceFilters;
import io.tarn.testing.ReferenceScan;
import io.tarn.testing.ReferenceSnapshot;
import io.tarn.testing.ReferenceTable;
import io.tarn.testing.ReferenceTables;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.predicate.PredicateBuilder;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A Trino catalog whose warehouse is on an object store: a real S3-compatible server (S3Proxy on
 * 127.0.0.1) holds the reference tables Apache Paimon wrote into it through S3, and the catalog file carries the
 * settings of a Paimon catalog with native S3 ({@code fs.native-s3.enabled}, {@code s3.*}).
 * Reads equal Paimon's (reading through S3), and what Tarn writes there Paimon reads identically.
 */
public class TestTarnOnS3
{
    // every reference table, which Paimon writes into the bucket through S3
    private static final List<ReferenceTable> TABLES = ReferenceTables.all();

    private ObjectStoreLake lake;
    private PaimonOnS3 paimon;
    private Path objects;
    private DistributedQueryRunner runner;

    @BeforeClass
    public void setUp()
            throws Exception
    {
        lake = ObjectStoreLake.create("tarn-trino-s3", TABLES);
        paimon = lake.paimon();
        objects = lake.objects();
        Map<String, String> catalog = new HashMap<>(lake.clientProperties());
        catalog.put("fs.native-s3.enabled", "true");
        runner = TarnQueryRunner.createOnObjectStore(lake.location(), catalog);
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        if (runner != null) {
            runner.close();
            runner = null;
        }
        // the lake closes it; Trino's resource check wants no AutoCloseable left in a field
        paimon = null;
        if (lake != null) {
            lake.close();
            lake = null;
        }
    }

    @DataProvider
    public Object[][] tables()
    {
        return TABLES.stream().map(table -> new Object[] {table}).toArray(Object[][]::new);
    }

    /**
     * Every version of every table: the latest snapshot, each snapshot still present, each tag and
     * each branch, read through Trino, equal to Paimon's read of the same version through S3.
     */
    @Test(dataProvider = "tables")
    public void testEveryVersionReadsEqualPaimons(ReferenceTable table)
    {
        ReferenceScan latest = ReferenceScan.of(table.identifier());
        assertThat(selectAll(table.tableName(), "")).as("%s, latest", table.identifier()).isEqualTo(paimon.read(latest));
        for (ReferenceSnapshot snapshot : paimon.snapshots(table.identifier())) {
            assertThat(selectAll(table.tableName() + " FOR VERSION AS OF " + snapshot.id(), ""))
                    .as("%s at snapshot %s", table.identifier(), snapshot.id())
                    .isEqualTo(paimon.read(latest.atSnapshot(snapshot.id())));
        }
        for (String tag : paimon.tags(table.identifier())) {
            assertThat(selectAll(table.tableName() + " FOR VERSION AS OF '" + tag + "'", ""))
                    .as("%s at tag %s", table.identifier(), tag)
                    .isEqualTo(paimon.read(latest.atTag(tag)));
        }
        for (String branch : table.branches()) {
            assertThat(selectAll("\"" + table.tableName() + "$branch_" + branch + "\"", ""))
                    .as("%s on branch %s", table.identifier(), branch)
                    .isEqualTo(paimon.read(latest.onBranch(branch)));
        }
    }

    /**
     * The usual filters ({@link ReferenceFilters}) as SQL: the rows equal Paimon's under the same
     * condition.
     */
    @Test
    public void testUsualFiltersEqualPaimons()
    {
        for (ReferenceFilter filter : ReferenceFilters.usual()) {
            CanonicalRows expected = paimon.read(filter.scan(paimon.rowType(ReferenceScan.of(filter.table()))));
            assertThat(selectAll(filter.tableName(), " WHERE " + filter.where())).as(filter.toString()).isEqualTo(expected);
        }
    }

    @Test
    public void testFilteredReadsEqualPaimons()
    {
        ReferenceScan partitioned = ReferenceScan.of(ReferenceTables.APPEND_PARTITIONED.identifier());
        PredicateBuilder builder = paimon.predicateBuilder(partitioned);
        int dt = paimon.rowType(partitioned).getFieldIndex("dt");
        assertThat(selectAll("append_partitioned", " WHERE dt = '2024-01-02'"))
                .isEqualTo(paimon.read(partitioned.withFilter(builder.equal(dt, BinaryString.fromString("2024-01-02")))));
        // the partition value decides the filter for the whole file: no row tested or decoded twice
        String analyzed = (String) runner.execute("EXPLAIN ANALYZE VERBOSE SELECT * FROM append_partitioned WHERE dt = '2024-01-02'").getOnlyValue();
        assertThat(ConnectorMetrics.required(analyzed, "rows_read")).as(analyzed).isPositive();
        assertThat(ConnectorMetrics.required(analyzed, "filter_probes")).as(analyzed).isZero();
        assertThat(ConnectorMetrics.required(analyzed, "rows_read_again")).as(analyzed).isZero();
        assertThat((Long) runner.execute("SELECT count(*) FROM \"append_partitioned$files\"").getOnlyValue()).isPositive();
    }

    @Test
    public void testScansReportObjectStoreRequests()
    {
        String analyzed = (String) runner.execute("EXPLAIN ANALYZE VERBOSE SELECT * FROM append_partitioned").getOnlyValue();
        long files = ConnectorMetrics.required(analyzed, "files_read");
        long requests = ConnectorMetrics.required(analyzed, "object_requests");
        assertThat(files).as(analyzed).isPositive();
        // small files: one request each (its tail holds the whole file), none for what planning skipped
        assertThat(requests).as(analyzed).isEqualTo(files);
        assertThat(ConnectorMetrics.required(analyzed, "object_bytes")).as(analyzed).isPositive();
    }

    /**
     * On an object store a split fetches several of its files at once, so a table of few small
     * files is read in at most 8 splits rather than one per file (locally, up to 32): each of 12
     * files still costs exactly one request.
     */
    @Test
    public void testSmallFilesShareSplitsOnAnObjectStore()
    {
        runner.execute("CREATE SCHEMA small_files");
        runner.execute("CREATE TABLE small_files.t (id integer, name varchar)");
        int files = 12;
        for (int file = 0; file < files; file++) {
            runner.execute("INSERT INTO small_files.t VALUES (%d, 'row %d')".formatted(file, file));
        }
        String analyzed = (String) runner.execute("EXPLAIN ANALYZE VERBOSE SELECT * FROM small_files.t").getOnlyValue();
        assertThat(ConnectorMetrics.required(analyzed, "files_read")).as(analyzed).isEqualTo(files);
        assertThat(ConnectorMetrics.required(analyzed, "object_requests")).as(analyzed).isEqualTo(files);
        // at most ceil(12 / 8) = 2 files to a split
        assertThat(ConnectorMetrics.required(analyzed, "splits")).as(analyzed).isEqualTo(6);
        assertThat(selectAll("small_files.t", "")).isEqualTo(paimon.read("small_files.t"));
    }

    @Test
    public void testWritesArePaimonReadable()
    {
        runner.execute("CREATE SCHEMA written");
        runner.execute("CREATE TABLE written.orders WITH (partitioned_by = ARRAY['region']) AS " +
                "SELECT orderkey, custkey, totalprice, orderdate, CAST(orderpriority AS varchar) AS priority, CAST(orderkey % 3 AS integer) AS region FROM (VALUES " +
                "(1, 10, 12.5E0, DATE '2024-01-01', '1-URGENT'), (2, 11, 99.0E0, DATE '2024-01-02', '2-HIGH'), (3, 12, 7.25E0, DATE '2024-01-03', '5-LOW')) " +
                "t(orderkey, custkey, totalprice, orderdate, orderpriority)");
        runner.execute("INSERT INTO written.orders VALUES (4, 13, 1.0E0, DATE '2024-02-01', '3-MEDIUM', 1)");
        runner.execute("CREATE TABLE written.bucketed (id bigint, v varchar) WITH (bucket = 2, bucket_key = ARRAY['id'])");
        runner.execute("INSERT INTO written.bucketed VALUES (1, 'a'), (2, 'b')");
        runner.execute("INSERT INTO written.bucketed VALUES (2, 'b2'), (3, 'c')");
        // Paimon reads the objects Tarn wrote, through S3
        for (String table : List.of("orders", "bucketed")) {
            assertThat(selectAll("written." + table, "")).as(table).isEqualTo(paimon.read("written." + table));
        }
        assertThat(paimon.read("written.bucketed").rowCount()).isEqualTo(4);
        runner.execute("DROP TABLE written.orders");
        assertThat(objects.resolve("written.db").resolve("orders")).doesNotExist();
        assertThat(runner.execute("SHOW TABLES FROM written").getOnlyColumnAsSet()).containsExactly("bucketed");
    }

    /**
     * Paimon appends, through its own S3 file system, to a table Tarn created and wrote on the
     * object store; Tarn then reads both writers' rows.
     */
    @Test
    public void testPaimonAppendsToATableTarnWrote()
    {
        runner.execute("CREATE SCHEMA appended");
        runner.execute("CREATE TABLE appended.events (id integer, name varchar)");
        runner.execute("INSERT INTO appended.events VALUES (1, 'tarn')");
        assertThat(paimon.append("appended.events", List.of(GenericRow.of(2, BinaryString.fromString("paimon"))))).isEqualTo(2);
        assertThat(runner.execute("SELECT id, name FROM appended.events ORDER BY id").getMaterializedRows())
                .extracting(row -> row.getField(0) + " " + row.getField(1))
                .containsExactly("1 tarn", "2 paimon");
        assertThat(selectAll("appended.events", "")).isEqualTo(paimon.read("appended.events"));
    }

    /**
     * {@code remove_orphan_files} over the object store: with every file older than its
     * {@code older_than}, it deletes the data file no snapshot names (as a writer killed before
     * its commit leaves it) and nothing the table references.
     */
    @Test
    public void testRemoveOrphanFiles()
            throws Exception
    {
        runner.execute("CREATE SCHEMA orphans");
        runner.execute("CREATE TABLE orphans.t AS SELECT * FROM (VALUES (1, 'a'), (2, 'b')) t(id, name)");
        runner.execute("INSERT INTO orphans.t VALUES (3, 'c')");
        Path table = objects.resolve("orphans.db").resolve("t");
        Path bucket;
        try (Stream<Path> directories = Files.list(table)) {
            bucket = directories.filter(directory -> directory.getFileName().toString().startsWith("bucket-")).findFirst().orElseThrow();
        }
        Path dataFile;
        try (Stream<Path> files = Files.list(bucket)) {
            dataFile = files.filter(file -> file.getFileName().toString().endsWith(".parquet")).findFirst().orElseThrow();
        }
        Path orphan = Files.copy(dataFile, bucket.resolve("data-orphan-0.parquet"));
        CanonicalRows before = selectAll("orphans.t", "");

        runner.execute("CALL tarn.system.remove_orphan_files('orphans', 't', '" + Instant.now().plusSeconds(60) + "')");

        assertThat(orphan).doesNotExist();
        assertThat(selectAll("orphans.t", "")).isEqualTo(before);
        assertThat(paimon.read("orphans.t")).isEqualTo(before);
        assertThatThrownBy(() -> runner.execute("CALL tarn.system.remove_orphan_files('orphans', 't', 'yesterday')"))
                .hasMessageContaining("older_than");
    }

    @Test
    public void testConcurrentInsertsAllLandOnce()
            throws Exception
    {
        runner.execute("CREATE SCHEMA IF NOT EXISTS concurrent");
        runner.execute("CREATE TABLE concurrent.events (writer integer, n integer)");
        int writers = 4;
        int insertsPerWriter = 5;
        ExecutorService executor = Executors.newFixedThreadPool(writers);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int writer = 0; writer < writers; writer++) {
                int id = writer;
                Callable<Void> inserts = () -> {
                    for (int n = 0; n < insertsPerWriter; n++) {
                        runner.execute("INSERT INTO concurrent.events VALUES (%d, %d)".formatted(id, n));
                    }
                    return null;
                };
                done.add(executor.submit(inserts));
            }
            for (Future<?> future : done) {
                future.get();
            }
        }
        finally {
            executor.shutdownNow();
        }
        assertThat(runner.execute("SELECT count(*), count(DISTINCT (writer, n)) FROM concurrent.events").getMaterializedRows().get(0).getFields())
                .containsExactly((long) writers * insertsPerWriter, (long) writers * insertsPerWriter);
        assertThat(paimon.read("concurrent.events").rowCount()).isEqualTo(writers * insertsPerWriter);
    }

    private CanonicalRows selectAll(String tableName, String suffix)
    {
        MaterializedResult shape = runner.execute("SELECT * FROM " + tableName + " LIMIT 0");
        String query = "SELECT " + TrinoCanonicalRows.selectList(shape.getColumnNames(), shape.getTypes()) + " FROM " + tableName + suffix;
        return TrinoCanonicalRows.of(runner.execute(query), shape.getTypes());
    }
}
