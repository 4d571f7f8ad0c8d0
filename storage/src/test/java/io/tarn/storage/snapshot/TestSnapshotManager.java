package io.tarn.storage.snapshot;

import io.tarn.storage.SnapshotNotFoundException;
import io.tarn.storage.fs.LocalFileIO;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataTypes;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import static io.tarn.storage.snapshot.TestSnapshotJson.assertSameSnapshot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestSnapshotManager
{
    private final LocalFileIO fileIO = new LocalFileIO();
    private PaimonTables paimon;
    private int tableCount;

    @BeforeClass
    public void setUp()
    {
        paimon = new PaimonTables();
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
            throws Exception
    {
        paimon.close();
    }

    private FileStoreTable tableWithSnapshots(int count)
            throws Exception
    {
        String name = "t" + tableCount++;
        FileStoreTable table = paimon.create(name, Schema.newBuilder()
                .column("a", DataTypes.INT())
                .column("b", DataTypes.STRING())
                .build());
        for (int i = 0; i < count; i++) {
            paimon.write(table, GenericRow.of(i, BinaryString.fromString("v" + i)));
        }
        return table;
    }

    private SnapshotManager snapshots(FileStoreTable table)
    {
        return new SnapshotManager(fileIO, table.location().toUri().getPath(), "main");
    }

    @Test
    public void testSnapshotsOfPaimonTable()
            throws Exception
    {
        FileStoreTable table = tableWithSnapshots(4);
        SnapshotManager snapshots = snapshots(table);
        assertThat(snapshots.latestId()).contains(table.snapshotManager().latestSnapshotId());
        assertThat(snapshots.earliestId()).contains(table.snapshotManager().earliestSnapshotId());
        assertThat(snapshots.listIds()).containsExactly(1L, 2L, 3L, 4L);
        for (long id = 1; id <= 4; id++) {
            assertSameSnapshot(snapshots.snapshot(id), table.snapshotManager().snapshot(id));
        }
        assertSameSnapshot(snapshots.latest().orElseThrow(), table.snapshotManager().latestSnapshot());
    }

    @Test
    public void testEmptyTable()
            throws Exception
    {
        FileStoreTable table = tableWithSnapshots(0);
        SnapshotManager snapshots = snapshots(table);
        assertThat(snapshots.latestId()).isEmpty();
        assertThat(snapshots.earliestId()).isEmpty();
        assertThat(snapshots.latest()).isEmpty();
        assertThat(snapshots.listIds()).isEmpty();
        assertThat(snapshots.latestAtOrBefore(Long.MAX_VALUE)).isEmpty();
        assertThatThrownBy(() -> snapshots.snapshot(1))
                .isInstanceOf(SnapshotNotFoundException.class)
                .hasMessageContaining("has no snapshots");
    }

    @Test
    public void testStaleHints()
            throws Exception
    {
        FileStoreTable table = tableWithSnapshots(4);
        SnapshotManager snapshots = snapshots(table);
        Path directory = Path.of(table.location().toUri().getPath(), "snapshot");
        assertThat(Files.readString(directory.resolve("LATEST"))).isEqualTo("4");

        // LATEST below the real latest, beyond it, half-written, and missing
        for (String hint : List.of("2", "9", "", "x4", "-1")) {
            Files.writeString(directory.resolve("LATEST"), hint);
            assertThat(snapshots.latestId()).as(hint).contains(4L);
        }
        Files.delete(directory.resolve("LATEST"));
        assertThat(snapshots.latestId()).contains(4L);

        // EARLIEST missing, or pointing at an expired snapshot
        Files.deleteIfExists(directory.resolve("EARLIEST"));
        assertThat(snapshots.earliestId()).contains(1L);
        assertThat(PaimonTables.expireAllBut(table, 2)).isEqualTo(2);
        assertThat(snapshots.earliestId()).contains(3L);
        Files.writeString(directory.resolve("EARLIEST"), "1");
        assertThat(snapshots.earliestId()).contains(3L);
        Files.delete(directory.resolve("EARLIEST"));
        assertThat(snapshots.earliestId()).contains(3L);
        assertThat(snapshots.listIds()).containsExactly(3L, 4L);
    }

    @Test
    public void testMissingSnapshot()
            throws Exception
    {
        FileStoreTable table = tableWithSnapshots(3);
        SnapshotManager snapshots = snapshots(table);
        assertThatThrownBy(() -> snapshots.snapshot(7))
                .isInstanceOf(SnapshotNotFoundException.class)
                .hasMessageContaining("Snapshot 7")
                .hasMessageContaining(snapshots.snapshotPath(7))
                .hasMessageContaining("existing snapshots are 1..3");
        PaimonTables.expireAllBut(table, 1);
        assertThatThrownBy(() -> snapshots.snapshot(1))
                .isInstanceOf(SnapshotNotFoundException.class)
                .hasMessageContaining("existing snapshots are 3..3");
    }

    @Test
    public void testLatestAtOrBefore()
            throws Exception
    {
        FileStoreTable table = tableWithSnapshots(5);
        SnapshotManager snapshots = snapshots(table);
        org.apache.paimon.utils.SnapshotManager paimonSnapshots = table.snapshotManager();
        List<Long> times = new ArrayList<>();
        for (long id = 1; id <= 5; id++) {
            times.add(paimonSnapshots.snapshot(id).timeMillis());
        }
        List<Long> probes = new ArrayList<>();
        for (long time : times) {
            probes.add(time - 1);
            probes.add(time);
            probes.add(time + 1);
        }
        probes.add(Long.MAX_VALUE);
        probes.add(0L);
        for (long probe : probes) {
            org.apache.paimon.Snapshot expected = paimonSnapshots.earlierOrEqualTimeMills(probe);
            Optional<Snapshot> actual = snapshots.latestAtOrBefore(probe);
            if (expected == null) {
                assertThat(actual).as("at %s", probe).isEmpty();
            }
            else {
                assertThat(actual).as("at %s", probe).isPresent();
                assertSameSnapshot(actual.get(), expected);
            }
        }
    }

    @Test
    public void testCommitReadByPaimon()
            throws Exception
    {
        FileStoreTable table = tableWithSnapshots(2);
        SnapshotManager snapshots = snapshots(table);
        Snapshot latest = snapshots.latest().orElseThrow();
        // a compaction-like snapshot that changes nothing: same manifests, new id
        Snapshot next = new Snapshot(3, 3, latest.schemaId(), latest.baseManifestList(), latest.baseManifestListSize(),
                latest.deltaManifestList(), latest.deltaManifestListSize(), Optional.empty(), Optional.empty(), Optional.empty(),
                "tarn", 7, CommitKind.COMPACT, latest.timeMillis() + 1, Optional.of(java.util.Map.of()),
                latest.totalRecordCount(), Optional.of(0L), Optional.of(0L), Optional.empty(), Optional.empty(), Optional.empty(), Optional.of(0L));
        assertThat(snapshots.tryCommit(next)).isTrue();
        assertThat(snapshots.tryCommit(next)).isFalse();
        assertThat(Files.readString(Path.of(snapshots.snapshotPath(3)).resolveSibling("LATEST"))).isEqualTo("3");

        org.apache.paimon.Snapshot paimonView = table.snapshotManager().latestSnapshot();
        assertThat(paimonView.id()).isEqualTo(3);
        assertSameSnapshot(next, paimonView);
        try (Stream<Path> files = Files.list(Path.of(snapshots.snapshotPath(3)).getParent())) {
            assertThat(files.map(path -> path.getFileName().toString())).noneMatch(name -> name.endsWith(".tmp"));
        }
    }

    @Test
    public void testConcurrentCommitsOfOneId()
            throws Exception
    {
        Path root = Files.createTempDirectory("tarn-race-");
        SnapshotManager snapshots = new SnapshotManager(fileIO, root.toString(), "main");
        ExecutorService executor = Executors.newFixedThreadPool(2);
        try {
            for (long id = 1; id <= 20; id++) {
                CyclicBarrier barrier = new CyclicBarrier(2);
                List<Future<Boolean>> results = new ArrayList<>();
                for (String user : List.of("writer-a", "writer-b")) {
                    Snapshot snapshot = snapshot(id, user);
                    results.add(executor.submit(() -> {
                        barrier.await();
                        return snapshots.tryCommit(snapshot);
                    }));
                }
                boolean first = results.get(0).get();
                boolean second = results.get(1).get();
                assertThat(first ^ second).as("exactly one writer wins snapshot %s", id).isTrue();
                assertThat(snapshots.snapshot(id).commitUser()).isEqualTo(first ? "writer-a" : "writer-b");
            }
            assertThat(snapshots.listIds()).hasSize(20);
            assertThat(snapshots.latestId()).contains(20L);
        }
        finally {
            executor.shutdownNow();
            try (Stream<Path> files = Files.walk(root)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    static Snapshot snapshot(long id, String user)
    {
        return new Snapshot(3, id, 0, "base", Optional.empty(), "delta", Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                user, Long.MAX_VALUE, CommitKind.APPEND, 1000 * id, Optional.of(java.util.Map.of()),
                Optional.of(id), Optional.of(1L), Optional.of(0L), Optional.empty(), Optional.empty(), Optional.empty(), Optional.of(0L));
    }
}
