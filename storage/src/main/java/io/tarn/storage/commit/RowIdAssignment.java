package io.tarn.storage.commit;

import io.tarn.storage.manifest.DataFileMeta;
import io.tarn.storage.manifest.FileKind;
import io.tarn.storage.manifest.ManifestEntry;
import io.tarn.storage.read.RowTrackingFields;

import java.util.ArrayList;
import java.util.List;

/**
 * What a commit to a table with {@code row-tracking.enabled} adds to the files it adds, as Apache
 * Paimon 1.4's commit does: each file a writer wrote (file source APPEND, no first row id yet, no
 * stored {@code _ROW_ID} column) gets the next free range of row ids, in the order of the changes,
 * and the snapshot records the id after the last range ({@code nextRowId}). A file whose first
 * sequence number is 0 (the first file of each writer, whose numbers start at 0 in such tables)
 * takes the new snapshot's id as its sequence numbers, which readers return as
 * {@code _SEQUENCE_NUMBER}.
 *
 * <p>The assignment is made for one attempt: a commit that loses its snapshot id to another writer
 * assigns again from the new latest snapshot, so two commits never hand out the same row ids.
 */
final class RowIdAssignment
{
    private final List<ManifestEntry> changes;
    private final long nextRowId;

    private RowIdAssignment(List<ManifestEntry> changes, long nextRowId)
    {
        this.changes = List.copyOf(changes);
        this.nextRowId = nextRowId;
    }

    /**
     * @param firstFreeRowId the {@code nextRowId} of the snapshot this commit follows (0 for the first)
     */
    static RowIdAssignment assign(List<ManifestEntry> changes, long snapshotId, long firstFreeRowId)
    {
        List<ManifestEntry> assigned = new ArrayList<>(changes.size());
        long next = firstFreeRowId;
        for (ManifestEntry change : changes) {
            DataFileMeta file = change.file();
            if (change.kind() != FileKind.ADD || !writtenByWriter(file)) {
                assigned.add(change);
                continue;
            }
            boolean newSequence = file.minSequenceNumber() == 0;
            long minSequenceNumber = newSequence ? snapshotId : file.minSequenceNumber();
            long maxSequenceNumber = newSequence ? snapshotId : file.maxSequenceNumber();
            assigned.add(new ManifestEntry(change.kind(), change.partition(), change.bucket(), change.totalBuckets(),
                    file.withRowTracking(next, minSequenceNumber, maxSequenceNumber)));
            next = Math.addExact(next, file.rowCount());
        }
        return new RowIdAssignment(assigned, next);
    }

    private static boolean writtenByWriter(DataFileMeta file)
    {
        boolean storesRowIds = file.writeCols().map(columns -> columns.contains(RowTrackingFields.ROW_ID.name())).orElse(false);
        return file.fileSource().isPresent() && file.fileSource().getAsInt() == DataFileMeta.FILE_SOURCE_APPEND && file.firstRowId().isEmpty() && !storesRowIds;
    }

    List<ManifestEntry> changes()
    {
        return changes;
    }

    long nextRowId()
    {
        return nextRowId;
    }
}
