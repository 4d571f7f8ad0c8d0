package io.tarn.storage.table;

import io.tarn.storage.SnapshotNotFoundException;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.snapshot.Snapshot;
import io.tarn.storage.snapshot.SnapshotManager;
import io.tarn.storage.snapshot.Tag;
import io.tarn.storage.snapshot.TagManager;

import java.io.IOException;
import java.time.Instant;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Resolves a {@link ScanVersion} to a snapshot the way Paimon's time travel does. A tag resolves
 * to the snapshot copy inside the tag file, so it stays readable after the snapshot expired.
 */
final class SnapshotResolver
{
    private final SnapshotManager snapshots;
    private final TagManager tags;

    SnapshotResolver(SnapshotManager snapshots, TagManager tags)
    {
        this.snapshots = requireNonNull(snapshots, "snapshots is null");
        this.tags = requireNonNull(tags, "tags is null");
    }

    /**
     * The snapshot {@code version} designates; empty only for {@link ScanVersion.Latest} on a
     * table without snapshots. Everything else that designates nothing is a
     * {@link SnapshotNotFoundException}.
     */
    Optional<Snapshot> resolve(ScanVersion version)
            throws IOException
    {
        requireNonNull(version, "version is null");
        if (version instanceof ScanVersion.Latest) {
            return snapshots.latest();
        }
        if (version instanceof ScanVersion.SnapshotId snapshotId) {
            return Optional.of(snapshots.snapshot(snapshotId.id()));
        }
        if (version instanceof ScanVersion.TagName tagName) {
            return Optional.of(tag(tagName.name()));
        }
        if (version instanceof ScanVersion.TimestampMillis timestamp) {
            return Optional.of(atOrBefore(timestamp.millis()));
        }
        if (version instanceof ScanVersion.Version named) {
            String text = named.version();
            Optional<Tag> tag = text.isBlank() ? Optional.empty() : tags.tag(text);
            if (tag.isPresent()) {
                return Optional.of(tag.get().snapshot());
            }
            if (!text.isEmpty() && text.length() <= 18 && text.chars().allMatch(c -> c >= '0' && c <= '9')) {
                return Optional.of(snapshots.snapshot(Long.parseLong(text)));
            }
            throw new SnapshotNotFoundException("Version '%s' of %s is neither a tag nor a snapshot id; tags are %s".formatted(text, snapshots.tableDescription(), tags.tagNames()));
        }
        throw new IllegalArgumentException("Unknown scan version: " + version);
    }

    private Snapshot tag(String name)
            throws IOException
    {
        Optional<Tag> tag = tags.tag(name);
        if (tag.isEmpty()) {
            throw new SnapshotNotFoundException("Tag '%s' does not exist in %s; tags are %s".formatted(name, snapshots.tableDescription(), tags.tagNames()));
        }
        return tag.get().snapshot();
    }

    private Snapshot atOrBefore(long millis)
            throws IOException
    {
        Optional<Snapshot> snapshot = snapshots.latestAtOrBefore(millis);
        if (snapshot.isPresent()) {
            return snapshot.get();
        }
        Optional<Long> earliestId = snapshots.earliestId();
        if (earliestId.isEmpty()) {
            throw new SnapshotNotFoundException("No snapshot at or before %s (%s ms): %s has no snapshots".formatted(Instant.ofEpochMilli(millis), millis, snapshots.tableDescription()));
        }
        Snapshot earliest = snapshots.snapshot(earliestId.get());
        throw new SnapshotNotFoundException("No snapshot at or before %s (%s ms) in %s: the earliest snapshot %s was committed at %s (%s ms)".formatted(
                Instant.ofEpochMilli(millis), millis, snapshots.tableDescription(), earliest.id(), Instant.ofEpochMilli(earliest.timeMillis()), earliest.timeMillis()));
    }
}
