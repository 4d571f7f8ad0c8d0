package io.tarn.storage.commit;

import io.tarn.storage.CommitConflictException;
import io.tarn.storage.manifest.FileIdentifier;
import io.tarn.storage.manifest.FileKind;
import io.tarn.storage.manifest.ManifestEntry;
import io.tarn.storage.manifest.ManifestFile;
import io.tarn.storage.manifest.ManifestFileMeta;
import io.tarn.storage.manifest.ManifestListFile;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.snapshot.CommitKind;
import io.tarn.storage.snapshot.Snapshot;
import io.tarn.storage.table.PaimonTable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import static java.util.Objects.requireNonNull;

/**
 * Commits a set of file changes as the next snapshot of a table, in Paimon's format: a delta
 * manifest with the changes, a base manifest list naming every manifest of the previous
 * snapshot, a delta manifest list naming the new manifest, and {@code snapshot-N} created
 * atomically (creation fails if another writer took N).
 *
 * <p>A writer that loses the race re-reads the latest snapshot and tries again with N + 1. Before
 * each attempt the changes are checked against that snapshot: a DELETE of a file that is no
 * longer live means another commit removed it first, which no retry can fix. Files written by an
 * attempt that lost are never referenced; they are orphans for a later clean-up.
 */
public final class TableCommit
{
    private static final int MAX_ATTEMPTS = 100;

    private final PaimonTable table;
    private final String commitUser;
    private final String fileUuid = UUID.randomUUID().toString();
    private final AtomicInteger fileCounter = new AtomicInteger();

    public TableCommit(PaimonTable table, String commitUser)
    {
        this.table = requireNonNull(table, "table is null");
        this.commitUser = requireNonNull(commitUser, "commitUser is null");
    }

    /**
     * Commits {@code changes} (ADD and DELETE entries) as one snapshot and returns it.
     *
     * @throws CommitConflictException if a DELETE names a file that is not live any more
     */
    public Snapshot commit(List<ManifestEntry> changes, CommitKind kind, long commitIdentifier)
            throws IOException
    {
        requireNonNull(changes, "changes is null");
        requireNonNull(kind, "kind is null");
        if (changes.isEmpty()) {
            throw new IllegalArgumentException("Nothing to commit to table " + table.name());
        }
        TableSchema schema = table.latestSchema();
        String deltaManifest = newFileName("manifest-");
        byte[] deltaManifestBytes = ManifestFile.write(changes);
        table.fileIO().writeFile(table.manifestPath(deltaManifest), deltaManifestBytes, false);
        ManifestFileMeta deltaMeta = ManifestMetaBuilder.build(deltaManifest, deltaManifestBytes.length, changes, schema.partitionType(), schema.id());
        long deltaRecords = recordDelta(changes);

        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            Optional<Snapshot> latest = table.snapshotManager().latest();
            List<ManifestFileMeta> baseManifests = new ArrayList<>();
            if (latest.isPresent()) {
                baseManifests.addAll(table.readManifestList(latest.get().baseManifestList()));
                baseManifests.addAll(table.readManifestList(latest.get().deltaManifestList()));
                checkDeletesAreLive(changes, baseManifests);
            }
            else {
                checkDeletesAreLive(changes, List.of());
            }
            String baseList = writeManifestList(baseManifests);
            String deltaList = writeManifestList(List.of(deltaMeta));
            long id = latest.map(snapshot -> snapshot.id() + 1).orElse(1L);
            long previousTotal = latest.flatMap(Snapshot::totalRecordCount).orElse(0L);
            Snapshot snapshot = new Snapshot(
                    Snapshot.CURRENT_VERSION,
                    id,
                    schema.id(),
                    baseList,
                    Optional.of(fileSize(baseList)),
                    deltaList,
                    Optional.of(fileSize(deltaList)),
                    Optional.empty(),
                    Optional.empty(),
                    latest.flatMap(Snapshot::indexManifest),
                    commitUser,
                    commitIdentifier,
                    kind,
                    System.currentTimeMillis(),
                    Optional.of(Map.of()),
                    Optional.of(previousTotal + deltaRecords),
                    Optional.of(deltaRecords),
                    Optional.of(0L),
                    latest.flatMap(Snapshot::watermark),
                    latest.flatMap(Snapshot::statistics),
                    Optional.empty(),
                    Optional.of(latest.flatMap(Snapshot::nextRowId).orElse(0L)));
            if (table.snapshotManager().tryCommit(snapshot)) {
                return snapshot;
            }
            // another writer took this id: its manifest lists are theirs, ours are orphans now
            table.fileIO().delete(table.manifestPath(baseList));
            table.fileIO().delete(table.manifestPath(deltaList));
        }
        throw new CommitConflictException("Table " + table.name() + ": gave up committing after " + MAX_ATTEMPTS + " attempts lost to concurrent commits");
    }

    private void checkDeletesAreLive(List<ManifestEntry> changes, List<ManifestFileMeta> baseManifests)
            throws IOException
    {
        List<ManifestEntry> deletes = changes.stream().filter(entry -> entry.kind() == FileKind.DELETE).toList();
        if (deletes.isEmpty()) {
            return;
        }
        Set<FileIdentifier> live = new HashSet<>();
        for (ManifestFileMeta manifest : baseManifests) {
            for (ManifestEntry entry : table.readManifest(manifest.fileName())) {
                if (entry.kind() == FileKind.ADD) {
                    live.add(entry.identifier());
                }
                else {
                    live.remove(entry.identifier());
                }
            }
        }
        for (ManifestEntry delete : deletes) {
            if (!live.contains(delete.identifier())) {
                throw new CommitConflictException("Table " + table.name() + ": file " + delete.file().fileName() + " (bucket " + delete.bucket()
                        + ", level " + delete.file().level() + ") was removed by another commit; this commit deletes it too");
            }
        }
    }

    private String writeManifestList(List<ManifestFileMeta> manifests)
            throws IOException
    {
        String name = newFileName("manifest-list-");
        table.fileIO().writeFile(table.manifestPath(name), ManifestListFile.write(manifests), false);
        return name;
    }

    private long fileSize(String manifestName)
            throws IOException
    {
        return table.fileIO().newInputFile(table.manifestPath(manifestName)).length();
    }

    private String newFileName(String prefix)
    {
        return prefix + fileUuid + "-" + fileCounter.getAndIncrement();
    }

    private static long recordDelta(List<ManifestEntry> changes)
    {
        long delta = 0;
        for (ManifestEntry entry : changes) {
            delta += entry.kind() == FileKind.ADD ? entry.file().rowCount() : -entry.file().rowCount();
        }
        return delta;
    }
}
