package io.tarn.trino;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.manifest.DataFileMeta;
import io.tarn.storage.manifest.ManifestEntry;
import io.tarn.storage.manifest.ManifestFile;
import io.tarn.storage.manifest.ManifestFileMeta;
import io.tarn.storage.snapshot.Snapshot;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.CanonicalRows;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.TemporaryDirectories;
import io.trino.testing.DistributedQueryRunner;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * No option, name or metadata file makes Tarn read, write or delete outside the table directory.
 * The warehouse lies inside a larger directory with an "outside" sibling holding a victim file;
 * every test walks that larger directory (paths, sizes, modification times) before and after and
 * requires that nothing outside the warehouse changed.
 */
public class TestTarnPathContainment
{
    private static final ObjectMapper JSON = new ObjectMapper();

    private Path root;
    private Path warehouse;
    private Path outside;
    private Path victim;
    private DistributedQueryRunner runner;

    @BeforeClass
    public void setUp()
            throws Exception
    {
        root = TemporaryDirectories.create("tarn-trino-containment");
        // deep enough that '../../../../x' from a table directory still lands inside root
        warehouse = Files.createDirectories(root.resolve("x/y/warehouse"));
        outside = Files.createDirectories(root.resolve("outside"));
        victim = outside.resolve("victim.parquet");
        Files.write(victim, "not Tarn's to touch".getBytes(StandardCharsets.UTF_8));
        // no caches: the tests edit metadata files behind the connector's back
        runner = TarnQueryRunner.create(warehouse, Map.of("tarn.metadata-cache.size", "0", "tarn.manifest-cache.size", "0B"));
        runner.execute("CREATE SCHEMA tarn.s");
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        if (runner != null) {
            runner.close();
            runner = null;
        }
        if (root != null) {
            TemporaryDirectories.deleteRecursively(root);
            root = null;
        }
    }

    @Test
    public void testDataFilePathDirectoryOutsideTableIsRefused()
    {
        Map<String, String> before = walkOutsideWarehouse();
        List<String> escapes = List.of(
                "../../../../tmp/evil",
                "..",
                "../sibling",
                "data/../../t_escape",
                outside.resolve("absolute").toString(),
                outside.resolve("uri").toUri().toString(),
                "C:\\evil");
        for (int index = 0; index < escapes.size(); index++) {
            int i = index;
            String value = escapes.get(i).replace("'", "''");
            assertThatThrownBy(() -> runner.execute(
                    "CREATE TABLE tarn.s.escape_%s (id bigint) WITH (options = MAP(ARRAY['data-file.path-directory'], ARRAY['%s']))".formatted(i, value)))
                    .as(value)
                    .hasMessageContaining("data-file.path-directory")
                    .hasMessageMatching("(?s).*(leaves the table directory|must be a directory relative to the table directory).*");
            assertThatThrownBy(() -> runner.execute(
                    "CREATE TABLE tarn.s.escape_ctas_%s WITH (options = MAP(ARRAY['data-file.path-directory'], ARRAY['%s'])) AS SELECT 1 AS id".formatted(i, value)))
                    .as(value)
                    .hasMessageContaining("data-file.path-directory");
        }
        assertThat(runner.execute("SHOW TABLES FROM tarn.s LIKE 'escape%'").getRowCount()).isZero();
        assertThat(walkOutsideWarehouse()).isEqualTo(before);
    }

    @Test
    public void testDataFilePathDirectoryInsideTableKeepsWorking()
            throws IOException
    {
        Map<String, String> before = walkOutsideWarehouse();
        runner.execute("CREATE TABLE tarn.s.inside (id bigint, v varchar) WITH (options = MAP(ARRAY['data-file.path-directory'], ARRAY['./data//files/']))");
        runner.execute("INSERT INTO tarn.s.inside VALUES (1, 'a'), (2, NULL)");
        CanonicalRows expected = CanonicalRows.of(List.of("1\ta", "2\t\\N"));
        assertThat(ReferenceReader.read(warehouse, "s.inside")).isEqualTo(expected);
        assertThat(TrinoCanonicalRows.of(runner.execute("SELECT * FROM tarn.s.inside"))).isEqualTo(expected);
        try (Stream<Path> files = Files.list(warehouse.resolve("s.db/inside/data/files/bucket-0"))) {
            assertThat(files.map(file -> file.getFileName().toString())).anyMatch(name -> name.endsWith(".parquet"));
        }
        assertThat(walkOutsideWarehouse()).isEqualTo(before);
    }

