package io.tarn.types;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

public record RowType(List<DataField> fields, boolean nullable)
        implements DataType
{
    public RowType
    {
        fields = List.copyOf(requireNonNull(fields, "fields is null"));
    }

    public static RowType of(List<DataField> fields)
    {
        return new RowType(fields, true);
    }

    @Override
    public TypeRoot root()
    {
        return TypeRoot.ROW;
    }

    @Override
    public RowType withNullable(boolean nullable)
    {
        return new RowType(fields, nullable);
    }

    public int size()
    {
        return fields.size();
    }

    public List<String> fieldNames()
    {
        return fields.stream().map(DataField::name).toList();
    }

    public List<DataType> fieldTypes()
    {
        return fields.stream().map(DataField::type).toList();
    }

    public Optional<DataField> field(String name)
    {
        return fields.stream().filter(field -> field.name().equals(name)).findFirst();
    }

    public Optional<DataField> fieldById(int id)
    {
        return fields.stream().filter(field -> field.id() == id).findFirst();
    }

    public int indexOf(String name)
    {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public String asSqlString()
    {
        return fields.stream()
                .map(field -> field.name() + " " + field.type().asSqlString())
                .collect(Collectors.joining(", ", "ROW<", ">")) + (nullable ? "" : " NOT NULL");
    }
}
