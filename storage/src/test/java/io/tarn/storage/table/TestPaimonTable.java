package io.tarn.storage.table;

import io.tarn.storage.CorruptFileException;
import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.binary.BinaryRow;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.manifest.DataFileMeta;
import io.tarn.storage.manifest.FileKind;
import io.tarn.storage.manifest.IndexManifestEntry;
import io.tarn.storage.manifest.IndexManifestFile;
import io.tarn.storage.manifest.ManifestEntry;
import io.tarn.storage.manifest.ManifestFile;
import io.tarn.storage.manifest.ManifestFileMeta;
import io.tarn.storage.manifest.ManifestListFile;
import io.tarn.storage.snapshot.PaimonTables;
import io.tarn.storage.snapshot.Snapshot;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataTypes;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Names read from a table's metadata files never leave the table directory: each tampered file
 * is refused with an error naming the table and the file.
 */
public class TestPaimonTable
{
    private PaimonTables paimon;
    private FileSystemCatalog catalog;
    private Path tableRoot;

    @BeforeMethod
    public void setUp()
            throws Exception
    {
        paimon = new PaimonTables();
        FileStoreTable table = paimon.create("t", Schema.newBuilder().column("a", DataTypes.INT()).build());
        paimon.write(table, GenericRow.of(1));
        tableRoot = Path.of(paimon.tableRoot("t"));
        catalog = new FileSystemCatalog(new LocalFileIO(), paimon.warehouse(), 0);
    }

    @AfterMethod(alwaysRun = true)
    public void tearDown()
            throws Exception
    {
        paimon.close();
    }

    @Test
    public void testSchemaPathOptionsAreCheckedWhenRead()
            throws Exception
    {
        Path schemaFile = tableRoot.resolve("schema/schema-0");
        String original = Files.readString(schemaFile);
        assertThat(original).contains("\"options\" : { }");

        Files.writeString(schemaFile, original.replace("\"options\" : { }", "\"options\" : { \"data-file.path-directory\" : \"../../elsewhere\" }"));
        assertThatThrownBy(() -> load())
                .isInstanceOf(CorruptFileException.class)
                .hasMessageStartingWith("Table db.t: schema file " + schemaFile)
                .hasMessageContaining("leaves the table directory");

        Files.writeString(schemaFile, original.replace("\"options\" : { }", "\"options\" : { \"data-file.external-paths\" : \"file:/elsewhere\" }"));
        assertThatThrownBy(() -> load())
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageStartingWith("Table db.t: schema file " + schemaFile)
                .hasMessageContaining("data files outside the table directory are not supported");

        Files.writeString(schemaFile, original.replace("\"options\" : { }", "\"options\" : { \"data-file.path-directory\" : \"./data/\" }"));
        PaimonTable table = load();
        assertThat(table.dataDirectory(BinaryRow.EMPTY, 0, table.schema())).isEqualTo(tableRoot + "/data/bucket-0");
    }

    @Test
    public void testManifestFileNamesAreChecked()
            throws Exception
    {
        PaimonTable table = load();
        Snapshot snapshot = table.snapshotManager().latest().orElseThrow();
        String listName = snapshot.deltaManifestList();
        Path list = Path.of(table.manifestPath(listName));
        List<ManifestFileMeta> manifests = table.readManifestList(listName);
        ManifestFileMeta first = manifests.get(0);
        Files.write(list, ManifestListFile.write(List.of(new ManifestFileMeta("../../../elsewhere", first.fileSize(), first.numAddedFiles(),
                first.numDeletedFiles(), first.partitionStats(), first.schemaId(), first.minBucket(), first.maxBucket(), first.minLevel(), first.maxLevel()))));
        assertThatThrownBy(() -> load().readManifestList(listName))
                .isInstanceOf(CorruptFileException.class)
                .hasMessage("Table db.t: %s names manifest file '../../../elsewhere', which is not a plain file name inside the table directory %s".formatted(list, tableRoot));
        assertThatThrownBy(() -> table.manifestPath("../x")).isInstanceOf(CorruptFileException.class).hasMessageContaining("'../x'");
        assertThatThrownBy(() -> table.indexFilePath("a/b")).isInstanceOf(CorruptFileException.class).hasMessageContaining("'a/b'");
    }

