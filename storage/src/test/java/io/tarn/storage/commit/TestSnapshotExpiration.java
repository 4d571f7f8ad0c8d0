package io.tarn.storage.commit;

import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.snapshot.PaimonTables;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.TemporaryDirectories;
import io.tarn.testing.CanonicalRows;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.ReferenceScan;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.types.DataTypes;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Snapshot expiration and rollback delete exactly the files no remaining snapshot or tag needs:
 * the directory after Tarn's expiration equals the one after Apache Paimon's on a copy of the same
 * table, and Paimon still reads every remaining snapshot and tag.
 */
public class TestSnapshotExpiration
{
    private PaimonTables paimon;
    private FileSystemCatalog catalog;

    @BeforeClass
    public void setUp()
    {
        paimon = new PaimonTables();
        catalog = new FileSystemCatalog(new LocalFileIO(), paimon.warehouse());
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
            throws Exception
    {
        paimon.close();
    }

    @Test
    public void testExpireDeletesWhatPaimonDeletes()
            throws Exception
    {
        // a primary-key table whose full compaction replaces every earlier data file
        FileStoreTable table = paimon.create("keyed", Schema.newBuilder()
                .column("k", DataTypes.INT().notNull())
                .column("v", DataTypes.STRING())
                .primaryKey("k")
                .option("bucket", "1")
                .build());
        for (int i = 0; i < 3; i++) {
            paimon.write(table, GenericRow.of(i, BinaryString.fromString("a" + i)), GenericRow.of(10 + i, BinaryString.fromString("b" + i)));
        }
        table.createTag("t2", 2);
        paimon.compact(table);
        paimon.write(table, GenericRow.of(1, BinaryString.fromString("updated")));
        assertExpirationMatchesPaimon("keyed", 2);
    }

    @Test
    public void testExpireDeletesReplacedFilesAndTheirIndexFiles()
            throws Exception
    {
        // an append table whose overwrite replaces the files of the first commits, each with a Bloom-filter index file
        FileStoreTable table = paimon.create("appended", Schema.newBuilder()
                .column("k", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .option("bucket", "-1")
                .option("file-index.bloom-filter.columns", "v")
                .option("file-index.in-manifest-threshold", "1 b")
                .build());
        paimon.write(table, GenericRow.of(1, BinaryString.fromString("x")));
        paimon.write(table, GenericRow.of(2, BinaryString.fromString("y")));
        table.createTag("first", 1);
        overwrite(table, GenericRow.of(3, BinaryString.fromString("z")));
        paimon.write(table, GenericRow.of(4, BinaryString.fromString("w")));
        assertThat(files("appended").stream().filter(file -> file.endsWith(".index")).count()).isEqualTo(4);
        assertExpirationMatchesPaimon("appended", 1);
        // the tag keeps the first file and its index; the second commit's are gone
        assertThat(files("appended").stream().filter(file -> file.endsWith(".index")).count()).isEqualTo(3);
    }

    @Test
    public void testRollbackDeletesTheFilesOfTheRemovedSnapshots()
            throws Exception
    {
        FileStoreTable table = paimon.create("rolled", Schema.newBuilder()
                .column("k", DataTypes.INT())
                .option("bucket", "-1")
                .build());
        paimon.write(table, GenericRow.of(1));
        paimon.write(table, GenericRow.of(2));
        Set<String> afterSecond = files("rolled");
        paimon.write(table, GenericRow.of(3));
        paimon.write(table, GenericRow.of(4));
        table.createTag("at3", 3);

        SnapshotExpiration.Result result = SnapshotExpiration.rollbackTo(PaimonTable.load(catalog, new Identifier("db", "rolled")), 2);

        assertThat(result.removedSnapshots()).containsExactly(4L, 3L);
        // snapshot 4's data file and metadata are gone; the tag keeps snapshot 3's
        Set<String> expected = new TreeSet<>(afterSecond);
        expected.add("tag/tag-at3");
        Set<String> tagged = new TreeSet<>(files("rolled"));
        tagged.removeAll(expected);
        assertThat(tagged).allMatch(file -> file.startsWith("manifest/") || file.startsWith("bucket-0/"));
        assertThat(tagged.stream().filter(file -> file.startsWith("bucket-0/")).count()).isEqualTo(1);
        assertThat(result.deletedDataFiles()).isEqualTo(1);
        assertThat(ReferenceReader.read(Path.of(paimon.warehouse()), "db.rolled")).isEqualTo(CanonicalRows.of(List.of("1", "2")));
        assertThat(ReferenceReader.read(Path.of(paimon.warehouse()), ReferenceScan.of("db.rolled").atTag("at3"))).isEqualTo(CanonicalRows.of(List.of("1", "2", "3")));
        assertThat(ReferenceReader.read(Path.of(paimon.warehouse()), ReferenceScan.of("db.rolled").atSnapshot(1))).isEqualTo(CanonicalRows.of(List.of("1")));
    }

    private void assertExpirationMatchesPaimon(String name, int retain)
            throws Exception
    {
        Path warehouse = Path.of(paimon.warehouse());
        String copy = name + "_paimon";
        TemporaryDirectories.copyRecursively(Path.of(paimon.tableRoot(name)), Path.of(paimon.tableRoot(copy)));
        Map<String, CanonicalRows> before = new TreeMap<>();
        PaimonTable tarnTable = PaimonTable.load(catalog, new Identifier("db", name));
        for (long id : tarnTable.snapshotManager().listIds()) {
            before.put("snapshot " + id, ReferenceReader.read(warehouse, ReferenceScan.of("db." + name).atSnapshot(id)));
        }
        for (String tag : tarnTable.tagManager().tagNames()) {
            before.put("tag " + tag, ReferenceReader.read(warehouse, ReferenceScan.of("db." + name).atTag(tag)));
        }
        Set<String> all = files(name);

        PaimonTables.expireAllBut(paimon.table(copy), retain);
        SnapshotExpiration.Result result = SnapshotExpiration.expire(tarnTable, retain);

        Set<String> remaining = files(name);
        assertThat(remaining).isEqualTo(files(copy));
        assertThat(remaining).isNotEqualTo(all);
        assertThat(result.deletedDataFiles() + result.deletedMetadataFiles()).isGreaterThan(0);
        for (Map.Entry<String, CanonicalRows> entry : before.entrySet()) {
            String[] version = entry.getKey().split(" ");
            ReferenceScan scan = version[0].equals("tag")
                    ? ReferenceScan.of("db." + name).atTag(version[1])
                    : ReferenceScan.of("db." + name).atSnapshot(Long.parseLong(version[1]));
            if (version[0].equals("snapshot") && Long.parseLong(version[1]) <= result.removedSnapshots().get(result.removedSnapshots().size() - 1)) {
                continue;
            }
            assertThat(ReferenceReader.read(warehouse, scan)).as(entry.getKey()).isEqualTo(entry.getValue());
        }
    }

    private static void overwrite(FileStoreTable table, GenericRow row)
            throws Exception
    {
        BatchWriteBuilder builder = table.newBatchWriteBuilder().withOverwrite();
        try (BatchTableWrite write = builder.newWrite();
                BatchTableCommit commit = builder.newCommit()) {
            write.write(row);
            commit.commit(write.prepareCommit());
        }
    }

    /**
     * The regular files under a table, relative to it; directories left empty do not count.
     */
    private Set<String> files(String table)
            throws IOException
    {
        Path root = Path.of(paimon.tableRoot(table));
        try (Stream<Path> paths = Files.walk(root)) {
            return paths.filter(Files::isRegularFile)
                    .map(path -> root.relativize(path).toString())
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }
}