    @Test
    public void testExternalPathsAndPathOptionAreRefused()
    {
        Map<String, String> before = walkOutsideWarehouse();
        String external = outside.toUri().toString();
        assertThatThrownBy(() -> runner.execute("""
                CREATE TABLE tarn.s.external (id bigint) WITH (options = MAP(
                    ARRAY['data-file.external-paths', 'data-file.external-paths.strategy'], ARRAY['%s', 'round-robin']))""".formatted(external)))
                .hasMessageContaining("data-file.external-paths")
                .hasMessageContaining("data files outside the table directory are not supported");
        assertThatThrownBy(() -> runner.execute(
                "CREATE TABLE tarn.s.external_strategy WITH (options = MAP(ARRAY['data-file.external-paths.strategy'], ARRAY['specific-fs'])) AS SELECT 1 AS id"))
                .hasMessageContaining("data-file.external-paths.strategy");
        assertThatThrownBy(() -> runner.execute(
                "CREATE TABLE tarn.s.custom_path (id bigint) WITH (options = MAP(ARRAY['path'], ARRAY['%s']))".formatted(outside)))
                .hasMessageContaining("sets option path")
                .hasMessageContaining("which is not its directory");
        assertThat(runner.execute("SHOW TABLES FROM tarn.s LIKE 'external%'").getRowCount()).isZero();
        assertThat(runner.execute("SHOW TABLES FROM tarn.s LIKE 'custom_path'").getRowCount()).isZero();
        assertThat(walkOutsideWarehouse()).isEqualTo(before);
    }

    @Test
    public void testTableSchemaAndTagNamesCannotEscape()
    {
        runner.execute("CREATE TABLE tarn.s.tagged AS SELECT 1 AS id");
        Map<String, String> before = walkOutsideWarehouse();
        for (String tag : List.of("../../../../../outside/tag", "a/b", "..", "x\\y")) {
            assertThatThrownBy(() -> runner.execute("CALL tarn.system.create_tag('s', 'tagged', '%s')".formatted(tag)))
                    .as(tag)
                    .hasMessageContaining("Tag name");
            assertThatThrownBy(() -> runner.execute("SELECT * FROM tarn.s.tagged FOR VERSION AS OF '%s'".formatted(tag)))
                    .as(tag)
                    .hasMessageContaining("Cannot read table s.tagged at tag")
                    .hasMessageContaining("Tag name");
        }
        for (String name : List.of("\"../../outside\"", "\"a/b\"", "\"..\"")) {
            assertThatThrownBy(() -> runner.execute("CREATE SCHEMA tarn." + name)).as(name).hasMessageContaining("Invalid database name");
            assertThatThrownBy(() -> runner.execute("CREATE TABLE tarn.s.%s (id bigint)".formatted(name))).as(name).hasMessageContaining("Invalid table name");
        }
        assertThat(walkOutsideWarehouse()).isEqualTo(before);
    }

    @Test
    public void testTamperedPathOptionsInSchemaFileAreRefusedOnRead()
            throws IOException
    {
        runner.execute("CREATE TABLE tarn.s.tampered_options (id bigint)");
        runner.execute("INSERT INTO tarn.s.tampered_options VALUES 1");
        Map<String, String> before = walkOutsideWarehouse();
        Path schemaFile = warehouse.resolve("s.db/tampered_options/schema/schema-0");
        byte[] original = Files.readAllBytes(schemaFile);

        editJson(schemaFile, schema -> {
            ((ObjectNode) schema.get("options")).put("data-file.path-directory", "../../../../outside/tampered");
            return schema;
        });
        assertThatThrownBy(() -> runner.execute("SELECT * FROM tarn.s.tampered_options"))
                .hasMessageContaining("schema file " + schemaFile)
                .hasMessageContaining("leaves the table directory");
        assertThatThrownBy(() -> runner.execute("INSERT INTO tarn.s.tampered_options VALUES 2"))
                .hasMessageContaining("schema file " + schemaFile);

        Files.write(schemaFile, original);
        editJson(schemaFile, schema -> {
            ((ObjectNode) schema.get("options")).put("data-file.external-paths", outside.toUri().toString());
            ((ObjectNode) schema.get("options")).put("data-file.external-paths.strategy", "round-robin");
            return schema;
        });
        assertThatThrownBy(() -> runner.execute("INSERT INTO tarn.s.tampered_options VALUES 2"))
                .hasMessageContaining("schema file " + schemaFile)
                .hasMessageContaining("data files outside the table directory are not supported");

        Files.write(schemaFile, original);
        editJson(schemaFile, schema -> {
            ((ObjectNode) schema.get("options")).put("path", outside.toString());
            return schema;
        });
        assertThatThrownBy(() -> runner.execute("SELECT * FROM tarn.s.tampered_options"))
                .hasMessageContaining("schema file " + schemaFile)
                .hasMessageContaining("sets option path");
        assertThat(walkOutsideWarehouse()).isEqualTo(before);

        // a table whose metadata is refused cannot be dropped through SQL either: it fails clearly
        assertThatThrownBy(() -> runner.execute("DROP TABLE tarn.s.tampered_options"))
                .hasMessageContaining("schema file " + schemaFile);
        assertThat(walkOutsideWarehouse()).isEqualTo(before);

        Files.write(schemaFile, original);
        runner.execute("DROP TABLE tarn.s.tampered_options");
        assertThat(warehouse.resolve("s.db/tampered_options")).doesNotExist();
        assertThat(walkOutsideWarehouse()).isEqualTo(before);
    }

