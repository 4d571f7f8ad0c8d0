package io.tarn.storage.manifest;

import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * Where the deletion vector of one data file lies inside a deletion-vector index file, and how
 * many rows it deletes (absent before Paimon 0.9).
 */
public record DeletionVectorMeta(String dataFileName, int offset, int length, OptionalLong cardinality)
{
    public DeletionVectorMeta
    {
        requireNonNull(dataFileName, "dataFileName is null");
        requireNonNull(cardinality, "cardinality is null");
    }
}
