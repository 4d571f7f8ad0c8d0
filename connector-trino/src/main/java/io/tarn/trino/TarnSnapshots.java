package io.tarn.trino;

import io.tarn.storage.SnapshotNotFoundException;
import io.tarn.storage.snapshot.Snapshot;
import io.tarn.storage.snapshot.Tag;
import io.tarn.storage.table.PaimonTable;

import java.io.IOException;
import java.util.Optional;

/**
 * The snapshot a table handle pinned. A tag is resolved through its tag file, which holds the
 * whole snapshot, so a tagged snapshot stays readable after its snapshot file expired.
 */
final class TarnSnapshots
{
    private TarnSnapshots() {}

    static Optional<Snapshot> pinned(PaimonTable table, TarnTableHandle handle)
    {
        try {
            if (handle.tagName().isPresent()) {
                Optional<Tag> tag = table.tagManager().tag(handle.tagName().get());
                if (tag.isEmpty()) {
                    throw new SnapshotNotFoundException("Tag '%s' of table %s was deleted while the query ran".formatted(handle.tagName().get(), table.name()));
                }
                return Optional.of(tag.get().snapshot());
            }
            if (handle.snapshotId().isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(table.pinnedSnapshot(handle.snapshotId().get()));
        }
        catch (IOException e) {
            throw TarnExceptions.translate("Cannot read table " + table.name() + " at " + handle, e);
        }
    }
}
