package io.tarn.storage.commit;

import io.tarn.storage.CorruptFileException;
import io.tarn.storage.MissingFileException;
import io.tarn.storage.fs.TablePaths;
import io.tarn.storage.manifest.DataFileMeta;
import io.tarn.storage.manifest.FileIdentifier;
import io.tarn.storage.manifest.FileKind;
import io.tarn.storage.manifest.IndexManifestEntry;
import io.tarn.storage.manifest.ManifestEntry;
import io.tarn.storage.manifest.ManifestFileMeta;
import io.tarn.storage.snapshot.BranchManager;
import io.tarn.storage.snapshot.Snapshot;
import io.tarn.storage.snapshot.Tag;
import io.tarn.storage.table.PaimonTable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads what snapshots reference; manifests are immutable, so each is read once.
 */
final class SnapshotReferences
{
    private final PaimonTable table;
    private final Map<String, List<ManifestFileMeta>> manifestLists = new HashMap<>();
    private final Map<String, List<ManifestEntry>> manifests = new HashMap<>();

    SnapshotReferences(PaimonTable table)
    {
        this.table = table;
    }

    /**
     * What every snapshot and every tag of every branch of {@code table} needs: branches share
     * the table's manifests and data files, so a file one branch still reads must survive the
     * clean-up of another.
     */
    static ReferencedFiles liveOnEveryBranch(PaimonTable table)
            throws IOException
    {
        ReferencedFiles live = new ReferencedFiles();
        List<String> branches = new ArrayList<>();
        branches.add(BranchManager.MAIN_BRANCH);
        branches.addAll(new BranchManager(table.fileIO(), table.location()).branches());
        for (String branchName : branches) {
            PaimonTable branch = branchName.equals(table.branch()) ? table : table.onBranch(branchName);
            SnapshotReferences references = new SnapshotReferences(branch);
            for (long id : branch.snapshotManager().listIds()) {
                references.addLive(branch.snapshotManager().snapshot(id), live);
            }
            for (String tag : branch.tagManager().tagNames()) {
                Optional<Tag> tagged = branch.tagManager().tag(tag);
                if (tagged.isPresent()) {
                    references.addLive(tagged.get().snapshot(), live);
                }
            }
        }
        return live;
    }

    /**
     * Everything a remaining snapshot or tag needs: its metadata files and its live data files.
     * A missing file here fails the run before anything else is deleted.
     */
    void addLive(Snapshot snapshot, ReferencedFiles files)
            throws IOException
    {
        Map<FileIdentifier, ManifestEntry> liveFiles = new LinkedHashMap<>();
        for (String list : List.of(snapshot.baseManifestList(), snapshot.deltaManifestList())) {
            files.metadataFiles.add(table.manifestPath(list));
            for (ManifestFileMeta manifest : manifestList(list, false)) {
                files.metadataFiles.add(table.manifestPath(manifest.fileName()));
                for (ManifestEntry entry : manifest(manifest.fileName(), false)) {
                    if (entry.kind() == FileKind.ADD) {
                        liveFiles.put(entry.identifier(), entry);
                    }
                    else {
                        liveFiles.remove(entry.identifier());
                    }
                }
            }
        }
        for (ManifestEntry entry : liveFiles.values()) {
            addDataFile(entry, files);
        }
        addChangelogAndIndexes(snapshot, files, false);
    }

    /**
     * Everything a removed snapshot referenced, including the files its manifests mark as
     * deleted. Files already gone are skipped: an earlier run may have been interrupted.
     */
    void addAll(Snapshot snapshot, ReferencedFiles files)
            throws IOException
    {
        for (String list : List.of(snapshot.baseManifestList(), snapshot.deltaManifestList())) {
            files.metadataFiles.add(table.manifestPath(list));
            for (ManifestFileMeta manifest : manifestList(list, true)) {
                files.metadataFiles.add(table.manifestPath(manifest.fileName()));
                for (ManifestEntry entry : manifest(manifest.fileName(), true)) {
                    addDataFile(entry, files);
                }
            }
        }
        addChangelogAndIndexes(snapshot, files, true);
    }

    private void addChangelogAndIndexes(Snapshot snapshot, ReferencedFiles files, boolean tolerateMissing)
            throws IOException
    {
        if (snapshot.changelogManifestList().isPresent()) {
            String list = snapshot.changelogManifestList().get();
            files.metadataFiles.add(table.manifestPath(list));
            for (ManifestFileMeta manifest : manifestList(list, tolerateMissing)) {
                files.metadataFiles.add(table.manifestPath(manifest.fileName()));
                for (ManifestEntry entry : manifest(manifest.fileName(), tolerateMissing)) {
                    addDataFile(entry, files);
                }
            }
        }
        if (snapshot.indexManifest().isPresent()) {
            String indexManifest = snapshot.indexManifest().get();
            files.metadataFiles.add(table.manifestPath(indexManifest));
            List<IndexManifestEntry> entries;
            try {
                entries = table.readIndexManifest(indexManifest);
            }
            catch (MissingFileException e) {
                if (!tolerateMissing) {
                    throw e;
                }
                entries = List.of();
            }
            for (IndexManifestEntry entry : entries) {
                files.metadataFiles.add(entry.externalPath().orElse(table.indexFilePath(entry.fileName())));
            }
        }
        if (snapshot.statistics().isPresent()) {
            String statistics = snapshot.statistics().get();
            if (!TablePaths.isPlainFileName(statistics)) {
                throw new CorruptFileException("Table %s: a snapshot names statistics file '%s', which is not a plain file name under %s/statistics".formatted(table.name(), statistics, table.location()));
            }
            files.metadataFiles.add(table.location() + "/statistics/" + statistics);
        }
    }

    private void addDataFile(ManifestEntry entry, ReferencedFiles files)
            throws IOException
    {
        DataFileMeta file = entry.file();
        files.dataFiles.add(table.dataFilePath(entry.partition(), entry.bucket(), file, file.fileName()));
        for (String extra : file.extraFiles()) {
            files.dataFiles.add(table.dataFilePath(entry.partition(), entry.bucket(), file, extra));
        }
    }

    private List<ManifestFileMeta> manifestList(String fileName, boolean tolerateMissing)
            throws IOException
    {
        List<ManifestFileMeta> cached = manifestLists.get(fileName);
        if (cached == null) {
            cached = readOrEmpty(() -> table.readManifestList(fileName), tolerateMissing);
            manifestLists.put(fileName, cached);
        }
        return cached;
    }

    private List<ManifestEntry> manifest(String fileName, boolean tolerateMissing)
            throws IOException
    {
        List<ManifestEntry> cached = manifests.get(fileName);
        if (cached == null) {
            cached = readOrEmpty(() -> table.readManifest(fileName), tolerateMissing);
            manifests.put(fileName, cached);
        }
        return cached;
    }

    private static <T> List<T> readOrEmpty(Reader<T> reader, boolean tolerateMissing)
            throws IOException
    {
        try {
            return reader.read();
        }
        catch (MissingFileException e) {
            if (!tolerateMissing) {
                throw e;
            }
            return List.of();
        }
    }

    private interface Reader<T>
    {
        List<T> read()
                throws IOException;
    }
}
