package io.tarn.storage.read;

import io.tarn.s3server.S3ProxyServer;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.catalog.Warehouse;
import io.tarn.storage.fs.s3.S3Settings;
import io.tarn.storage.metrics.Counter;
import io.tarn.storage.metrics.Counters;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.snapshot.PaimonTables;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.source.TableRead;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.TemporaryDirectories;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataTypes;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A read from an object store fetches a data file no larger than the small-object threshold
 * whole, in one request; a larger one by its footer and the column chunks of a row group that it
 * reads together, in one request where they lie close, instead of a request per column: on a
 * file of several row groups and eight columns, the requests are about one per row group, not
 * eight.
 */
public class TestCoalescedObjectReads
{
    private static final int ROWS = 40_000;
    private static final int NARROW_COMMITS = 3;
    private static final int NARROW_ROWS = 1_000;

    private PaimonTables paimon;
    private Path serverDirectory;
    private S3ProxyServer server;
    // the default threshold: data files up to 3 MB fetched whole, larger ones by ranges
    private Warehouse warehouse;
    // a threshold above every data file's size
    private Warehouse wholeFiles;
    private RootAllocator allocator;

    @BeforeClass
    public void writeTable()
            throws Exception
    {
        paimon = new PaimonTables();
        Schema.Builder schema = Schema.newBuilder();
        for (int column = 0; column < 4; column++) {
            schema.column("l" + column, DataTypes.BIGINT());
            schema.column("s" + column, DataTypes.STRING());
        }
        // row groups of about 256 kB: several per file
        schema.option("parquet.block.size", "262144");
        schema.option("file.compression", "uncompressed");
        FileStoreTable table = paimon.create("wide", schema.build());
        InternalRow[] rows = new InternalRow[ROWS];
        for (int row = 0; row < ROWS; row++) {
            Object[] values = new Object[8];
            for (int column = 0; column < 4; column++) {
                values[2 * column] = (long) row * (column + 1);
                values[2 * column + 1] = BinaryString.fromString("value-" + (row * 7919L % 100_003) + "-" + column);
            }
            rows[row] = GenericRow.of(values);
        }
        paimon.write(table, rows);

        // three commits of a narrow table: three small data files
        FileStoreTable narrow = paimon.create("narrow", Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("name", DataTypes.STRING())
                .build());
        for (int commit = 0; commit < NARROW_COMMITS; commit++) {
            InternalRow[] narrowRows = new InternalRow[NARROW_ROWS];
            for (int row = 0; row < NARROW_ROWS; row++) {
                long id = (long) commit * NARROW_ROWS + row;
                narrowRows[row] = GenericRow.of(id, BinaryString.fromString("name-" + id));
            }
            paimon.write(narrow, narrowRows);
        }
        serverDirectory = TemporaryDirectories.create("tarn-coalesced-reads");
        server = S3ProxyServer.start(serverDirectory);
        server.copyIntoBucket(Path.of(paimon.warehouse()), "lake", "paimon");
        warehouse = Warehouse.open("s3://lake/paimon", server.clientProperties());
        Map<String, String> whole = new HashMap<>(server.clientProperties());
        whole.put(S3Settings.SMALL_OBJECT_THRESHOLD, "16MB");
        wholeFiles = Warehouse.open("s3://lake/paimon", whole);
        allocator = new RootAllocator();
    }

    @AfterClass(alwaysRun = true)
    public void close()
            throws Exception
    {
        if (allocator != null) {
            allocator.close();
            allocator = null;
        }
        if (warehouse != null) {
            ((AutoCloseable) warehouse.fileIO()).close();
            warehouse = null;
        }
        if (wholeFiles != null) {
            ((AutoCloseable) wholeFiles.fileIO()).close();
            wholeFiles = null;
        }
        if (server != null) {
            server.close();
            server = null;
        }
        if (serverDirectory != null) {
            TemporaryDirectories.deleteRecursively(serverDirectory);
        }
        if (paimon != null) {
            paimon.close();
            paimon = null;
        }
    }

