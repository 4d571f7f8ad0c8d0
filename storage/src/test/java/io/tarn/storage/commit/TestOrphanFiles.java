package io.tarn.storage.commit;

import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.manifest.FileKind;
import io.tarn.storage.manifest.ManifestEntry;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.snapshot.CommitKind;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.ReferenceScan;
import io.tarn.testing.ReferenceSnapshot;
import io.tarn.testing.ReferenceTable;
import io.tarn.testing.ReferenceTables;
import io.tarn.testing.TemporaryDirectories;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Orphan files, what a writer killed before its commit leaves, are deleted once old enough; no
 * file a snapshot, a tag or a branch references is, however old; nor does snapshot expiration on
 * main delete what a branch still reads. The tables are Apache Paimon's:
 * {@code time_travel} has a tag on an expired snapshot (only the tag keeps its files) and a
 * branch with files of its own, and Paimon reads every version of it alike before and after.
 */
public class TestOrphanFiles
{
    private static final ReferenceTable TABLE = ReferenceTables.TIME_TRAVEL;
    private static final Instant LONG_AGO = Instant.now().minus(Duration.ofDays(3));

    private Path warehouse;
    private FileSystemCatalog catalog;

    @BeforeClass
    public void createTables()
            throws IOException
    {
        warehouse = TemporaryDirectories.create("tarn-orphans");
        ReferenceTables.create(warehouse, TABLE);
        ReferenceTables.create(warehouse, ReferenceTables.APPEND_PARTITIONED);
        catalog = new FileSystemCatalog(new LocalFileIO(), warehouse.toString());
    }

    @AfterClass(alwaysRun = true)
    public void deleteTables()
    {
        TemporaryDirectories.deleteRecursively(warehouse);
    }

    @Test
    public void testOldOrphansGoAndEveryReferencedFileStays()
            throws IOException
    {
        Path table = tableDirectory(TABLE.identifier());
        List<String> before = everyVersion(TABLE);
        Path bucket = table.resolve("bucket-0");
        Path dataFile;
        try (Stream<Path> files = Files.list(bucket)) {
            dataFile = files.filter(file -> file.getFileName().toString().endsWith(".parquet")).findFirst().orElseThrow();
        }
        // what killed writers left: a data file, a manifest, a manifest list, an index file
        List<Path> orphans = List.of(
                Files.copy(dataFile, bucket.resolve("data-orphan-0.parquet")),
                Files.writeString(table.resolve("manifest").resolve("manifest-orphan-0"), "partial"),
                Files.writeString(table.resolve("manifest").resolve("manifest-list-orphan-0"), "partial"),
                Files.writeString(Files.createDirectories(table.resolve("index")).resolve("index-orphan-0"), "partial"));
        // every file of the table is old: only references can keep one
        ageEveryFile(table);
        Path recent = Files.copy(dataFile, bucket.resolve("data-in-flight-0.parquet"));

        OrphanFiles.Result result = OrphanFiles.remove(PaimonTable.load(catalog, Identifier.parse(TABLE.identifier())), Instant.now().minus(Duration.ofDays(1)));

        assertThat(result.deletedFiles()).containsExactlyInAnyOrderElementsOf(orphans.stream().map(Path::toString).toList());
        orphans.forEach(orphan -> assertThat(orphan).doesNotExist());
        assertThat(recent).as("newer than older_than: may belong to a commit in progress").exists();
        assertThat(everyVersion(TABLE)).isEqualTo(before);
    }

    /**
     * Main overwrites everything, loses its tags and expires its history: snapshot expiration
     * still keeps every file that branch {@code b1} (made from a tag main no longer has) reads.
     */
    @Test
    public void testExpirationOnMainKeepsWhatABranchReads()
            throws IOException
    {
        String copy = "ref.time_travel_expired";
        Path source = tableDirectory(TABLE.identifier());
        Path target = tableDirectory(copy);
        try (Stream<Path> paths = Files.walk(source)) {
            for (Path path : paths.toList()) {
                Path copied = target.resolve(source.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(copied);
                }
                else {
                    Files.copy(path, copied);
                }
            }
        }
        String branchBefore = ReferenceReader.read(warehouse, ReferenceScan.of(copy).onBranch("b1")).text();
        PaimonTable main = PaimonTable.load(catalog, Identifier.parse(copy));
        // main: every live file deleted by an overwrite, no tag left, then all but the last snapshot expired
        List<ManifestEntry> deletes = new ScanPlanner(main).plan(main.snapshot(new ScanVersion.Latest())).files().stream()
                .map(file -> new ManifestEntry(FileKind.DELETE, file.partition(), file.bucket(), file.totalBuckets(), file.file()))
                .toList();
        new TableCommit(main, "overwriter").commit(deletes, CommitKind.OVERWRITE, 1);
        for (String tag : main.tagManager().tagNames()) {
            Files.delete(Path.of(main.tagManager().tagPath(tag)));
        }
        SnapshotExpiration.Result expired = SnapshotExpiration.expire(PaimonTable.load(catalog, Identifier.parse(copy)), 1);

        assertThat(expired.removedSnapshots()).isNotEmpty();
        assertThat(ReferenceReader.read(warehouse, copy).rowCount()).isZero();
        assertThat(ReferenceReader.read(warehouse, ReferenceScan.of(copy).onBranch("b1")).text()).isEqualTo(branchBefore);
    }

    @Test
    public void testNothingOldEnoughIsDeleted()
            throws IOException
    {
        Path table = tableDirectory(ReferenceTables.APPEND_PARTITIONED.identifier());
        Path orphan = Files.writeString(table.resolve("manifest").resolve("manifest-orphan-1"), "partial");
        OrphanFiles.Result result = OrphanFiles.remove(PaimonTable.load(catalog, Identifier.parse(ReferenceTables.APPEND_PARTITIONED.identifier())), Instant.now().minus(Duration.ofDays(1)));
        assertThat(result.deletedFiles()).isEmpty();
        assertThat(orphan).exists();
        assertThat(ReferenceReader.read(warehouse, ReferenceTables.APPEND_PARTITIONED.identifier()).rowCount())
                .isEqualTo((int) ReferenceTables.APPEND_PARTITIONED.expectedRowCount());
    }

    private Path tableDirectory(String identifier)
    {
        Identifier name = Identifier.parse(identifier);
        return warehouse.resolve(name.database() + ".db").resolve(name.table());
    }

    /**
     * Paimon's rows of every snapshot left, every tag and every branch.
     */
    private List<String> everyVersion(ReferenceTable table)
    {
        List<String> versions = new ArrayList<>();
        ReferenceScan latest = ReferenceScan.of(table.identifier());
        versions.add(ReferenceReader.read(warehouse, latest).text());
        for (ReferenceSnapshot snapshot : ReferenceTables.snapshots(warehouse, table.identifier())) {
            versions.add(ReferenceReader.read(warehouse, latest.atSnapshot(snapshot.id())).text());
        }
        table.tags().forEach(tag -> versions.add(ReferenceReader.read(warehouse, latest.atTag(tag)).text()));
        table.branches().forEach(branch -> versions.add(ReferenceReader.read(warehouse, latest.onBranch(branch)).text()));
        return versions;
    }

    private static void ageEveryFile(Path directory)
            throws IOException
    {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.filter(Files::isRegularFile).toList()) {
                Files.setLastModifiedTime(path, FileTime.from(LONG_AGO));
            }
        }
    }
}
