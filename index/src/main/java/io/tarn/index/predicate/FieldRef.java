package io.tarn.index.predicate;

import io.tarn.types.DataField;
import io.tarn.types.DataType;

import static java.util.Objects.requireNonNull;

/**
 * A reference to a table column by its Paimon field id. The id identifies the column across
 * schema versions; the name only serves error messages and {@link Predicate#toString()}, and the
 * type decides which literal classes are accepted and how values are ordered. Record equality
 * compares all three; code that looks up a column should key on {@link #fieldId()}.
 */
public record FieldRef(int fieldId, String name, DataType type)
{
    public FieldRef
    {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
    }

    public static FieldRef of(DataField field)
    {
        return new FieldRef(field.id(), field.name(), field.type());
    }

    @Override
    public String toString()
    {
        return name + "#" + fieldId + " " + type.asSqlString();
    }
}
