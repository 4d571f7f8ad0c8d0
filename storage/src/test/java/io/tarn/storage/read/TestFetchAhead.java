package io.tarn.storage.read;

import io.tarn.s3server.S3ProxyServer;
import io.tarn.storage.MissingFileException;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.catalog.Warehouse;
import io.tarn.storage.grammar.FilterParser;
import io.tarn.storage.metrics.Counter;
import io.tarn.storage.metrics.Counters;
import io.tarn.storage.scan.DataSplit;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.snapshot.PaimonTables;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.source.SplitReaders;
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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A split reader asked to fetch ahead ({@link SplitReader#fetchAhead()}) holds its first data
 * file before its first batch, and each file it opens starts the fetches of the next ones: the
 * read of a file fetched ahead needs no request (shown by deleting the object in between), and the
 * counters still count the fetch's request once, also when the file is then skipped. On local
 * files there is nothing to fetch ahead.
 */
public class TestFetchAhead
{
    private static final int COMMITS = 3;
    private static final int ROWS_PER_COMMIT = 1_000;

    private PaimonTables paimon;
    private Path serverDirectory;
    private S3ProxyServer server;
    private RootAllocator allocator;
    private int copies;

    @BeforeClass
    public void writeTable()
            throws Exception
    {
        paimon = new PaimonTables();
        // three commits: three small data files, fetched whole, in one split
        FileStoreTable table = paimon.create("narrow", Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("name", DataTypes.STRING())
                .build());
        for (int commit = 0; commit < COMMITS; commit++) {
            InternalRow[] rows = new InternalRow[ROWS_PER_COMMIT];
            for (int row = 0; row < ROWS_PER_COMMIT; row++) {
                long id = (long) commit * ROWS_PER_COMMIT + row;
                rows[row] = GenericRow.of(id, BinaryString.fromString("name-" + id));
            }
            paimon.write(table, rows);
        }
        // three commits of overlapping keys into one bucket: one merge split of three files
        FileStoreTable keyed = paimon.create("keyed", Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("name", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1")
                .build());
        for (int commit = 0; commit < COMMITS; commit++) {
            InternalRow[] rows = new InternalRow[ROWS_PER_COMMIT];
            for (int row = 0; row < ROWS_PER_COMMIT; row++) {
                long id = (long) commit * ROWS_PER_COMMIT / 2 + row;
                rows[row] = GenericRow.of(id, BinaryString.fromString("commit-" + commit));
            }
            paimon.write(keyed, rows);
        }
        serverDirectory = TemporaryDirectories.create("tarn-fetch-ahead");
        server = S3ProxyServer.start(serverDirectory);
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
    public void testFirstFileIsHeldBeforeTheFirstBatch()
            throws Exception
    {
        try (TableCopy copy = copyOf("narrow")) {
            PaimonTable table = copy.table();
            ScanPlan plan = copy.plan();
            DataSplit split = copy.split();
            ReadRequest request = ReadRequest.of(table.schema().fields());

            try (SplitReader reader = SplitReaders.open(table, plan.readSchema(), split, request, allocator)) {
                CompletableFuture<Void> fetched = reader.fetchAhead();
                fetched.get(30, TimeUnit.SECONDS);
                // the object is gone: only the bytes fetched ahead can serve the first file
                deleteObject(table, split.files().get(0));

                long rows = 0;
                long idSum = 0;
                while (reader.nextBatch()) {
                    BigIntVector ids = (BigIntVector) reader.root().getVector("id");
                    for (int row = 0; row < reader.root().getRowCount(); row++) {
                        idSum += ids.get(row);
                    }
                    rows += reader.root().getRowCount();
                }
                long total = (long) COMMITS * ROWS_PER_COMMIT;
                assertThat(rows).isEqualTo(total);
                assertThat(idSum).isEqualTo(total * (total - 1) / 2);
                Counters counters = reader.metrics();
                // the fetch ahead's request is counted once, with the two other files' requests
                assertThat(counters.get(Counter.OBJECT_REQUESTS)).isEqualTo(COMMITS);
                assertThat(counters.get(Counter.OBJECT_BYTES)).isEqualTo(split.files().stream().mapToLong(file -> file.file().fileSize()).sum());
                assertThat(counters.get(Counter.FILES_READ)).isEqualTo(COMMITS);
            }

            // the same read, not fetched ahead, finds the object missing
            try (SplitReader reader = SplitReaders.open(table, plan.readSchema(), split, request, allocator)) {
                assertThatThrownBy(() -> {
                    while (reader.nextBatch()) {
                        // read to the missing file
                    }
                })
                        .isInstanceOf(MissingFileException.class)
                        .hasMessageContaining(split.files().get(0).file().fileName());
            }
        }
    }

    @Test
    public void testNextFileIsFetchedWhileOneIsRead()
            throws Exception
    {
        try (TableCopy copy = copyOf("narrow")) {
            PaimonTable table = copy.table();
            ScanPlan plan = copy.plan();
            DataSplit split = copy.split();

            ReadRequest request = ReadRequest.of(table.schema().fields());
            // what a reader of the first file alone holds after its first batch
            DataSplit firstFileOnly = new DataSplit(split.partition(), split.bucket(), split.totalBuckets(), List.of(split.files().get(0)), false);
            long firstFileHeld;
            try (SplitReader reader = SplitReaders.open(table, plan.readSchema(), firstFileOnly, request, allocator)) {
                assertThat(reader.nextBatch()).isTrue();
                firstFileHeld = reader.retainedHeapBytes();
            }

            // not asked to fetch ahead
            try (SplitReader reader = SplitReaders.open(table, plan.readSchema(), split, request, allocator)) {
                assertThat(reader.nextBatch()).isTrue();
                long rows = reader.root().getRowCount();
                // opening the first file started the fetches of the two after it, which end holding them
                long laterFilesSize = split.files().get(1).file().fileSize() + split.files().get(2).file().fileSize();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (reader.retainedHeapBytes() < firstFileHeld + laterFilesSize && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                assertThat(reader.retainedHeapBytes()).isGreaterThanOrEqualTo(firstFileHeld + laterFilesSize);
                deleteObject(table, split.files().get(1));
                deleteObject(table, split.files().get(2));
                while (reader.nextBatch()) {
                    rows += reader.root().getRowCount();
                }
                assertThat(rows).isEqualTo((long) COMMITS * ROWS_PER_COMMIT);
                assertThat(reader.metrics().get(Counter.OBJECT_REQUESTS)).isEqualTo(COMMITS);
            }
        }
    }

    @Test
    public void testFetchOfASkippedFileIsCounted()
            throws Exception
    {
        try (TableCopy copy = copyOf("narrow")) {
            PaimonTable table = copy.table();
            ScanPlan plan = copy.plan();
            DataSplit split = copy.split();
            // a join's filter that arrives after the fetch began, and rules out every file
            ReadRequest request = ReadRequest.of(table.schema().fields())
                    .withLatePruningFilter(() -> Optional.of(FilterParser.parse("id < 0", table.schema().rowType())));

            try (SplitReader reader = SplitReaders.open(table, plan.readSchema(), split, request, allocator)) {
                reader.fetchAhead().get(30, TimeUnit.SECONDS);
                assertThat(reader.nextBatch()).isFalse();
                Counters counters = reader.metrics();
                assertThat(counters.get(Counter.FILES_SKIPPED_BY_LATE_FILTER)).isEqualTo(COMMITS);
                assertThat(counters.get(Counter.FILES_READ)).isZero();
                // the files were fetched ahead (all three: fewer than FetchAheadQueue.MAX_FILES)
                // for nothing, and those requests are counted
                assertThat(counters.get(Counter.OBJECT_REQUESTS)).isEqualTo(COMMITS);
                assertThat(counters.get(Counter.OBJECT_BYTES)).isEqualTo(split.files().stream().mapToLong(file -> file.file().fileSize()).sum());
            }
        }
    }

    /**
     * A merge of a deduplicate table reads the key columns of its files, then the value columns
     * of the surviving rows: the second pass reads what the first fetched, so each small file
     * costs one request, not two.
     */
    @Test
    public void testMergeFetchesEachFileOnce()
            throws Exception
    {
        try (TableCopy copy = copyOf("keyed")) {
            PaimonTable table = copy.table();
            ScanPlan plan = copy.plan();
            DataSplit split = copy.split();
            assertThat(split.mergeRequired()).isTrue();

            try (SplitReader reader = SplitReaders.open(table, plan.readSchema(), split, ReadRequest.of(table.schema().fields()), allocator)) {
                Set<Long> ids = new HashSet<>();
                long rows = 0;
                while (reader.nextBatch()) {
                    BigIntVector batchIds = (BigIntVector) reader.root().getVector("id");
                    for (int row = 0; row < reader.root().getRowCount(); row++) {
                        ids.add(batchIds.get(row));
                    }
                    rows += reader.root().getRowCount();
                }
                // keys 0-999, 500-1499 and 1000-1999: each once
                assertThat(rows).isEqualTo(2 * ROWS_PER_COMMIT);
                assertThat(ids).hasSize(2 * ROWS_PER_COMMIT);
                Counters counters = reader.metrics();
                assertThat(counters.get(Counter.OBJECT_REQUESTS)).isEqualTo(COMMITS);
                assertThat(counters.get(Counter.OBJECT_BYTES)).isEqualTo(split.files().stream().mapToLong(file -> file.file().fileSize()).sum());
            }
        }
    }

    @Test
    public void testLocalFilesAreNotFetchedAhead()
            throws Exception
    {
        PaimonTable table = loadTable(Warehouse.open(paimon.warehouse(), Map.of()), "narrow");
        ScanPlan plan = new ScanPlanner(table).plan(table.snapshot(new ScanVersion.Latest()));
        try (SplitReader reader = SplitReaders.open(table, plan.readSchema(), onlySplit(plan), ReadRequest.of(table.schema().fields()), allocator)) {
            // complete at once: no thread hop for a read that costs no request
            assertThat(reader.fetchAhead()).isDone();
            long rows = 0;
            while (reader.nextBatch()) {
                rows += reader.root().getRowCount();
            }
            assertThat(rows).isEqualTo((long) COMMITS * ROWS_PER_COMMIT);
        }
    }

    /**
     * Table {@code db.<name>} in a copy of the warehouse in the bucket of its own, which a test may
     * damage, planned at its latest snapshot.
     */
    private TableCopy copyOf(String name)
            throws Exception
    {
        String prefix = "copy-" + copies++;
        server.copyIntoBucket(Path.of(paimon.warehouse()), "lake", prefix);
        Warehouse warehouse = Warehouse.open("s3://lake/" + prefix, server.clientProperties());
        PaimonTable table = loadTable(warehouse, name);
        ScanPlan plan = new ScanPlanner(table).plan(table.snapshot(new ScanVersion.Latest()));
        return new TableCopy((AutoCloseable) warehouse.fileIO(), table, plan, onlySplit(plan));
    }

    private record TableCopy(AutoCloseable fileIO, PaimonTable table, ScanPlan plan, DataSplit split)
            implements AutoCloseable
    {
        @Override
        public void close()
                throws Exception
        {
            fileIO.close();
        }
    }

    private static PaimonTable loadTable(Warehouse warehouse, String name)
            throws Exception
    {
        return PaimonTable.load(warehouse.catalog(), Identifier.parse("db." + name), PaimonTable.MAIN_BRANCH);
    }

    private static DataSplit onlySplit(ScanPlan plan)
    {
        assertThat(plan.splits()).singleElement().satisfies(split -> assertThat(split.files()).hasSize(COMMITS));
        return plan.splits().get(0);
    }

    private static void deleteObject(PaimonTable table, PlannedFile file)
            throws Exception
    {
        String path = table.dataFilePath(file.partition(), file.bucket(), file.file(), file.file().fileName());
        assertThat(table.fileIO().delete(path)).as("deleted %s", path).isTrue();
        assertThat(table.fileIO().exists(path)).isFalse();
    }
}
