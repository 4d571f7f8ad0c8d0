package io.tarn.storage.table;

import io.tarn.storage.CorruptFileException;
import io.tarn.storage.MissingFileException;
import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.fs.ContainedFileIO;
import io.tarn.storage.fs.FileIO;
import io.tarn.storage.fs.TablePaths;
import io.tarn.storage.manifest.DataFileMeta;
import io.tarn.storage.manifest.IndexManifestEntry;
import io.tarn.storage.manifest.IndexManifestFile;
import io.tarn.storage.manifest.ManifestCache;
import io.tarn.storage.manifest.ManifestEntry;
import io.tarn.storage.manifest.ManifestEntryFilter;
import io.tarn.storage.manifest.ManifestFile;
import io.tarn.storage.manifest.ManifestFileMeta;
import io.tarn.storage.manifest.ManifestListFile;
import io.tarn.storage.snapshot.SnapshotStatistics;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The reader of a table's files under {@code manifest/} (manifest lists, manifests and index
 * manifests) and {@code statistics/}, through the catalog's cache of decoded metadata. Every file name they hold is
 * checked to stay inside the table directory before anyone builds a path from it, and failures
 * name the table once as well as the file.
 */
final class MetadataFiles
{
    private final FileIO fileIO;
    private final String location;
    private final String tableName;
    private final ManifestCache manifestCache;

    MetadataFiles(FileIO fileIO, String location, String tableName, ManifestCache manifestCache)
    {
        this.fileIO = requireNonNull(fileIO, "fileIO is null");
        this.location = requireNonNull(location, "location is null");
        this.tableName = requireNonNull(tableName, "tableName is null");
        this.manifestCache = requireNonNull(manifestCache, "manifestCache is null");
    }

    List<ManifestFileMeta> readManifestList(String fileName)
            throws IOException
    {
        return readCachedMetadata(fileName, (bytes, name) -> {
            List<ManifestFileMeta> manifests = ManifestListFile.read(bytes, name);
            for (ManifestFileMeta manifest : manifests) {
                checkFileName(manifestPath(name), "manifest file", manifest.fileName());
            }
            return manifests;
        });
    }

    List<ManifestEntry> readManifest(String fileName)
            throws IOException
    {
        return readCachedMetadata(fileName, (bytes, name) -> checkEntries(name, ManifestFile.read(bytes, name)));
    }

    /**
     * The entries of a manifest that {@code filter} accepts (null: all). A manifest not in the
     * catalog's cache is decoded whole to be kept, else only the entries accepted are decoded.
     */
    List<ManifestEntry> readManifest(String fileName, ManifestEntryFilter filter)
            throws IOException
    {
        if (filter == null) {
            return readManifest(fileName);
        }
        if (!manifestCache.enabled()) {
            return readMetadata(fileName, (bytes, name) -> checkEntries(name, ManifestFile.read(bytes, name, filter)));
        }
        List<ManifestEntry> accepted = new ArrayList<>();
        for (ManifestEntry entry : readManifest(fileName)) {
            if (filter.test(entry.kind(), entry.partition(), entry.bucket(), entry.totalBuckets())
                    && (!filter.testsLevel() || filter.testLevel(entry.kind(), entry.file().level()))) {
                accepted.add(entry);
            }
        }
        return accepted;
    }

    List<IndexManifestEntry> readIndexManifest(String fileName)
            throws IOException
    {
        return readCachedMetadata(fileName, (bytes, name) -> {
            List<IndexManifestEntry> entries = IndexManifestFile.read(bytes, name);
            for (IndexManifestEntry entry : entries) {
                checkFileName(manifestPath(name), "index file", entry.fileName());
                if (entry.externalPath().isPresent()) {
                    checkExternalPath(manifestPath(name), entry.fileName(), entry.externalPath().get());
                }
            }
            return entries;
        });
    }

    /**
     * The statistics file {@code fileName} under {@code statistics/}, through the cache: planners
     * ask for it several times while planning one query.
     */
    SnapshotStatistics readStatistics(String fileName)
            throws IOException
    {
        if (!TablePaths.isPlainFileName(fileName)) {
            throw new CorruptFileException("Table %s: a snapshot names statistics file '%s', which is not a plain file name under %s/statistics"
                    .formatted(tableName, fileName.replace("\0", "\\0"), location));
        }
        String path = location + "/statistics/" + fileName;
        List<SnapshotStatistics> statistics = manifestCache.get(path, () -> {
            byte[] bytes = readBytes(path);
            return new ManifestCache.Loaded<>(parse(bytes, fileName, (json, name) -> List.of(SnapshotStatistics.fromJson(json, name))), bytes.length);
        });
        return statistics.get(0);
    }

