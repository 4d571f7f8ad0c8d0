package io.tarn.storage.manifest;

import io.tarn.storage.binary.BinaryRow;

/**
 * Chooses which manifest entries to decode, from the fields that precede the data file: the
 * reader asks before it builds the entry's {@link DataFileMeta} and skips the bytes of every entry
 * refused. All of an entry's identity the filter sees (partition, bucket, level) is part of
 * {@link FileIdentifier}, so a DELETE is refused exactly when the ADD it cancels is, and the
 * entries kept merge to the same live files as before filtering, minus the refused ones.
 */
public interface ManifestEntryFilter
{
    /**
     * Whether to decode an entry of this kind, partition and bucket; {@code partition} may be the
     * same instance for consecutive entries of one partition.
     */
    boolean test(FileKind kind, BinaryRow partition, int bucket, int totalBuckets);

    /** Whether {@link #testLevel} refuses any level; when not, the reader does not look for it. */
    default boolean testsLevel()
    {
        return false;
    }

    /** Whether to decode an entry, which {@link #test} accepted, of a file at {@code level}. */
    default boolean testLevel(FileKind kind, int level)
    {
        return true;
    }
}
