package io.tarn.trino;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.spi.connector.ConnectorInsertTableHandle;
import io.trino.spi.connector.ConnectorOutputTableHandle;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.type.Type;

import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A write into an append table: the table, the schema the writer writes with and the column
 * types of the incoming pages (the schema's columns, in order). Serves INSERT and CREATE TABLE AS.
 *
 * @param createdSchema for CREATE TABLE AS, the JSON of the table's first schema: the table does
 * not exist while its files are written, and is created when the statement commits
 */
public record TarnWriteHandle(
        @JsonProperty("schemaName") String schemaName,
        @JsonProperty("tableName") String tableName,
        @JsonProperty("schemaId") long schemaId,
        @JsonProperty("columnTypes") List<Type> columnTypes,
        @JsonProperty("createdSchema") Optional<String> createdSchema)
        implements ConnectorInsertTableHandle, ConnectorOutputTableHandle
{
    public TarnWriteHandle
    {
        requireNonNull(schemaName, "schemaName is null");
        requireNonNull(tableName, "tableName is null");
        columnTypes = List.copyOf(requireNonNull(columnTypes, "columnTypes is null"));
        requireNonNull(createdSchema, "createdSchema is null");
    }

    @JsonIgnore
    SchemaTableName schemaTableName()
    {
        return new SchemaTableName(schemaName, tableName);
    }
}
