package io.tarn.storage.commit;

import io.tarn.storage.CommitConflictException;
import io.tarn.storage.catalog.ColumnPosition;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.catalog.SchemaChange;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.manifest.DataFileMeta;
import io.tarn.storage.manifest.FileKind;
import io.tarn.storage.manifest.ManifestEntry;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.snapshot.CommitKind;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.snapshot.Snapshot;
import io.tarn.storage.snapshot.SnapshotStatistics;
import io.tarn.storage.snapshot.SnapshotStatistics.ColumnStats;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.ReferencePlan;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.ReferenceStatistics;
import io.tarn.testing.ReferenceTable;
import io.tarn.testing.ReferenceTables;
import io.tarn.testing.TemporaryDirectories;
import io.tarn.types.DataTypes;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tables whose metadata Tarn writes, checked with Apache Paimon: a table created by Tarn and
 * committed with data files copied from a reference table is planned and read by Paimon with the
 * reference table's rows; concurrent commits all land; a DELETE of a file that another commit
 * already removed is a conflict; statistics committed by either are read by the other, and carried
 * on by later commits until the schema changes.
 */
public class TestTableCommit
{
    private Path warehouse;
    private FileSystemCatalog catalog;

    @BeforeClass
    public void createTables()
            throws IOException
    {
        warehouse = TemporaryDirectories.create("tarn-commit");
        ReferenceTables.create(warehouse, ReferenceTables.APPEND_PARTITIONED);
        ReferenceTables.create(warehouse, ReferenceTables.APPEND_BUCKETED);
        catalog = new FileSystemCatalog(new LocalFileIO(), warehouse.toString());
    }

    @AfterClass(alwaysRun = true)
    public void deleteTables()
    {
        TemporaryDirectories.deleteRecursively(warehouse);
    }

    @Test
    public void testPaimonReadsTableCommittedByTarn()
            throws IOException
    {
        for (ReferenceTable source : List.of(ReferenceTables.APPEND_PARTITIONED, ReferenceTables.APPEND_BUCKETED)) {
            String copyName = source.identifier() + "_copy";
            PaimonTable copy = copyTable(source.identifier(), copyName, 2);

            assertThat(ReferenceReader.read(warehouse, copyName).text())
                    .as("Paimon reads %s, committed by Tarn", copyName)
                    .isEqualTo(ReferenceReader.read(warehouse, source.identifier()).text());
            List<String> paimonFiles = ReferencePlan.plan(warehouse, copyName).stream().map(io.tarn.testing.PlannedFile::fileName).sorted().toList();
            List<String> tarnFiles = new ScanPlanner(copy).plan(copy.snapshot(new ScanVersion.Latest())).files().stream().map(file -> file.file().fileName()).sorted().toList();
            assertThat(tarnFiles).isEqualTo(paimonFiles);
            assertThat(ReferenceTables.snapshots(warehouse, copyName)).hasSize(2);
            Snapshot latest = copy.snapshotManager().latest().orElseThrow();
            assertThat(latest.totalRecordCount()).contains((long) ReferenceReader.read(warehouse, source.identifier()).rowCount());
        }
    }