    @Test
    public void testTamperedManifestListNameInSnapshotIsRefused()
            throws IOException
    {
        runner.execute("CREATE TABLE tarn.s.tampered_snapshot (id bigint)");
        runner.execute("INSERT INTO tarn.s.tampered_snapshot VALUES 1");
        runner.execute("INSERT INTO tarn.s.tampered_snapshot VALUES 2");
        Map<String, String> before = walkOutsideWarehouse();
        Path snapshotFile = warehouse.resolve("s.db/tampered_snapshot/snapshot/snapshot-2");
        editJson(snapshotFile, snapshot -> ((ObjectNode) snapshot).put("deltaManifestList", "../../../../../../outside/victim.parquet"));

        assertThatThrownBy(() -> runner.execute("SELECT * FROM tarn.s.tampered_snapshot"))
                .hasMessageContaining("Cannot plan table s.tampered_snapshot")
                .hasMessageContaining("'../../../../../../outside/victim.parquet'")
                .hasMessageContaining("not a plain file name");
        // rolling back deletes what only snapshot 2 referenced: it must refuse, not follow the name
        assertThatThrownBy(() -> runner.execute("CALL tarn.system.rollback_to('s', 'tampered_snapshot', 1)"))
                .hasMessageContaining("not a plain file name");
        assertThat(walkOutsideWarehouse()).isEqualTo(before);
    }

    @Test
    public void testTamperedDataFileNameInManifestIsRefused()
            throws IOException
    {
        runner.execute("CREATE TABLE tarn.s.tampered_name (id bigint)");
        runner.execute("INSERT INTO tarn.s.tampered_name VALUES 1");
        runner.execute("INSERT INTO tarn.s.tampered_name VALUES 2");
        Map<String, String> before = walkOutsideWarehouse();
        // from <table>/bucket-0 up to root, then into outside
        Path manifest = tamperDeltaManifest("tampered_name", 2, file -> withName(file, "../../../../../../outside/victim.parquet"));

        assertThatThrownBy(() -> runner.execute("SELECT * FROM tarn.s.tampered_name"))
                .hasMessageContaining(manifest.toString())
                .hasMessageContaining("'../../../../../../outside/victim.parquet'")
                .hasMessageContaining("not a plain file name");
        assertThatThrownBy(() -> runner.execute("CALL tarn.system.rollback_to('s', 'tampered_name', 1)"))
                .hasMessageContaining("not a plain file name");
        assertThatThrownBy(() -> runner.execute("CALL tarn.system.expire_snapshots('s', 'tampered_name', 1)"))
                .hasMessageContaining("not a plain file name");
        assertThat(walkOutsideWarehouse()).isEqualTo(before);
    }

    @Test
    public void testTamperedExternalPathInManifestIsRefused()
            throws IOException
    {
        runner.execute("CREATE TABLE tarn.s.tampered_external (id bigint)");
        runner.execute("INSERT INTO tarn.s.tampered_external VALUES 1");
        runner.execute("INSERT INTO tarn.s.tampered_external VALUES 2");
        Map<String, String> before = walkOutsideWarehouse();
        Path manifest = tamperDeltaManifest("tampered_external", 2, file -> withExternalPath(file, victim.toString()));

        assertThatThrownBy(() -> runner.execute("SELECT * FROM tarn.s.tampered_external"))
                .hasMessageContaining(manifest.toString())
                .hasMessageContaining("external path " + victim)
                .hasMessageContaining("outside the table directory");
        assertThatThrownBy(() -> runner.execute("CALL tarn.system.rollback_to('s', 'tampered_external', 1)"))
                .hasMessageContaining("external path " + victim);
        assertThat(walkOutsideWarehouse()).isEqualTo(before);
        assertThat(victim).exists();
    }

