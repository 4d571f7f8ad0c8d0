package io.tarn.storage.manifest;

import io.tarn.storage.CorruptFileException;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.ReferenceTables;
import io.tarn.testing.TemporaryDirectories;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestManifestCache
{
    @Test
    public void testKeepsDecodedFilesUpToItsBound()
            throws IOException
    {
        // each file of 100 stored bytes weighs 800: three fit in 2,400
        ManifestCache cache = new ManifestCache(2_400);
        List<String> loads = new ArrayList<>();
        for (String path : List.of("a", "b", "c", "a", "b", "c")) {
            assertThat(cache.get(path, loader(path, loads))).containsExactly(path);
        }
        assertThat(loads).containsExactly("a", "b", "c");
        assertThat(cache.bytes()).isEqualTo(2_400);

        // a fourth pushes out the least recently used: "a"
        cache.get("d", loader("d", loads));
        cache.get("b", loader("b", loads));
        cache.get("a", loader("a", loads));
        assertThat(loads).containsExactly("a", "b", "c", "d", "a");
        assertThat(cache.bytes()).isEqualTo(2_400);
    }

    @Test
    public void testKeepsNothingWhenDisabledOrTooLarge()
            throws IOException
    {
        List<String> loads = new ArrayList<>();
        ManifestCache disabled = new ManifestCache(0);
        assertThat(disabled.enabled()).isFalse();
        disabled.get("a", loader("a", loads));
        disabled.get("a", loader("a", loads));
        ManifestCache small = new ManifestCache(799);
        small.get("b", loader("b", loads));
        small.get("b", loader("b", loads));
        assertThat(loads).containsExactly("a", "a", "b", "b");
        assertThat(small.bytes()).isZero();
    }

    @Test
    public void testFailedLoadIsNotKept()
            throws IOException
    {
        ManifestCache cache = new ManifestCache(10_000);
        assertThatThrownBy(() -> cache.get("a", () -> {
            throw new IOException("corrupt");
        })).hasMessage("corrupt");
        List<String> loads = new ArrayList<>();
        assertThat(cache.get("a", loader("a", loads))).containsExactly("a");
        assertThat(loads).containsExactly("a");
    }

    @Test
    public void testTablesOfOneCatalogShareDecodedManifests()
            throws IOException
    {
        Path warehouse = TemporaryDirectories.create("tarn-manifest-cache");
        try {
            ReferenceTables.create(warehouse, ReferenceTables.APPEND_PARTITIONED);
            Identifier identifier = Identifier.parse(ReferenceTables.APPEND_PARTITIONED.identifier());
            FileSystemCatalog catalog = new FileSystemCatalog(new LocalFileIO(), warehouse.toString());
            List<String> planned = plannedFiles(PaimonTable.load(catalog, identifier));
            assertThat(planned).isNotEmpty();
            assertThat(catalog.manifestCache().bytes()).isPositive();

            // every manifest list and manifest overwritten: the catalog still has them decoded,
            // a new catalog reads them again and finds them corrupt
            try (Stream<Path> files = Files.list(warehouse.resolve(identifier.database() + ".db").resolve(identifier.table()).resolve("manifest"))) {
                for (Path file : files.toList()) {
                    Files.write(file, new byte[] {1, 2, 3});
                }
            }
            assertThat(plannedFiles(PaimonTable.load(catalog, identifier))).isEqualTo(planned);
            FileSystemCatalog fresh = new FileSystemCatalog(new LocalFileIO(), warehouse.toString());
            assertThatThrownBy(() -> plannedFiles(PaimonTable.load(fresh, identifier))).isInstanceOf(CorruptFileException.class);
        }
        finally {
            TemporaryDirectories.deleteRecursively(warehouse);
        }
    }

    private static List<String> plannedFiles(PaimonTable table)
            throws IOException
    {
        ScanPlan plan = new ScanPlanner(table).plan(table.snapshot(new ScanVersion.Latest()));
        return plan.files().stream().map(file -> file.file().fileName()).sorted().toList();
    }

    private static ManifestCache.Loader<String> loader(String path, List<String> loads)
    {
        return () -> {
            loads.add(path);
            return new ManifestCache.Loaded<>(List.of(path), 100);
        };
    }
}
