package io.tarn.storage.scan;

import io.tarn.storage.CorruptFileException;
import io.tarn.storage.InvalidNameException;
import io.tarn.storage.MissingFileException;
import io.tarn.storage.SnapshotNotFoundException;
import io.tarn.storage.TableNotFoundException;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.snapshot.Snapshot;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.ReferenceTables;
import io.tarn.testing.TemporaryDirectories;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Broken tables fail planning with Tarn's own exceptions, naming the table and the file and the
 * cause. Each test breaks its own copy of a table Apache Paimon wrote.
 */
public class TestScanErrors
{
    private Path warehouse;
    private FileSystemCatalog catalog;

    @BeforeClass
    public void createTable()
            throws IOException
    {
        warehouse = TemporaryDirectories.create("tarn-scan-errors");
        ReferenceTables.create(warehouse, ReferenceTables.APPEND_PARTITIONED);
        catalog = new FileSystemCatalog(new LocalFileIO(), warehouse.toString());
    }

    @AfterClass(alwaysRun = true)
    public void deleteTable()
    {
        TemporaryDirectories.deleteRecursively(warehouse);
    }

    @Test
    public void testMissingManifest()
            throws IOException
    {
        PaimonTable table = copy("missing_manifest");
        Snapshot snapshot = table.snapshotManager().latest().orElseThrow();
        String manifest = table.readManifestList(snapshot.deltaManifestList()).get(0).fileName();
        Files.delete(Path.of(table.manifestPath(manifest)));

        assertThatThrownBy(() -> plan(table))
                .isInstanceOf(MissingFileException.class)
                .hasMessageContaining("ref.missing_manifest")
                .hasMessageContaining(manifest);
    }

    @Test
    public void testTruncatedManifest()
            throws IOException
    {
        PaimonTable table = copy("truncated_manifest");
        Path manifest = firstManifest(table);
        byte[] bytes = Files.readAllBytes(manifest);
        Files.write(manifest, Arrays.copyOf(bytes, bytes.length / 2));

        assertThatThrownBy(() -> plan(table))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("ref." + table.identifier().table())
                .hasMessageContaining(manifest.getFileName().toString());
    }

    @Test
    public void testCorruptManifestBlock()
            throws IOException
    {
        PaimonTable table = copy("corrupt_manifest");
        Path manifest = firstManifest(table);
        byte[] bytes = Files.readAllBytes(manifest);
        // past the header and schema: inside the compressed data block
        for (int i = bytes.length - 40; i < bytes.length - 20; i++) {
            bytes[i] ^= (byte) 0x5A;
        }
        Files.write(manifest, bytes);

        assertThatThrownBy(() -> plan(table))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("ref." + table.identifier().table())
                .hasMessageContaining(manifest.getFileName().toString());
    }

    @Test
    public void testSnapshotWithoutRequiredKey()
            throws IOException
    {
        PaimonTable table = copy("snapshot_without_key");
        long id = table.snapshotManager().latestId().orElseThrow();
        Path snapshotFile = Path.of(table.snapshotManager().snapshotPath(id));
        String json = Files.readString(snapshotFile, StandardCharsets.UTF_8);
        Files.writeString(snapshotFile, json.replaceFirst("\"baseManifestList\" : \"[^\"]*\",", ""), StandardCharsets.UTF_8);

        assertThatThrownBy(() -> plan(table))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("snapshot-" + id)
                .hasMessageContaining("baseManifestList");
    }

    @Test
    public void testSnapshotThatDoesNotExist()
            throws IOException
    {
        PaimonTable table = table("append_partitioned");
        assertThatThrownBy(() -> table.snapshot(new ScanVersion.SnapshotId(999)))
                .isInstanceOf(SnapshotNotFoundException.class)
                .hasMessageContaining("999");
    }

    @Test
    public void testUnknownTableAndBadNames()
    {
        assertThatThrownBy(() -> table("no_such_table"))
                .isInstanceOf(TableNotFoundException.class)
                .hasMessageContaining("no_such_table");
        assertThatThrownBy(() -> table("..")).isInstanceOf(InvalidNameException.class);
        assertThatThrownBy(() -> PaimonTable.load(catalog, new Identifier("ref", "a/b"))).isInstanceOf(InvalidNameException.class);
        assertThatThrownBy(() -> PaimonTable.load(catalog, Identifier.parse("../etc.passwd"))).isInstanceOf(InvalidNameException.class);
    }

    private static ScanPlan plan(PaimonTable table)
            throws IOException
    {
        return new ScanPlanner(table).plan(table.snapshot(new ScanVersion.Latest()));
    }

    private Path firstManifest(PaimonTable table)
            throws IOException
    {
        Snapshot snapshot = table.snapshotManager().latest().orElseThrow();
        return Path.of(table.manifestPath(table.readManifestList(snapshot.baseManifestList()).get(0).fileName()));
    }

    private PaimonTable copy(String name)
            throws IOException
    {
        Path source = warehouse.resolve("ref.db/append_partitioned");
        Path target = warehouse.resolve("ref.db/" + name);
        TemporaryDirectories.copyRecursively(source, target);
        return table(name);
    }

    private PaimonTable table(String name)
            throws IOException
    {
        return PaimonTable.load(catalog, new Identifier("ref", name));
    }

}