    @Test
    public void testDropTableDeletesLinksNotWhatTheyPointTo()
            throws IOException
    {
        Path linkedDirectory = Files.createDirectories(outside.resolve("linked"));
        Files.writeString(linkedDirectory.resolve("kept"), "outside the table");
        runner.execute("CREATE TABLE tarn.s.linked AS SELECT 1 AS id");
        Path table = warehouse.resolve("s.db/linked");
        Files.createSymbolicLink(table.resolve("bucket-0/linked-directory"), linkedDirectory);
        Files.createSymbolicLink(table.resolve("linked-file"), victim);
        Map<String, String> before = walkOutsideWarehouse();

        runner.execute("DROP TABLE tarn.s.linked");
        assertThat(table).doesNotExist();
        assertThat(linkedDirectory.resolve("kept")).hasContent("outside the table");
        assertThat(walkOutsideWarehouse()).isEqualTo(before);
    }

    private Path tamperDeltaManifest(String table, long snapshotId, UnaryOperator<DataFileMeta> change)
            throws IOException
    {
        FileSystemCatalog catalog = new FileSystemCatalog(new LocalFileIO(), warehouse.toString(), 0);
        PaimonTable paimonTable = PaimonTable.load(catalog, new Identifier("s", table));
        Snapshot snapshot = paimonTable.snapshotManager().snapshot(snapshotId);
        List<ManifestFileMeta> manifests = paimonTable.readManifestList(snapshot.deltaManifestList());
        assertThat(manifests).hasSize(1);
        Path manifest = Path.of(paimonTable.manifestPath(manifests.get(0).fileName()));
        List<ManifestEntry> entries = new ArrayList<>();
        for (ManifestEntry entry : ManifestFile.read(Files.readAllBytes(manifest), manifest.getFileName().toString())) {
            entries.add(new ManifestEntry(entry.kind(), entry.partition(), entry.bucket(), entry.totalBuckets(), change.apply(entry.file())));
        }
        Files.write(manifest, ManifestFile.write(entries));
        return manifest;
    }

    private static DataFileMeta withName(DataFileMeta file, String name)
    {
        return new DataFileMeta(name, file.fileSize(), file.rowCount(), file.minKey(), file.maxKey(), file.keyStats(), file.valueStats(),
                file.minSequenceNumber(), file.maxSequenceNumber(), file.schemaId(), file.level(), file.extraFiles(), file.creationTime(),
                file.deleteRowCount(), file.embeddedIndex(), file.fileSource(), file.valueStatsCols(), file.externalPath(), file.firstRowId(), file.writeCols());
    }

    private static DataFileMeta withExternalPath(DataFileMeta file, String externalPath)
    {
        return new DataFileMeta(file.fileName(), file.fileSize(), file.rowCount(), file.minKey(), file.maxKey(), file.keyStats(), file.valueStats(),
                file.minSequenceNumber(), file.maxSequenceNumber(), file.schemaId(), file.level(), file.extraFiles(), file.creationTime(),
                file.deleteRowCount(), file.embeddedIndex(), file.fileSource(), file.valueStatsCols(), java.util.Optional.of(externalPath), file.firstRowId(), file.writeCols());
    }

    private static void editJson(Path file, UnaryOperator<com.fasterxml.jackson.databind.JsonNode> change)
            throws IOException
    {
        Files.write(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(change.apply(JSON.readTree(file.toFile()))));
    }

    /**
     * Every path under {@code root} but outside the warehouse, with its size and modification time;
     * root itself included, so that a new sibling of the warehouse shows.
     */
    private Map<String, String> walkOutsideWarehouse()
    {
        Map<String, String> entries = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.filter(path -> !path.startsWith(warehouse)).toList()) {
                BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
                entries.put(root.relativize(path).toString(), (attributes.isDirectory() ? "dir" : attributes.size()) + "@" + attributes.lastModifiedTime().toMillis());
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(entries).containsKey("outside/victim.parquet");
        return entries;
    }
}