    /**
     * The data files a manifest names stay inside the table: plain file names, and an external
     * path only when it lies inside the table directory.
     */
    private List<ManifestEntry> checkEntries(String manifestName, List<ManifestEntry> entries)
            throws IOException
    {
        String manifest = manifestPath(manifestName);
        for (ManifestEntry entry : entries) {
            DataFileMeta file = entry.file();
            checkFileName(manifest, "data file", file.fileName());
            for (String extra : file.extraFiles()) {
                checkFileName(manifest, "extra file", extra);
            }
            if (file.externalPath().isPresent()) {
                checkExternalPath(manifest, file.fileName(), file.externalPath().get());
            }
        }
        return entries;
    }

    private void checkFileName(String referencingFile, String kind, String fileName)
            throws CorruptFileException
    {
        if (!TablePaths.isPlainFileName(fileName)) {
            throw new CorruptFileException("Table %s: %s names %s '%s', which is not a plain file name inside the table directory %s"
                    .formatted(tableName, referencingFile, kind, fileName.replace("\0", "\\0"), location));
        }
    }

    // an external data path is supported only inside the table directory
    void checkExternalPath(String referencingFile, String fileName, String externalPath)
            throws UnsupportedTableFeatureException
    {
        if (!ContainedFileIO.isInside(location, externalPath)) {
            throw new UnsupportedTableFeatureException("Table %s: %s places file %s at external path %s, outside the table directory %s; external data paths are not supported"
                    .formatted(tableName, referencingFile, fileName, externalPath.replace("\0", "\\0"), location));
        }
    }

    /**
     * The path of a file under {@code manifest/} (manifest lists, manifests, index manifests).
     *
     * @throws CorruptFileException if the name, as read from a snapshot or manifest list, is not
     * one plain file name
     */
    String manifestPath(String fileName)
            throws CorruptFileException
    {
        if (!TablePaths.isPlainFileName(fileName)) {
            throw new CorruptFileException("Table %s: metadata names file '%s' under %s/manifest, which is not a plain file name".formatted(tableName, fileName.replace("\0", "\\0"), location));
        }
        return location + "/manifest/" + fileName;
    }

    /**
     * Reads a file under {@code manifest/}; failures name this table as well as the file.
     */
    private <T> List<T> readCachedMetadata(String fileName, MetadataParser<List<T>> parser)
            throws IOException
    {
        return manifestCache.get(manifestPath(fileName), () -> {
            byte[] bytes = readMetadataBytes(fileName);
            return new ManifestCache.Loaded<>(parse(bytes, fileName, parser), bytes.length);
        });
    }

    private <T> T readMetadata(String fileName, MetadataParser<T> parser)
            throws IOException
    {
        return parse(readMetadataBytes(fileName), fileName, parser);
    }

    private byte[] readMetadataBytes(String fileName)
            throws IOException
    {
        return readBytes(manifestPath(fileName));
    }

    private byte[] readBytes(String path)
            throws IOException
    {
        try {
            return fileIO.newInputFile(path).readAllBytes();
        }
        catch (MissingFileException e) {
            throw new MissingFileException("Table " + tableName + ": metadata file " + path + " does not exist", e);
        }
    }

    private <T> T parse(byte[] bytes, String fileName, MetadataParser<T> parser)
            throws IOException
    {
        try {
            return parser.parse(bytes, fileName);
        }
        catch (CorruptFileException e) {
            if (namesThisTable(e)) {
                throw e;
            }
            throw new CorruptFileException("Table " + tableName + ": " + e.getMessage(), e);
        }
        catch (UnsupportedTableFeatureException e) {
            if (namesThisTable(e)) {
                throw e;
            }
            throw new UnsupportedTableFeatureException("Table " + tableName + ": " + e.getMessage(), e);
        }
    }

    // the checks of names read from metadata already say which table
    private boolean namesThisTable(IOException e)
    {
        return e.getMessage() != null && e.getMessage().startsWith("Table " + tableName + ": ");
    }

    private interface MetadataParser<T>
    {
        T parse(byte[] bytes, String fileName)
                throws IOException;
    }
}
