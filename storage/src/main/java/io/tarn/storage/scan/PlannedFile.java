package io.tarn.storage.scan;

import io.tarn.storage.binary.BinaryRow;
import io.tarn.storage.manifest.DataFileMeta;

import java.util.Optional;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * A live data file chosen by scan planning, with the partition and bucket it belongs to and its
 * deletion vector, if any.
 */
public record PlannedFile(BinaryRow partition, int bucket, int totalBuckets, DataFileMeta file, Optional<DeletionFile> deletionFile)
{
    public PlannedFile
    {
        requireNonNull(partition, "partition is null");
        requireNonNull(file, "file is null");
        requireNonNull(deletionFile, "deletionFile is null");
    }

    /**
     * Rows a reader returns from this file when it is read raw: all rows minus the deleted ones,
     * or empty when a deletion vector's cardinality is unknown.
     */
    public Optional<Long> liveRowCount()
    {
        if (deletionFile.isEmpty()) {
            return Optional.of(file.rowCount());
        }
        OptionalLong deleted = deletionFile.get().cardinality();
        return deleted.isPresent() ? Optional.of(file.rowCount() - deleted.getAsLong()) : Optional.empty();
    }
}
