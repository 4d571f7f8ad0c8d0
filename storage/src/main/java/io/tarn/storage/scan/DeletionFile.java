package io.tarn.storage.scan;

import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * Where a data file's deletion vector lives: a range of an index file under the table's
 * {@code index/} directory. {@code cardinality} is the number of deleted rows, empty when the
 * writer (Paimon before 0.9) did not record it.
 */
public record DeletionFile(String indexFileName, int offset, int length, OptionalLong cardinality)
{
    public DeletionFile
    {
        requireNonNull(indexFileName, "indexFileName is null");
        requireNonNull(cardinality, "cardinality is null");
    }
}
