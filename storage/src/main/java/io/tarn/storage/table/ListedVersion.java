package io.tarn.storage.table;

import io.tarn.storage.SnapshotNotFoundException;
import io.tarn.storage.fs.FileIO;
import io.tarn.storage.fs.FileStatus;
import io.tarn.storage.schema.SchemaManager;
import io.tarn.storage.snapshot.Snapshot;
import io.tarn.storage.snapshot.SnapshotManager;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * A branch's latest snapshot and newest schema id from one listing of its metadata files, where
 * the storage answers that in one request (an object store; see
 * {@link FileIO#listFilesInOneRequest}). The snapshot and schema directories both lie under the
 * prefix {@code <branch root>/s}, so one request finds both latest ids where the {@code LATEST}
 * hint and the existence checks take four, and the latest snapshot is read only when its content
 * tag differs from that of the snapshot read last. Snapshot files are never rewritten in place,
 * but a rollback may delete one and a later commit create its id again: with other content, and
 * so another tag.
 */
final class ListedVersion
{
    private final FileIO fileIO;
    private final String prefix;
    private final SnapshotManager snapshotManager;
    private final SchemaManager schemaManager;
    // false once a listing did not fit one request (or the storage has none): the hint is used then
    private volatile boolean listable = true;
    private volatile TaggedSnapshot lastRead;

    ListedVersion(FileIO fileIO, String branchRoot, SnapshotManager snapshotManager, SchemaManager schemaManager)
    {
        this.fileIO = requireNonNull(fileIO, "fileIO is null");
        this.prefix = requireNonNull(branchRoot, "branchRoot is null") + "/s";
        this.snapshotManager = requireNonNull(snapshotManager, "snapshotManager is null");
        this.schemaManager = requireNonNull(schemaManager, "schemaManager is null");
    }

    /**
     * The latest snapshot (empty when the branch has none) and the newest schema id (empty when
     * the branch has no schema file); empty when one request cannot tell, or when the latest
     * snapshot listed was gone by the time it was read.
     */
    Optional<Listing> list()
            throws IOException
    {
        if (!listable) {
            return Optional.empty();
        }
        Optional<List<FileStatus>> files = fileIO.listFilesInOneRequest(prefix);
        if (files.isEmpty()) {
            listable = false;
            return Optional.empty();
        }
        FileStatus latestSnapshotFile = null;
        long latestSnapshotId = -1;
        long newestSchemaId = -1;
        for (FileStatus file : files.get()) {
            Optional<Long> snapshotId = snapshotManager.listedId(file);
            if (snapshotId.isPresent() && snapshotId.get() > latestSnapshotId) {
                latestSnapshotId = snapshotId.get();
                latestSnapshotFile = file;
            }
            newestSchemaId = Math.max(newestSchemaId, schemaManager.listedId(file).orElse(-1L));
        }
        OptionalLong schemaId = newestSchemaId < 0 ? OptionalLong.empty() : OptionalLong.of(newestSchemaId);
        if (latestSnapshotFile == null) {
            return Optional.of(new Listing(Optional.empty(), schemaId));
        }
        try {
            return Optional.of(new Listing(Optional.of(snapshot(latestSnapshotId, latestSnapshotFile.contentTag())), schemaId));
        }
        catch (SnapshotNotFoundException e) {
            // deleted since the listing (a rollback): the hint and a fresh listing tell the latest
            return Optional.empty();
        }
    }

    private Snapshot snapshot(long id, Optional<String> tag)
            throws IOException
    {
        TaggedSnapshot last = lastRead;
        if (last != null && tag.isPresent() && last.snapshot().id() == id && last.tag().equals(tag.get())) {
            return last.snapshot();
        }
        Snapshot snapshot = snapshotManager.snapshot(id);
        // read after the listing: if the file changed in between, the tag kept is older than
        // its content, so the next listing's tag differs and the snapshot is read again
        tag.ifPresent(listedTag -> lastRead = new TaggedSnapshot(snapshot, listedTag));
        return snapshot;
    }

    record Listing(Optional<Snapshot> latestSnapshot, OptionalLong newestSchemaId)
    {
        Listing
        {
            requireNonNull(latestSnapshot, "latestSnapshot is null");
            requireNonNull(newestSchemaId, "newestSchemaId is null");
        }
    }

    private record TaggedSnapshot(Snapshot snapshot, String tag) {}
}
