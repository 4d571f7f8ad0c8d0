package io.tarn.storage.manifest;

import io.tarn.storage.binary.BinaryRow;

import static java.util.Objects.requireNonNull;

/**
 * One row of a data manifest: a data file added to or deleted from a partition and bucket.
 * {@code totalBuckets} is the partition's bucket count when the entry was written (-1 dynamic,
 * -2 postpone, or N).
 */
public record ManifestEntry(FileKind kind, BinaryRow partition, int bucket, int totalBuckets, DataFileMeta file)
{
    public ManifestEntry
    {
        requireNonNull(kind, "kind is null");
        requireNonNull(partition, "partition is null");
        requireNonNull(file, "file is null");
    }

    public FileIdentifier identifier()
    {
        return new FileIdentifier(partition, bucket, file.level(), file.fileName(), file.extraFiles(), file.embeddedIndexUnsafe(), file.externalPath());
    }
}
