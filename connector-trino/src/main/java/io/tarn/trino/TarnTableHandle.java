package io.tarn.trino;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.predicate.TupleDomain;

import java.util.Optional;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * A table read at one snapshot, pinned when the query resolved the table: {@code snapshotId}
 * (empty for a table without snapshots), or the tag that names it, because a tag's snapshot may
 * have expired and only the tag file still describes it. {@code schemaId} is the schema of that
 * snapshot.
 *
 * <p>{@code enforcedPredicate} is the part of the filter on partition columns only, which
 * planning applies exactly; {@code filter} is everything pushed down, used to skip files, row
 * groups and pages and re-checked by Trino when not enforced. {@code count} is set when a
 * {@code count(*)} was answered from manifests: the scan then yields that one number.
 */
public record TarnTableHandle(
        @JsonProperty("schemaName") String schemaName,
        @JsonProperty("tableName") String tableName,
        @JsonProperty("snapshotId") Optional<Long> snapshotId,
        @JsonProperty("tagName") Optional<String> tagName,
        @JsonProperty("schemaId") long schemaId,
        @JsonProperty("enforcedPredicate") TupleDomain<TarnColumnHandle> enforcedPredicate,
        @JsonProperty("filter") TupleDomain<TarnColumnHandle> filter,
        @JsonProperty("limit") OptionalLong limit,
        @JsonProperty("count") OptionalLong count)
        implements ConnectorTableHandle
{
    public TarnTableHandle
    {
        requireNonNull(schemaName, "schemaName is null");
        requireNonNull(tableName, "tableName is null");
        requireNonNull(snapshotId, "snapshotId is null");
        requireNonNull(tagName, "tagName is null");
        requireNonNull(enforcedPredicate, "enforcedPredicate is null");
        requireNonNull(filter, "filter is null");
        requireNonNull(limit, "limit is null");
        requireNonNull(count, "count is null");
    }

    static TarnTableHandle of(SchemaTableName name, Optional<Long> snapshotId, Optional<String> tagName, long schemaId)
    {
        return new TarnTableHandle(name.getSchemaName(), name.getTableName(), snapshotId, tagName, schemaId, TupleDomain.all(), TupleDomain.all(), OptionalLong.empty(), OptionalLong.empty());
    }

    @JsonIgnore
    SchemaTableName schemaTableName()
    {
        return new SchemaTableName(schemaName, tableName);
    }

    TarnTableHandle withFilter(TupleDomain<TarnColumnHandle> newEnforced, TupleDomain<TarnColumnHandle> newFilter)
    {
        return new TarnTableHandle(schemaName, tableName, snapshotId, tagName, schemaId, newEnforced, newFilter, limit, count);
    }

    TarnTableHandle withLimit(long newLimit)
    {
        return new TarnTableHandle(schemaName, tableName, snapshotId, tagName, schemaId, enforcedPredicate, filter, OptionalLong.of(newLimit), count);
    }

    TarnTableHandle withCount(long rowCount)
    {
        return new TarnTableHandle(schemaName, tableName, snapshotId, tagName, schemaId, enforcedPredicate, filter, limit, OptionalLong.of(rowCount));
    }

    @JsonIgnore
    boolean countOnly()
    {
        return count.isPresent();
    }

    @Override
    public String toString()
    {
        return schemaName + "." + tableName + snapshotId.map(id -> "@" + id).orElse("") + tagName.map(tag -> " (tag " + tag + ")").orElse("");
    }
}
