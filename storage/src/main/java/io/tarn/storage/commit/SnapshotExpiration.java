package io.tarn.storage.commit;

import io.tarn.storage.snapshot.Snapshot;
import io.tarn.storage.snapshot.SnapshotManager;
import io.tarn.storage.table.PaimonTable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * Removes snapshots of a table and then the files only they referenced, as Paimon's snapshot
 * expiration does: data files and their extra files (file indexes), manifests, manifest lists
 * (base, delta, changelog), index manifests and their index files, and statistics files.
 *
 * <p>A file is deleted only if a removed snapshot referenced it and no remaining snapshot or tag
 * of any branch does (branches share the table's files); for a remaining snapshot or a tag, the referenced data files are those its
 * manifests leave live (an {@code ADD} not cancelled by a {@code DELETE}). Files no removed snapshot
 * knows of, such as those of a commit in progress, are never touched. The snapshot files go
 * first, so an interrupted run leaves orphans, never a snapshot whose files are gone.
 */
public final class SnapshotExpiration
{
    private SnapshotExpiration() {}

    /**
     * What a run removed: the snapshot ids and the counts of deleted data files (with their extra
     * files) and of deleted metadata files (manifests, manifest lists, index and statistics files).
     */
    public record Result(List<Long> removedSnapshots, int deletedDataFiles, int deletedMetadataFiles)
    {
        public Result
        {
            removedSnapshots = List.copyOf(requireNonNull(removedSnapshots, "removedSnapshots is null"));
        }
    }

    /**
     * Keeps the newest {@code retainLast} snapshots and removes the older ones, oldest first, then
     * rewrites the {@code EARLIEST} hint and deletes the files no remaining snapshot or tag
     * references.
     */
    public static Result expire(PaimonTable table, int retainLast)
            throws IOException
    {
        if (retainLast < 1) {
            throw new IllegalArgumentException("retainLast must be at least 1: " + retainLast);
        }
        SnapshotManager snapshots = table.snapshotManager();
        List<Long> ids = snapshots.listIds();
        List<Long> removed = ids.subList(0, Math.max(0, ids.size() - retainLast));
        if (removed.isEmpty()) {
            return new Result(List.of(), 0, 0);
        }
        ReferencedFiles candidates = candidates(table, read(snapshots, removed));
        for (long id : removed) {
            table.fileIO().delete(snapshots.snapshotPath(id));
        }
        writeHint(table, "EARLIEST", ids.get(removed.size()));
        return deleteUnreferenced(table, removed, candidates);
    }

    /**
     * Makes {@code snapshotId} the latest snapshot again: the later snapshot files are deleted,
     * newest first, so that an interrupted rollback still leaves a consistent history, the
     * {@code LATEST} hint is rewritten (Paimon trusts it when the next snapshot does not exist), and
     * the files only the removed snapshots referenced are deleted.
     */
    public static Result rollbackTo(PaimonTable table, long snapshotId)
            throws IOException
    {
        SnapshotManager snapshots = table.snapshotManager();
        Snapshot target = snapshots.snapshot(snapshotId);
        List<Long> removed = snapshots.listIds().stream()
                .filter(id -> id > target.id())
                .sorted((left, right) -> Long.compare(right, left))
                .toList();
        ReferencedFiles candidates = candidates(table, read(snapshots, removed));
        for (long id : removed) {
            table.fileIO().delete(snapshots.snapshotPath(id));
        }
        writeHint(table, "LATEST", target.id());
        return deleteUnreferenced(table, removed, candidates);
    }

    private static List<Snapshot> read(SnapshotManager snapshots, List<Long> ids)
            throws IOException
    {
        List<Snapshot> result = new ArrayList<>();
        for (long id : ids) {
            result.add(snapshots.snapshot(id));
        }
        return result;
    }

    /**
     * Everything the removed snapshots reference, read before any snapshot file is deleted: a
     * metadata file naming a path outside the table fails the run while the history is intact.
     */
    private static ReferencedFiles candidates(PaimonTable table, List<Snapshot> removedSnapshots)
            throws IOException
    {
        // its own reader: a manifest tolerated as missing here must not count as empty for the live set
        SnapshotReferences references = new SnapshotReferences(table);
        ReferencedFiles candidates = new ReferencedFiles();
        for (Snapshot snapshot : removedSnapshots) {
            references.addAll(snapshot, candidates);
        }
        return candidates;
    }

    private static Result deleteUnreferenced(PaimonTable table, List<Long> removed, ReferencedFiles candidates)
            throws IOException
    {
        // what the remaining history of every branch still needs, read after the snapshot files are gone
        ReferencedFiles live = SnapshotReferences.liveOnEveryBranch(table);
        int dataFiles = 0;
        for (String path : candidates.dataFiles) {
            if (!live.dataFiles.contains(path) && table.fileIO().delete(path)) {
                dataFiles++;
            }
        }
        int metadataFiles = 0;
        for (String path : candidates.metadataFiles) {
            if (!live.metadataFiles.contains(path) && table.fileIO().delete(path)) {
                metadataFiles++;
            }
        }
        return new Result(removed, dataFiles, metadataFiles);
    }

    private static void writeHint(PaimonTable table, String hint, long id)
            throws IOException
    {
        String snapshotPath = table.snapshotManager().snapshotPath(id);
        String directory = snapshotPath.substring(0, snapshotPath.lastIndexOf('/'));
        table.fileIO().writeFile(directory + "/" + hint, Long.toString(id).getBytes(UTF_8), true);
    }
}