    @Test
    public void testConcurrentCommitsAllLand()
            throws Exception
    {
        PaimonTable source = table("ref.append_bucketed");
        List<PlannedFile> files = plan(source).files();
        PaimonTable target = createEmptyCopy(source, "ref.concurrent_copy");
        int threads = 4;
        int commitsPerThread = 20;
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            List<Future<List<Snapshot>>> results = new ArrayList<>();
            for (int thread = 0; thread < threads; thread++) {
                int writer = thread;
                Callable<List<Snapshot>> task = () -> {
                    List<Snapshot> committed = new ArrayList<>();
                    TableCommit commit = new TableCommit(table("ref.concurrent_copy"), "writer-" + writer);
                    for (int i = 0; i < commitsPerThread; i++) {
                        PlannedFile file = files.get((writer * commitsPerThread + i) % files.size());
                        // the same data file may be committed by several writers: give each entry its own name
                        String name = "writer-" + writer + "-" + i + "-" + file.file().fileName();
                        copyDataFile(source, target, file, name);
                        committed.add(commit.commit(List.of(renamedAdd(file, name)), CommitKind.APPEND, i));
                    }
                    return committed;
                };
                results.add(executor.submit(task));
            }
            List<Long> ids = new ArrayList<>();
            for (Future<List<Snapshot>> result : results) {
                result.get().forEach(snapshot -> ids.add(snapshot.id()));
            }
            assertThat(ids).doesNotHaveDuplicates().hasSize(threads * commitsPerThread);
        }
        finally {
            executor.shutdownNow();
        }
        assertThat(plan(table("ref.concurrent_copy")).files()).hasSize(threads * commitsPerThread);
        assertThat(ReferencePlan.plan(warehouse, "ref.concurrent_copy")).hasSize(threads * commitsPerThread);
        long expectedRows = 0;
        for (int writer = 0; writer < threads; writer++) {
            for (int i = 0; i < commitsPerThread; i++) {
                expectedRows += files.get((writer * commitsPerThread + i) % files.size()).file().rowCount();
            }
        }
        assertThat(ReferenceReader.read(warehouse, "ref.concurrent_copy").rowCount()).isEqualTo(expectedRows);
    }

    @Test
    public void testDeletingAFileThatIsNoLongerLiveIsAConflict()
            throws IOException
    {
        PaimonTable copy = copyTable("ref.append_partitioned", "ref.conflict_copy", 1);
        PlannedFile victim = plan(copy).files().get(0);
        ManifestEntry delete = new ManifestEntry(FileKind.DELETE, victim.partition(), victim.bucket(), victim.totalBuckets(), victim.file());
        new TableCommit(copy, "first").commit(List.of(delete), CommitKind.OVERWRITE, 1);
        assertThat(plan(copy).files()).extracting(file -> file.file().fileName()).doesNotContain(victim.file().fileName());

        assertThatThrownBy(() -> new TableCommit(copy, "second").commit(List.of(delete), CommitKind.OVERWRITE, 1))
                .isInstanceOf(CommitConflictException.class)
                .hasMessageContaining("ref.conflict_copy")
                .hasMessageContaining(victim.file().fileName());
        assertThat(ReferenceReader.read(warehouse, "ref.conflict_copy").rowCount())
                .isEqualTo(ReferenceReader.read(warehouse, "ref.append_partitioned").rowCount() - victim.file().rowCount());
    }

    @Test
    public void testTarnReadsStatisticsThatPaimonCommitted()
            throws IOException
    {
        String name = "ref.stats_from_paimon";
        PaimonTable copy = copyTable("ref.append_partitioned", name, 1);
        ReferenceStatistics.analyze(warehouse, name, 42, Map.of(
                "id", new ReferenceStatistics.Column(42L, 0L, 4L, 4L),
                "name", new ReferenceStatistics.Column(40L, 1L, 6L, 9L)));

        Snapshot analyzed = copy.snapshotManager().latest().orElseThrow();
        assertThat(analyzed.commitKind()).isEqualTo(CommitKind.ANALYZE);
        SnapshotStatistics statistics = copy.statistics(analyzed).orElseThrow();
        assertThat(statistics.snapshotId()).isEqualTo(analyzed.id() - 1);
        assertThat(canonical(statistics)).isEqualTo(ReferenceStatistics.read(warehouse, name).orElseThrow());

        // a later commit of Tarn's names the same statistics, and Paimon still sees them
        Snapshot appended = appendCopyOfAFile(copy, "again-");
        assertThat(appended.statistics()).isEqualTo(analyzed.statistics());
        assertThat(ReferenceStatistics.read(warehouse, name)).contains(canonical(statistics));
    }

    @Test
    public void testPaimonReadsStatisticsThatTarnCommitted()
            throws IOException
    {
        String name = "ref.stats_from_tarn";
        PaimonTable copy = copyTable("ref.append_partitioned", name, 1);
        Snapshot data = copy.snapshotManager().latest().orElseThrow();
        SnapshotStatistics statistics = new SnapshotStatistics(data.id(), data.schemaId(), Optional.of(42L), Optional.empty(), Map.of(
                "id", new ColumnStats(fieldId(copy, "id"), Optional.of(42L), Optional.empty(), Optional.empty(), Optional.of(0L), Optional.empty(), Optional.empty()),
                "name", new ColumnStats(fieldId(copy, "name"), Optional.of(41L), Optional.empty(), Optional.empty(), Optional.of(1L), Optional.of(7L), Optional.of(10L))));

        Snapshot analyzed = new TableCommit(copy, "tarn-test").commitStatistics(statistics, 3);
        assertThat(analyzed.id()).isEqualTo(data.id() + 1);
        assertThat(analyzed.commitKind()).isEqualTo(CommitKind.ANALYZE);
        assertThat(analyzed.totalRecordCount()).isEqualTo(data.totalRecordCount());
        assertThat(ReferenceStatistics.read(warehouse, name)).contains(canonical(statistics));
        assertThat(ReferenceReader.read(warehouse, name).rowCount()).isEqualTo(42);

        // Paimon appends to the table and carries Tarn's statistics on
        ReferenceStatistics.append(warehouse, name, List.<Object[]>of(new Object[] {"2024-01-09", 1, 1000, "appended", 1.5}));
        Snapshot appended = table(name).snapshotManager().latest().orElseThrow();
        assertThat(appended.id()).isEqualTo(analyzed.id() + 1);
        assertThat(appended.statistics()).isEqualTo(analyzed.statistics());
        assertThat(ReferenceReader.read(warehouse, name).rowCount()).isEqualTo(43);
    }

    @Test
    public void testDataCommittedWithItsStatistics()
            throws IOException
    {
        String name = "ref.stats_with_data";
        PaimonTable source = table("ref.append_partitioned");
        PaimonTable target = createEmptyCopy(source, name);
        List<ManifestEntry> adds = new ArrayList<>();
        for (PlannedFile file : plan(source).files()) {
            copyDataFile(source, target, file, file.file().fileName());
            adds.add(new ManifestEntry(FileKind.ADD, file.partition(), file.bucket(), file.totalBuckets(), file.file()));
        }
        SnapshotStatistics computed = new SnapshotStatistics(0, 0, Optional.of(42L), Optional.empty(), Map.of(
                "id", new ColumnStats(fieldId(target, "id"), Optional.of(42L), Optional.empty(), Optional.empty(), Optional.of(0L), Optional.empty(), Optional.empty())));

        Snapshot snapshot = new TableCommit(target, "tarn-test").commitWithStatistics(adds, computed, 1);
        assertThat(snapshot.id()).isEqualTo(1);
        assertThat(snapshot.commitKind()).isEqualTo(CommitKind.APPEND);
        assertThat(target.statistics(snapshot)).contains(computed.withSnapshotId(1));
        assertThat(ReferenceStatistics.read(warehouse, name)).contains(canonical(computed.withSnapshotId(1)));
        assertThat(ReferenceReader.read(warehouse, name).rowCount()).isEqualTo(42);
        assertThatThrownBy(() -> new TableCommit(target, "tarn-test").commitWithStatistics(List.of(), computed, 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(name);
    }

    @Test
    public void testStatisticsAreNotCarriedAcrossASchemaChange()
            throws IOException
    {
        String name = "ref.stats_schema_change";
        PaimonTable copy = copyTable("ref.append_partitioned", name, 1);
        Snapshot data = copy.snapshotManager().latest().orElseThrow();
        new TableCommit(copy, "tarn-test").commitStatistics(new SnapshotStatistics(data.id(), data.schemaId(), Optional.of(42L), Optional.empty(), Map.of()), 1);
        catalog.alterTable(Identifier.parse(name), List.of(new SchemaChange.AddColumn("extra", DataTypes.integer(), Optional.empty(), ColumnPosition.last())));

        PaimonTable altered = table(name);
        Snapshot appended = appendCopyOfAFile(altered, "after-change-");
        assertThat(appended.statistics()).isEmpty();
        assertThat(ReferenceStatistics.read(warehouse, name)).isEmpty();
    }

    // commits a copy of one of the table's data files under a new name: a plain APPEND by Tarn
    private static Snapshot appendCopyOfAFile(PaimonTable table, String prefix)
            throws IOException
    {
        PlannedFile file = plan(table).files().get(0);
        copyDataFile(table, table, file, prefix + file.file().fileName());
        return new TableCommit(table, "tarn-test").commit(List.of(renamedAdd(file, prefix + file.file().fileName())), CommitKind.APPEND, 2);
    }

    private static int fieldId(PaimonTable table, String column)
    {
        return table.schema().fields().stream().filter(field -> field.name().equals(column)).findFirst().orElseThrow().id();
    }

    private static String canonical(SnapshotStatistics statistics)
    {
        Map<String, ReferenceStatistics.Column> columns = new TreeMap<>();
        statistics.columns().forEach((name, column) -> columns.put(name, new ReferenceStatistics.Column(
                column.distinctCount().orElse(null), column.nullCount().orElse(null), column.averageLength().orElse(null), column.maxLength().orElse(null))));
        return ReferenceStatistics.canonical(statistics.snapshotId(), statistics.schemaId(), statistics.mergedRecordCount().orElse(null), columns);
    }

    private PaimonTable copyTable(String sourceName, String copyName, int commits)
            throws IOException
    {
        PaimonTable source = table(sourceName);
        List<PlannedFile> files = plan(source).files();
        PaimonTable copy = createEmptyCopy(source, copyName);
        TableCommit commit = new TableCommit(copy, "tarn-test");
        int perCommit = (files.size() + commits - 1) / commits;
        for (int start = 0; start < files.size(); start += perCommit) {
            List<ManifestEntry> adds = new ArrayList<>();
            for (PlannedFile file : files.subList(start, Math.min(files.size(), start + perCommit))) {
                copyDataFile(source, copy, file, file.file().fileName());
                adds.add(new ManifestEntry(FileKind.ADD, file.partition(), file.bucket(), file.totalBuckets(), file.file()));
            }
            commit.commit(adds, CommitKind.APPEND, start);
        }
        return copy;
    }

    private PaimonTable createEmptyCopy(PaimonTable source, String copyName)
            throws IOException
    {
        TableSchema schema = source.schema();
        catalog.createTable(Identifier.parse(copyName), schema.withId(0));
        return table(copyName);
    }

    private static void copyDataFile(PaimonTable source, PaimonTable target, PlannedFile file, String targetName)
            throws IOException
    {
        Path from = Path.of(source.dataFilePath(file.partition(), file.bucket(), file.file(), file.file().fileName()));
        Path to = Path.of(target.dataFilePath(file.partition(), file.bucket(), file.file(), targetName));
        Files.createDirectories(to.getParent());
        Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
    }

    private static ManifestEntry renamedAdd(PlannedFile file, String name)
    {
        DataFileMeta meta = file.file();
        DataFileMeta renamed = new DataFileMeta(name, meta.fileSize(), meta.rowCount(), meta.minKey(), meta.maxKey(), meta.keyStats(), meta.valueStats(),
                meta.minSequenceNumber(), meta.maxSequenceNumber(), meta.schemaId(), meta.level(), meta.extraFiles(), meta.creationTime(), meta.deleteRowCount(),
                meta.embeddedIndex(), meta.fileSource(), meta.valueStatsCols(), meta.externalPath(), meta.firstRowId(), meta.writeCols());
        return new ManifestEntry(FileKind.ADD, file.partition(), file.bucket(), file.totalBuckets(), renamed);
    }

    private PaimonTable table(String name)
            throws IOException
    {
        return PaimonTable.load(catalog, Identifier.parse(name));
    }

    private static ScanPlan plan(PaimonTable table)
            throws IOException
    {
        return new ScanPlanner(table).plan(table.snapshot(new ScanVersion.Latest()));
    }
}
