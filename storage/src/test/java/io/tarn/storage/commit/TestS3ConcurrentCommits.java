package io.tarn.storage.commit;

import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.catalog.Warehouse;
import io.tarn.storage.fs.s3.S3FileIO;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.ObjectStoreLake;
import io.tarn.testing.PaimonOnS3;
import io.tarn.testing.ReferenceTables;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Commits racing on an object store, with no lock and no rename: two writer processes of four
 * threads each commit twenty appends apiece to one table on a real S3-compatible server (S3Proxy
 * on 127.0.0.1). Every commit lands exactly once, as one snapshot of its own, and Apache Paimon
 * reads every row through S3. A writer killed mid-commit leaves nothing half-visible.
 */
public class TestS3ConcurrentCommits
{
    private static final String SOURCE = ReferenceTables.APPEND_BUCKETED.identifier();
    private static final String TARGET = "ref.raced";
    private static final int PROCESSES = 2;
    private static final int THREADS = 4;
    private static final int COMMITS = 20;

    private ObjectStoreLake lake;
    private PaimonOnS3 paimon;

    @BeforeClass
    public void setUp()
            throws IOException
    {
        lake = ObjectStoreLake.create("tarn-s3-race", List.of(ReferenceTables.APPEND_BUCKETED));
        paimon = lake.paimon();
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        if (lake != null) {
            lake.close();
        }
    }

    /**
     * A writer killed (SIGKILL) between and during commits leaves the table readable at its last
     * snapshot: what it had uploaded for the next one is invisible, and the next writer commits
     * on top without a lock to break.
     */
    @Test
    public void testWriterKilledMidCommitLeavesTableReadable()
            throws Exception
    {
        String table = "ref.killed";
        Warehouse warehouse = Warehouse.open(lake.location(), lake.clientProperties());
        try {
            PaimonTable source = PaimonTable.load(warehouse.catalog(), Identifier.parse(SOURCE));
            warehouse.catalog().createTable(Identifier.parse(table), source.schema().withId(0));
            Process writer = startWriter(table, "doomed", THREADS, 1000);
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
            while (latestSnapshot(warehouse, table) < 6 && System.nanoTime() < deadline) {
                assertThat(writer.isAlive()).as("writer still committing").isTrue();
                Thread.sleep(50);
            }
            writer.destroyForcibly().waitFor();
            long survived = latestSnapshot(warehouse, table);
            assertThat(survived).isGreaterThanOrEqualTo(6);

            // every snapshot that landed is whole: one file per commit, and Paimon reads them all
            PaimonTable killed = PaimonTable.load(warehouse.catalog(), Identifier.parse(table));
            List<PlannedFile> files = new ScanPlanner(killed).plan(killed.snapshot(new ScanVersion.Latest())).files();
            assertThat((long) files.size()).isEqualTo(survived);
            long rows = files.stream().mapToLong(file -> file.file().rowCount()).sum();
            assertThat((long) paimon.read(table).rowCount()).isEqualTo(rows);

            Process next = startWriter(table, "next", 1, 2);
            assertThat(next.waitFor(2, TimeUnit.MINUTES)).isTrue();
            assertThat(next.exitValue()).as(new String(next.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isZero();
            assertThat(latestSnapshot(warehouse, table)).isEqualTo(survived + 2);
        }
        finally {
            ((S3FileIO) warehouse.fileIO()).close();
        }
    }

    private Process startWriter(String table, String name, int threads, int commits)
            throws IOException
    {
        List<String> command = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElseThrow(), "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                S3CommitRace.class.getName(), lake.location(), SOURCE, table, name, Integer.toString(threads), Integer.toString(commits)));
        lake.clientProperties().forEach((key, value) -> command.add(key + "=" + value));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    private static long latestSnapshot(Warehouse warehouse, String table)
            throws IOException
    {
        return PaimonTable.load(warehouse.catalog(), Identifier.parse(table)).snapshotManager().latest().map(snapshot -> snapshot.id()).orElse(0L);
    }

    @Test
    public void testEveryCommitOfTwoProcessesLandsOnce()
            throws Exception
    {
        Warehouse warehouse = Warehouse.open(lake.location(), lake.clientProperties());
        try {
            PaimonTable source = PaimonTable.load(warehouse.catalog(), Identifier.parse(SOURCE));
            warehouse.catalog().createTable(Identifier.parse(TARGET), source.schema().withId(0));

            List<Process> writers = new ArrayList<>();
            for (int process = 0; process < PROCESSES; process++) {
                writers.add(startWriter(TARGET, "process-" + process, THREADS, COMMITS));
            }
            List<Long> snapshotIds = new ArrayList<>();
            for (Process writer : writers) {
                String output = new String(writer.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(writer.waitFor(5, TimeUnit.MINUTES)).isTrue();
                assertThat(writer.exitValue()).as(output).isZero();
                output.lines().filter(line -> line.startsWith("COMMITTED ")).forEach(line -> snapshotIds.add(Long.parseLong(line.substring(10))));
            }
            int commits = PROCESSES * THREADS * COMMITS;
            assertThat(snapshotIds).doesNotHaveDuplicates().hasSize(commits);

            PaimonTable target = PaimonTable.load(warehouse.catalog(), Identifier.parse(TARGET));
            assertThat(target.snapshotManager().latest().orElseThrow().id()).isEqualTo(commits);
            assertThat(new ScanPlanner(target).plan(target.snapshot(new ScanVersion.Latest())).files()).hasSize(commits);
            // Paimon plans and reads the objects the writers left, through S3
            assertThat(paimon.plannedFileNames(TARGET)).hasSize(commits);
            // each writer thread commits copies of the source's files in plan order, one per commit
            List<PlannedFile> sourceFiles = new ScanPlanner(source).plan(source.snapshot(new ScanVersion.Latest())).files();
            long rowsPerThread = 0;
            for (int i = 0; i < COMMITS; i++) {
                rowsPerThread += sourceFiles.get(i % sourceFiles.size()).file().rowCount();
            }
            assertThat((long) paimon.read(TARGET).rowCount()).isEqualTo(PROCESSES * THREADS * rowsPerThread);
        }
        finally {
            ((S3FileIO) warehouse.fileIO()).close();
        }
    }
}
