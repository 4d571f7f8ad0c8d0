package io.tarn.trino;

import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.scan.DataSplit;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.TemporaryDirectories;
import io.tarn.types.DataField;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.type.TypeOperators;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Concurrent scans of row groups of long strings under small Trino memory limits: each scan
 * answers right or fails with a memory-limit error (Trino's, or Tarn's for its reader memory),
 * and the server keeps serving. The page source reports the memory its reader holds, and that
 * memory is bounded below the size of a row group's string column.
 */
public class TestTarnConcurrentScans
{
    private static final int FILES = 4;
    private static final int SCANS = 8;
    private static final long STRING_LENGTH = 1024;
    // the rows of file f: 36,000 ids from f * 100,000, each with a 1 KiB string and a double, so
    // that a file is one row group whose uncompressed string column chunk is about 36 MB
    private static final String FILE_ROWS = """
            SELECT id, rpad(to_hex(sha256(to_utf8(CAST(id AS varchar)))), %d, 'x') s, id * 0.5e0 d
            FROM (SELECT CAST(%d * 100000 + i * 200 + j AS bigint) id FROM UNNEST(sequence(0, 179)) a(i) CROSS JOIN UNNEST(sequence(0, 199)) b(j))""";
    private static final String AGGREGATES = "count(*), sum(length(s)), max(d), min(id), sum(id)";
    private static final Set<String> MEMORY_LIMIT_ERRORS = Set.of(
            "EXCEEDED_LOCAL_MEMORY_LIMIT", "EXCEEDED_GLOBAL_MEMORY_LIMIT", "CLUSTER_OUT_OF_MEMORY", "TARN_READER_MEMORY_EXHAUSTED");

    private Path warehouse;
    private DistributedQueryRunner runner;
    private MaterializedRow expected;

    @BeforeClass
    public void setUp()
            throws Exception
    {
        warehouse = TemporaryDirectories.create("tarn-concurrent-scans");
        // every node lives in this test JVM's heap (see tarn.test.heap); a query may hold little of it
        runner = TarnQueryRunner.create(warehouse, Map.of(), Map.of("query.max-memory-per-node", "64MB", "query.max-memory", "128MB"));
        runner.createCatalog("tarn_small", TarnConnectorFactory.NAME, Map.of("warehouse", warehouse.toString(), "tarn.reader.max-memory", "1MB"));
        runner.execute("CREATE SCHEMA tarn.c");
        runner.execute("""
                CREATE TABLE tarn.c.big (id bigint, s varchar, d double)
                WITH (options = MAP(ARRAY['file.block-size', 'file.compression', 'target-file-size'], ARRAY['256mb', 'none', '1gb']))""");
        List<String> files = new ArrayList<>();
        for (int file = 0; file < FILES; file++) {
            String rows = FILE_ROWS.formatted(STRING_LENGTH, file);
            runner.execute("INSERT INTO tarn.c.big " + rows);
            files.add(rows);
        }
        // what was written, evaluated by Trino itself without the table
        expected = runner.execute("SELECT " + AGGREGATES + " FROM (" + String.join(" UNION ALL ", files) + ")").getMaterializedRows().getFirst();
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        if (runner != null) {
            runner.close();
            runner = null;
        }
        if (warehouse != null) {
            TemporaryDirectories.deleteRecursively(warehouse);
            warehouse = null;
        }
    }

