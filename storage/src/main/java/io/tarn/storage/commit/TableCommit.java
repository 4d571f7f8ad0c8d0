package io.tarn.storage.commit;

import io.tarn.storage.CommitConflictException;
import io.tarn.storage.CorruptFileException;
import io.tarn.storage.MissingFileException;
import io.tarn.storage.binary.BinaryRow;
import io.tarn.storage.manifest.FileIdentifier;
import io.tarn.storage.manifest.FileKind;
import io.tarn.storage.manifest.ManifestEntry;
import io.tarn.storage.manifest.ManifestFile;
import io.tarn.storage.manifest.ManifestFileMeta;
import io.tarn.storage.manifest.ManifestListFile;
import io.tarn.storage.schema.TableOptions;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.snapshot.CommitKind;
import io.tarn.storage.snapshot.Snapshot;
import io.tarn.storage.snapshot.SnapshotStatistics;
import io.tarn.storage.table.PaimonTable;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongFunction;
import java.util.function.Predicate;

import static java.util.Objects.requireNonNull;

/**
 * Commits a set of file changes as the next snapshot of a table, in Paimon's format: a delta
 * manifest with the changes, a base manifest list naming every manifest of the previous
 * snapshot, a delta manifest list naming the new manifest, and {@code snapshot-N} created
 * atomically (creation fails if another writer took N).
 *
 * <p>A writer that loses the race re-reads the latest snapshot and tries again with N + 1. Before
 * each attempt the changes are computed and checked against that snapshot: a DELETE of a file
 * that is no longer live means another commit removed it first, which no retry can fix. Files
 * written by an attempt that lost are deleted; any left behind by a crash are never referenced
 * and are orphans for a later clean-up. In a table that tracks rows, each attempt gives the files
 * it adds row ids from the snapshot it follows ({@link RowIdAssignment}).
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
        if (changes.isEmpty()) {
            throw new IllegalArgumentException("Nothing to commit to table " + table.name());
        }
        boolean deletes = changes.stream().anyMatch(change -> change.kind() == FileKind.DELETE);
        return commit(liveFiles -> changes, deletes, kind, commitIdentifier, Optional.empty());
    }

    /**
     * Replaces every live file whose partition {@code partitionScope} accepts with {@code adds}, as
     * one OVERWRITE snapshot. The files to remove are taken from the snapshot the commit lands on,
     * so files that a concurrent commit added to those partitions are replaced too.
     */
    public Snapshot overwrite(List<ManifestEntry> adds, Predicate<BinaryRow> partitionScope, long commitIdentifier)
            throws IOException
    {
        requireNonNull(adds, "adds is null");
        requireNonNull(partitionScope, "partitionScope is null");
        return commit(liveFiles -> {
            List<ManifestEntry> changes = new ArrayList<>();
            for (ManifestEntry live : liveFiles) {
                if (partitionScope.test(live.partition())) {
                    changes.add(new ManifestEntry(FileKind.DELETE, live.partition(), live.bucket(), live.totalBuckets(), live.file()));
                }
            }
            changes.addAll(adds);
            return changes;
        }, true, CommitKind.OVERWRITE, commitIdentifier, Optional.empty());
    }

    /**
     * Dynamic partition overwrite: replaces the live files of exactly the partitions that
     * {@code adds} write to, leaving every other partition as it is.
     */
    public Snapshot overwritePartitionsOf(List<ManifestEntry> adds, long commitIdentifier)
            throws IOException
    {
        Set<BinaryRow> partitions = new HashSet<>();
        adds.forEach(add -> partitions.add(add.partition()));
        return overwrite(adds, partitions::contains, commitIdentifier);
    }

    /**
     * Commits {@code statistics} as an ANALYZE snapshot that changes no file, as Paimon's
     * {@code commitStatistics} does. Later commits carry the statistics on until the schema
     * changes. A commit that lands between the computation and this one does not make it fail:
     * the statistics name the snapshot they were computed on.
     */
    public Snapshot commitStatistics(SnapshotStatistics statistics, long commitIdentifier)
            throws IOException
    {
        requireNonNull(statistics, "statistics is null");
        return commit(liveFiles -> List.of(), false, CommitKind.ANALYZE, commitIdentifier, Optional.of(snapshotId -> statistics));
    }

    /**
     * Commits {@code adds} (ADD entries only) as one APPEND snapshot that also names
     * {@code statistics}, computed over the table's rows after these files (the first data of a
     * table created with them, as CREATE TABLE AS writes it); their snapshot id becomes the id
     * the commit lands on.
     */
    public Snapshot commitWithStatistics(List<ManifestEntry> adds, SnapshotStatistics statistics, long commitIdentifier)
            throws IOException
    {
        requireNonNull(adds, "adds is null");
        requireNonNull(statistics, "statistics is null");
        if (adds.isEmpty() || adds.stream().anyMatch(add -> add.kind() != FileKind.ADD)) {
            throw new IllegalArgumentException("Table " + table.name() + ": statistics are committed with added files only, and at least one");
        }
        return commit(liveFiles -> adds, false, CommitKind.APPEND, commitIdentifier, Optional.of(statistics::withSnapshotId));
    }

    private interface ChangeSet
    {
        List<ManifestEntry> changes(List<ManifestEntry> liveFiles);
    }

    /**
     * @param needsLiveFiles whether the change set deletes files: only then are the live files
     * of the latest snapshot read (pure appends cannot conflict)
     */
    /**
     * @param newStatistics the statistics the new snapshot names, given the id it lands on; a
     * file is written for each attempt
     */
    private Snapshot commit(ChangeSet changeSet, boolean needsLiveFiles, CommitKind kind, long commitIdentifier, Optional<LongFunction<SnapshotStatistics>> newStatistics)
            throws IOException
    {
        requireNonNull(kind, "kind is null");
        TableSchema schema = table.latestSchema();
        boolean rowTracking = new TableOptions(table.name(), schema.options()).rowTrackingEnabled();
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            Optional<Snapshot> latest = table.snapshotManager().latest();
            List<ManifestFileMeta> baseManifests = new ArrayList<>();
            if (latest.isPresent()) {
                baseManifests.addAll(table.readManifestList(latest.get().baseManifestList()));
                baseManifests.addAll(table.readManifestList(latest.get().deltaManifestList()));
            }
            List<ManifestEntry> liveFiles = needsLiveFiles ? liveFiles(baseManifests) : List.of();
            List<ManifestEntry> changes = changeSet.changes(liveFiles);
            checkDeletesAreLive(changes, liveFiles);
            if (changes.isEmpty() && newStatistics.isEmpty()) {
                throw new IllegalArgumentException("Nothing to commit to table " + table.name());
            }
            long id = latest.map(snapshot -> snapshot.id() + 1).orElse(1L);
            long nextRowId = latest.flatMap(Snapshot::nextRowId).orElse(0L);
            if (rowTracking) {
                RowIdAssignment assignment = RowIdAssignment.assign(changes, id, nextRowId);
                changes = assignment.changes();
                nextRowId = assignment.nextRowId();
            }
            // a statistics-only commit names no delta manifest, as Paimon's does
            Optional<String> deltaManifest = changes.isEmpty() ? Optional.empty() : Optional.of(newFileName("manifest-"));
            List<ManifestFileMeta> deltaManifests = new ArrayList<>();
            if (deltaManifest.isPresent()) {
                byte[] deltaManifestBytes = ManifestFile.write(changes);
                table.fileIO().writeFile(table.manifestPath(deltaManifest.get()), deltaManifestBytes, false);
                deltaManifests.add(ManifestMetaBuilder.build(deltaManifest.get(), deltaManifestBytes.length, changes, schema.partitionType(), schema.id()));
            }
            long deltaRecords = recordDelta(changes);
            Optional<String> statisticsFile = Optional.empty();
            if (newStatistics.isPresent()) {
                statisticsFile = Optional.of(newFileName("stat-"));
                table.fileIO().writeFile(statisticsPath(statisticsFile.get()), newStatistics.get().apply(id).toJson().getBytes(StandardCharsets.UTF_8), false);
            }
            WrittenFile baseList = writeManifestList(baseManifests);
            WrittenFile deltaList = writeManifestList(deltaManifests);
            long previousTotal = latest.flatMap(Snapshot::totalRecordCount).orElse(0L);
            Snapshot snapshot = new Snapshot(
                    Snapshot.CURRENT_VERSION,
                    id,
                    schema.id(),
                    baseList.name(),
                    Optional.of(baseList.size()),
                    deltaList.name(),
                    Optional.of(deltaList.size()),
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
                    statisticsFile.isPresent() ? statisticsFile : inheritedStatistics(latest, schema),
                    Optional.empty(),
                    Optional.of(nextRowId));
            if (table.snapshotManager().tryCommit(snapshot)) {
                return snapshot;
            }
            // another writer took this id: what this attempt wrote is an orphan now
            table.fileIO().delete(table.manifestPath(baseList.name()));
            table.fileIO().delete(table.manifestPath(deltaList.name()));
            if (deltaManifest.isPresent()) {
                table.fileIO().delete(table.manifestPath(deltaManifest.get()));
            }
            if (statisticsFile.isPresent()) {
                table.fileIO().delete(statisticsPath(statisticsFile.get()));
            }
        }
        throw new CommitConflictException("Table " + table.name() + ": gave up committing after " + MAX_ATTEMPTS + " attempts lost to concurrent commits");
    }

    /**
     * The statistics file a new snapshot carries on from {@code latest}: only while the schema
     * is the one the statistics were computed under, as Paimon decides, since a column's
     * statistics say nothing once its type or meaning may have changed. A statistics file that
     * cannot be read is not carried on.
     */
    private Optional<String> inheritedStatistics(Optional<Snapshot> latest, TableSchema schema)
            throws IOException
    {
        if (latest.isEmpty()) {
            return Optional.empty();
        }
        Optional<SnapshotStatistics> statistics;
        try {
            statistics = table.statistics(latest.get());
        }
        catch (CorruptFileException | MissingFileException e) {
            // statistics only guide planners: a broken file must not stop writes, and is not carried on
            return Optional.empty();
        }
        if (statistics.isEmpty() || statistics.get().schemaId() != schema.id()) {
            return Optional.empty();
        }
        return latest.get().statistics();
    }

    private List<ManifestEntry> liveFiles(List<ManifestFileMeta> manifests)
            throws IOException
    {
        Map<FileIdentifier, ManifestEntry> live = new LinkedHashMap<>();
        for (ManifestFileMeta manifest : manifests) {
            for (ManifestEntry entry : table.readManifest(manifest.fileName())) {
                if (entry.kind() == FileKind.ADD) {
                    live.put(entry.identifier(), entry);
                }
                else {
                    live.remove(entry.identifier());
                }
            }
        }
        return new ArrayList<>(live.values());
    }

    private void checkDeletesAreLive(List<ManifestEntry> changes, List<ManifestEntry> liveFiles)
            throws CommitConflictException
    {
        Set<FileIdentifier> live = new HashSet<>();
        liveFiles.forEach(entry -> live.add(entry.identifier()));
        for (ManifestEntry change : changes) {
            if (change.kind() == FileKind.DELETE && !live.contains(change.identifier())) {
                throw new CommitConflictException("Table " + table.name() + ": file " + change.file().fileName() + " (bucket " + change.bucket()
                        + ", level " + change.file().level() + ") was removed by another commit; this commit deletes it too");
            }
        }
    }

    private WrittenFile writeManifestList(List<ManifestFileMeta> manifests)
            throws IOException
    {
        String name = newFileName("manifest-list-");
        byte[] bytes = ManifestListFile.write(manifests);
        table.fileIO().writeFile(table.manifestPath(name), bytes, false);
        return new WrittenFile(name, bytes.length);
    }

    private record WrittenFile(String name, long size) {}

    private String statisticsPath(String fileName)
    {
        return table.location() + "/statistics/" + fileName;
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
