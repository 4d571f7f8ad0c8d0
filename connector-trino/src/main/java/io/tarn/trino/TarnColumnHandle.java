package io.tarn.trino;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.type.Type;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A column of the table (matched by Paimon field id, never by name) or, with a non-empty
 * {@code path}, a field of a ROW column reached by dereferencing field positions one level at
 * a time. {@code type} is the Trino type of what the handle produces (the leaf for a path).
 */
public record TarnColumnHandle(
        @JsonProperty("name") String name,
        @JsonProperty("fieldId") int fieldId,
        @JsonProperty("baseName") String baseName,
        @JsonProperty("path") List<Integer> path,
        @JsonProperty("type") Type type)
        implements ColumnHandle
{
    // the synthetic column of a count(*) answered from manifests
    static final int COUNT_FIELD_ID = -1;

    public TarnColumnHandle
    {
        requireNonNull(name, "name is null");
        requireNonNull(baseName, "baseName is null");
        path = List.copyOf(requireNonNull(path, "path is null"));
        requireNonNull(type, "type is null");
    }

    static TarnColumnHandle base(String name, int fieldId, Type type)
    {
        return new TarnColumnHandle(name, fieldId, name, List.of(), type);
    }

    @JsonIgnore
    boolean isBase()
    {
        return path.isEmpty();
    }

    @JsonIgnore
    boolean isCount()
    {
        return fieldId == COUNT_FIELD_ID;
    }
}
