package io.tarn.testing;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Describes one reference table written by {@link ReferenceTables}.
 *
 * @param identifier {@code db.table}
 * @param expectedRowCount live rows of the latest snapshot of the main branch, as the generator
 * intends them (the test checks Paimon agrees)
 * @param tags tags created on the main branch
 * @param branches branches created
 */
public record ReferenceTable(
        String identifier,
        String description,
        List<String> primaryKeys,
        List<String> partitionKeys,
        int bucket,
        long expectedRowCount,
        List<String> tags,
        List<String> branches)
{
    public ReferenceTable
    {
        requireNonNull(identifier, "identifier is null");
        requireNonNull(description, "description is null");
        primaryKeys = List.copyOf(requireNonNull(primaryKeys, "primaryKeys is null"));
        partitionKeys = List.copyOf(requireNonNull(partitionKeys, "partitionKeys is null"));
        tags = List.copyOf(requireNonNull(tags, "tags is null"));
        branches = List.copyOf(requireNonNull(branches, "branches is null"));
    }

    public boolean hasPrimaryKey()
    {
        return !primaryKeys.isEmpty();
    }

    public String tableName()
    {
        return identifier.substring(identifier.indexOf('.') + 1);
    }
}