    @Test
    public void testColumnsOfARowGroupAreFetchedTogether()
            throws Exception
    {
        PaimonTable table = PaimonTable.load(warehouse.catalog(), Identifier.parse("db.wide"), PaimonTable.MAIN_BRANCH);
        ScanPlan plan = new ScanPlanner(table).plan(table.snapshot(new ScanVersion.Latest()));
        assertThat(plan.splits()).hasSize(1);
        assertThat(plan.files()).singleElement().satisfies(file -> assertThat(file.file().fileSize()).isGreaterThan(S3Settings.fromProperties(Map.of()).smallObjectThreshold()));
        AtomicLong rows = new AtomicLong();
        Counters counters = TableRead.forEachBatch(table, plan, ReadRequest.of(table.schema().fields()), allocator, batch -> rows.addAndGet(batch.getRowCount()));
        long rowGroups = counters.get(Counter.ROW_GROUPS_READ);
        long requests = counters.get(Counter.OBJECT_REQUESTS);

        assertThat(rows.get()).isEqualTo(ROWS);
        assertThat(rowGroups).as("row groups in the data file").isGreaterThanOrEqualTo(3);
        // the footer's request, then about one per row group for its eight column chunks (a
        // chunk that ends past a window may take one more); a request per chunk would be 8 each
        assertThat(requests).as("object requests for %s row groups", rowGroups).isLessThanOrEqualTo(1 + 2 * rowGroups);
    }

    @Test
    public void testSmallDataFilesAreFetchedWholeInOneRequest()
            throws Exception
    {
        PaimonTable table = PaimonTable.load(warehouse.catalog(), Identifier.parse("db.narrow"), PaimonTable.MAIN_BRANCH);
        ScanPlan plan = new ScanPlanner(table).plan(table.snapshot(new ScanVersion.Latest()));
        AtomicLong rows = new AtomicLong();
        AtomicLong idSum = new AtomicLong();
        Counters counters = TableRead.forEachBatch(table, plan, ReadRequest.of(table.schema().fields()), allocator, batch -> {
            rows.addAndGet(batch.getRowCount());
            BigIntVector ids = (BigIntVector) batch.getVector("id");
            for (int row = 0; row < batch.getRowCount(); row++) {
                idSum.addAndGet(ids.get(row));
            }
        });
        long total = (long) NARROW_COMMITS * NARROW_ROWS;
        assertThat(rows.get()).isEqualTo(total);
        assertThat(idSum.get()).isEqualTo(total * (total - 1) / 2);
        assertThat(counters.get(Counter.FILES_READ)).isEqualTo(NARROW_COMMITS);
        // no request for a file's length (its manifest entry has it), one GET for all of it
        assertThat(counters.get(Counter.OBJECT_REQUESTS)).isEqualTo(NARROW_COMMITS);
        long sizes = plan.files().stream().mapToLong(file -> file.file().fileSize()).sum();
        assertThat(counters.get(Counter.OBJECT_BYTES)).isEqualTo(sizes);

        // the file of several row groups, which the other test reads by ranges, in one request
        // under a threshold above its size
        PaimonTable wide = PaimonTable.load(wholeFiles.catalog(), Identifier.parse("db.wide"), PaimonTable.MAIN_BRANCH);
        ScanPlan widePlan = new ScanPlanner(wide).plan(wide.snapshot(new ScanVersion.Latest()));
        AtomicLong wideRows = new AtomicLong();
        Counters wideCounters = TableRead.forEachBatch(wide, widePlan, ReadRequest.of(wide.schema().fields()), allocator, batch -> wideRows.addAndGet(batch.getRowCount()));
        assertThat(wideRows.get()).isEqualTo(ROWS);
        assertThat(wideCounters.get(Counter.ROW_GROUPS_READ)).isGreaterThanOrEqualTo(3);
        assertThat(wideCounters.get(Counter.OBJECT_REQUESTS)).isEqualTo(1);
    }
}