    @Test
    public void testDataFileNamesAndExternalPathsAreChecked()
            throws Exception
    {
        assertRefused(file -> copy(file, "../../elsewhere.parquet", file.extraFiles(), file.externalPath()), CorruptFileException.class, "data file '../../elsewhere.parquet'");
        assertRefused(file -> copy(file, file.fileName(), List.of("../x.index"), file.externalPath()), CorruptFileException.class, "extra file '../x.index'");
        assertRefused(file -> copy(file, file.fileName(), file.extraFiles(), Optional.of("/elsewhere/data.parquet")), UnsupportedTableFeatureException.class,
                "at external path /elsewhere/data.parquet, outside the table directory");
        assertRefused(file -> copy(file, file.fileName(), file.extraFiles(), Optional.of(tableRoot + "/bucket-0/../../x.parquet")), UnsupportedTableFeatureException.class,
                "outside the table directory");
    }

    @Test
    public void testIndexFileNamesAreChecked()
            throws Exception
    {
        PaimonTable table = load();
        String name = "index-manifest-tampered";
        Path indexManifest = Path.of(table.manifestPath(name));
        Files.write(indexManifest, IndexManifestFile.write(List.of(new IndexManifestEntry(FileKind.ADD, BinaryRow.EMPTY, 0, IndexManifestEntry.DELETION_VECTORS_INDEX,
                "../../elsewhere", 10, 1, Optional.empty(), Optional.empty()))));
        assertThatThrownBy(() -> table.readIndexManifest(name))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining(indexManifest.toString())
                .hasMessageContaining("index file '../../elsewhere'");
        Files.delete(indexManifest);
        Files.write(indexManifest, IndexManifestFile.write(List.of(new IndexManifestEntry(FileKind.ADD, BinaryRow.EMPTY, 0, IndexManifestEntry.DELETION_VECTORS_INDEX,
                "index-1", 10, 1, Optional.empty(), Optional.of("/elsewhere/index-1")))));
        assertThatThrownBy(() -> load().readIndexManifest(name))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("external path /elsewhere/index-1");
    }

    private void assertRefused(UnaryOperator<DataFileMeta> change, Class<? extends Exception> type, String message)
            throws Exception
    {
        PaimonTable table = load();
        Snapshot snapshot = table.snapshotManager().latest().orElseThrow();
        String manifestName = table.readManifestList(snapshot.deltaManifestList()).get(0).fileName();
        Path manifest = Path.of(table.manifestPath(manifestName));
        byte[] original = Files.readAllBytes(manifest);
        List<ManifestEntry> entries = ManifestFile.read(original, manifestName).stream()
                .map(entry -> new ManifestEntry(entry.kind(), entry.partition(), entry.bucket(), entry.totalBuckets(), change.apply(entry.file())))
                .toList();
        Files.write(manifest, ManifestFile.write(entries));
        try {
            assertThatThrownBy(() -> load().readManifest(manifestName))
                    .isInstanceOf(type)
                    .hasMessageStartingWith("Table db.t: " + manifest)
                    .hasMessageContaining(message);
            assertThatThrownBy(() -> load().readManifest(manifestName, (kind, partition, bucket, totalBuckets) -> true))
                    .isInstanceOf(type);
        }
        finally {
            Files.write(manifest, original);
        }
        assertThat(load().readManifest(manifestName)).hasSize(1);
    }

    private static DataFileMeta copy(DataFileMeta file, String name, List<String> extraFiles, Optional<String> externalPath)
    {
        return new DataFileMeta(name, file.fileSize(), file.rowCount(), file.minKey(), file.maxKey(), file.keyStats(), file.valueStats(),
                file.minSequenceNumber(), file.maxSequenceNumber(), file.schemaId(), file.level(), extraFiles, file.creationTime(),
                file.deleteRowCount(), file.embeddedIndex(), file.fileSource(), file.valueStatsCols(), externalPath, file.firstRowId(), file.writeCols());
    }

    private PaimonTable load()
            throws Exception
    {
        return PaimonTable.load(catalog, new Identifier("db", "t"));
    }
}
