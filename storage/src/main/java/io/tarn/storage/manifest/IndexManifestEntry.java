package io.tarn.storage.manifest;

import io.tarn.storage.binary.BinaryRow;

import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * One row of an index manifest: a table-index file ({@code HASH} or {@code DELETION_VECTORS}) of a
 * partition and bucket. {@code deletionVectorRanges} is absent for hash indexes and lists the
 * deletion vectors of a deletion-vector file in stored order.
 */
public record IndexManifestEntry(
        FileKind kind,
        BinaryRow partition,
        int bucket,
        String indexType,
        String fileName,
        long fileSize,
        long rowCount,
        Optional<List<DeletionVectorMeta>> deletionVectorRanges,
        Optional<String> externalPath)
{
    public static final String DELETION_VECTORS_INDEX = "DELETION_VECTORS";
    public static final String HASH_INDEX = "HASH";

    public IndexManifestEntry
    {
        requireNonNull(kind, "kind is null");
        requireNonNull(partition, "partition is null");
        requireNonNull(indexType, "indexType is null");
        requireNonNull(fileName, "fileName is null");
        deletionVectorRanges = requireNonNull(deletionVectorRanges, "deletionVectorRanges is null").map(List::copyOf);
        requireNonNull(externalPath, "externalPath is null");
    }
}