    @Test
    public void testConcurrentScansAnswerOrFailWithAMemoryLimit()
            throws Exception
    {
        assertThat(expected.getField(0)).isEqualTo((long) FILES * 36_000);
        assertThat(expected.getField(1)).isEqualTo(FILES * 36_000 * STRING_LENGTH);
        ExecutorService executor = Executors.newFixedThreadPool(SCANS);
        List<Future<MaterializedResult>> scans = new ArrayList<>();
        try {
            for (int scan = 0; scan < SCANS; scan++) {
                // the comment tells the queries apart in system.runtime.queries
                String query = "SELECT " + AGGREGATES + " FROM tarn.c.big -- scan " + scan;
                scans.add(executor.submit(() -> runner.execute(query)));
            }
            int answered = 0;
            for (int scan = 0; scan < SCANS; scan++) {
                try {
                    MaterializedResult result = scans.get(scan).get(5, TimeUnit.MINUTES);
                    assertThat(result.getMaterializedRows().getFirst()).isEqualTo(expected);
                    answered++;
                }
                catch (ExecutionException e) {
                    String query = "SELECT " + AGGREGATES + " FROM tarn.c.big -- scan " + scan;
                    MaterializedResult errors = runner.execute("SELECT error_code FROM system.runtime.queries WHERE query = '" + query + "' AND state = 'FAILED'");
                    assertThat(errors.getOnlyColumnAsSet())
                            .as("error of scan %s: %s", scan, e.getCause())
                            .hasSize(1)
                            .allSatisfy(code -> assertThat(MEMORY_LIMIT_ERRORS).contains((String) code));
                }
            }
            System.out.println(answered + " of " + SCANS + " concurrent scans answered, the others failed with a memory limit");
        }
        finally {
            executor.shutdownNow();
        }
        // the server is still up: a scan of the table answers (one without the strings, since the
        // memory of failed scans may not all be released yet on a loaded machine)
        assertThat(runner.execute("SELECT count(*), max(d), min(id), sum(id) FROM tarn.c.big").getMaterializedRows().getFirst().getFields())
                .containsExactly(expected.getField(0), expected.getField(2), expected.getField(3), expected.getField(4));
    }

    @Test
    public void testReaderMemoryLimitFailsTheQueryWithTarnsError()
    {
        String query = "SELECT max(s) FROM tarn_small.c.big";
        assertThat(catchThrowable(() -> runner.execute(query)))
                .hasMessageContaining("tarn.reader.max-memory")
                .hasMessageContaining("c.big");
        MaterializedResult errors = runner.execute("SELECT error_code FROM system.runtime.queries WHERE query = '" + query + "' AND state = 'FAILED'");
        assertThat(errors.getOnlyColumnAsSet()).containsExactly("TARN_READER_MEMORY_EXHAUSTED");
        // the catalog reads again once the failed query's memory is back: a column of small values fits
        assertThat(runner.execute("SELECT sum(id) FROM tarn_small.c.big").getOnlyValue()).isEqualTo(expected.getField(4));
    }

    @Test
    public void testPageSourceReportsTheMemoryItsReaderHolds()
            throws Exception
    {
        PaimonTable table = PaimonTable.load(new FileSystemCatalog(new LocalFileIO(), warehouse.toString()), new Identifier("c", "big"));
        ScanPlan plan = new ScanPlanner(table).plan(table.snapshotManager().latest());
        DataSplit split = plan.splits().getFirst();
        long stringChunkBytes = 36_000 * STRING_LENGTH;
        TarnTypes types = new TarnTypes(new TypeOperators());
        DataField field = plan.readSchema().rowType().field("s").orElseThrow();
        List<TarnColumnHandle> columns = List.of(TarnColumnHandle.base(field.name(), field.id(), types.toTrinoType(field.type())));
        try (BufferAllocator allocator = new RootAllocator()) {
            TarnPageSource source = new TarnPageSource(table, types, plan.readSchema(), split, columns, Optional.empty(), Optional.empty(), Optional.empty(), Map.of(), OptionalLong.empty(), true, allocator,
                    new FileReadLimiter(1, Duration.ofMinutes(1)));
            long peak = 0;
            long rows = 0;
            while (!source.isFinished()) {
                SourcePage page = source.getNextSourcePage();
                if (page == null) {
                    continue;
                }
                rows += page.getPositionCount();
                long arrow = allocator.getAllocatedMemory();
                long usage = source.getMemoryUsage();
                // the batch's strings sit in Arrow memory and, decoded, on the reader's heap
                assertThat(usage).isGreaterThanOrEqualTo(arrow + page.getPositionCount() * STRING_LENGTH);
                peak = Math.max(peak, usage);
            }
            source.close();
            assertThat(rows).isEqualTo(split.rowCount());
            // far less than the row group's string column: it is never held whole
            assertThat(peak).isLessThan(stringChunkBytes / 2);
            System.out.println("page source peak memory usage " + peak + " bytes for a row group of " + stringChunkBytes + " bytes of strings");
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }
}
