package io.tarn.storage.commit;

import io.tarn.storage.fs.FileStatus;
import io.tarn.storage.table.PaimonTable;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * Deletes the files of a table that no snapshot, tag or branch references and that are older
 * than a given instant, as Paimon's {@code remove_orphan_files} does: what a writer killed before
 * its commit uploaded, or what an interrupted expiration left. Only the directories of files that
 * commits write are searched (data and changelog files below partition and bucket directories,
 * {@code manifest/}, {@code index/}, {@code statistics/}); schemas, snapshots, tags and branches'
 * metadata are never touched.
 * <p>
 * The files are listed first and what the table references is read after, so that a commit that
 * lands in between references only files newer than the listing or files already live. A file
 * newer than {@code olderThan} is kept: it may belong to a commit in progress. Reading any
 * snapshot, tag or manifest that fails stops the run before anything is deleted.
 */
public final class OrphanFiles
{
    // directories below the table root that hold files a commit references
    private static final Set<String> METADATA_DIRECTORIES = Set.of("manifest", "index", "statistics");
    // directories that hold schemas, snapshots, tags, branches and other state, never searched
    private static final Set<String> KEPT_DIRECTORIES = Set.of("schema", "snapshot", "tag", "branch", "consumer", "service", "changelog");

    private OrphanFiles() {}

    /**
     * What a run deleted: the paths, data files and metadata files alike.
     */
    public record Result(List<String> deletedFiles)
    {
        public Result
        {
            deletedFiles = List.copyOf(requireNonNull(deletedFiles, "deletedFiles is null"));
        }
    }

    public static Result remove(PaimonTable table, Instant olderThan)
            throws IOException
    {
        requireNonNull(table, "table is null");
        requireNonNull(olderThan, "olderThan is null");
        List<FileStatus> candidates = new ArrayList<>();
        for (FileStatus entry : table.fileIO().list(table.location())) {
            if (entry.directory() && !entry.symbolicLink() && !KEPT_DIRECTORIES.contains(entry.name())
                    && (METADATA_DIRECTORIES.contains(entry.name()) || isDataDirectory(entry.name()))) {
                collectFiles(table, entry.path(), olderThan, candidates);
            }
        }
        if (candidates.isEmpty()) {
            return new Result(List.of());
        }

        ReferencedFiles live = SnapshotReferences.liveOnEveryBranch(table);

        List<String> deleted = new ArrayList<>();
        for (FileStatus candidate : candidates) {
            String path = candidate.path();
            if (!live.dataFiles.contains(path) && !live.metadataFiles.contains(path) && table.fileIO().delete(path)) {
                deleted.add(path);
            }
        }
        return new Result(deleted);
    }

    /**
     * A partition directory ({@code k=v}) or a bucket directory ({@code bucket-N}).
     */
    private static boolean isDataDirectory(String name)
    {
        return name.indexOf('=') > 0 || name.matches("bucket-(postpone|-?[0-9]+)");
    }

    private static void collectFiles(PaimonTable table, String directory, Instant olderThan, List<FileStatus> files)
            throws IOException
    {
        for (FileStatus entry : table.fileIO().list(directory)) {
            if (entry.symbolicLink()) {
                // a link may point outside the table: never followed, never deleted
                continue;
            }
            if (entry.directory()) {
                collectFiles(table, entry.path(), olderThan, files);
            }
            else if (entry.modificationTimeMillis() < olderThan.toEpochMilli()) {
                files.add(entry);
            }
        }
    }
}
