package io.tarn.types;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A named, typed field with Paimon's stable field id. Columns are matched across schema versions
 * by {@code id}, never by name.
 */
public record DataField(int id, String name, DataType type, Optional<String> description, Optional<String> defaultValue)
{
    public DataField
    {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
        requireNonNull(description, "description is null");
        requireNonNull(defaultValue, "defaultValue is null");
    }

    public DataField(int id, String name, DataType type)
    {
        this(id, name, type, Optional.empty(), Optional.empty());
    }

    public DataField withType(DataType newType)
    {
        return new DataField(id, name, newType, description, defaultValue);
    }
}
