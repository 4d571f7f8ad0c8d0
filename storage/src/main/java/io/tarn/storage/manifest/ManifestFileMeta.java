package io.tarn.storage.manifest;

import io.tarn.storage.binary.SimpleStats;

import java.util.OptionalInt;

import static java.util.Objects.requireNonNull;

/**
 * One row of a manifest list: a manifest file with its entry counts and the min/max/null counts
 * of the partition columns over its entries. The bucket and level ranges were added in Paimon 1.1
 * and are absent in older files.
 */
public record ManifestFileMeta(
        String fileName,
        long fileSize,
        long numAddedFiles,
        long numDeletedFiles,
        SimpleStats partitionStats,
        long schemaId,
        OptionalInt minBucket,
        OptionalInt maxBucket,
        OptionalInt minLevel,
        OptionalInt maxLevel)
{
    public ManifestFileMeta
    {
        requireNonNull(fileName, "fileName is null");
        requireNonNull(partitionStats, "partitionStats is null");
        requireNonNull(minBucket, "minBucket is null");
        requireNonNull(maxBucket, "maxBucket is null");
        requireNonNull(minLevel, "minLevel is null");
        requireNonNull(maxLevel, "maxLevel is null");
    }
}
