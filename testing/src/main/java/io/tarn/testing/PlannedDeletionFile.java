package io.tarn.testing;

import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * Where a data file's deletion vector lies: the index file's name (under the table's
 * {@code index/} directory), the offset and length Paimon reports, and the number of deleted rows.
 */
public record PlannedDeletionFile(String indexFileName, long offset, long length, OptionalLong cardinality)
{
    public PlannedDeletionFile
    {
        requireNonNull(indexFileName, "indexFileName is null");
        requireNonNull(cardinality, "cardinality is null");
    }
}
