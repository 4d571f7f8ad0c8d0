package io.tarn.types;

import static java.util.Objects.requireNonNull;

public record MapType(DataType key, DataType value, boolean nullable)
        implements DataType
{
    public MapType
    {
        requireNonNull(key, "key is null");
        requireNonNull(value, "value is null");
    }

    @Override
    public TypeRoot root()
    {
        return TypeRoot.MAP;
    }

    @Override
    public MapType withNullable(boolean nullable)
    {
        return new MapType(key, value, nullable);
    }

    @Override
    public String asSqlString()
    {
        return "MAP<" + key.asSqlString() + ", " + value.asSqlString() + ">" + (nullable ? "" : " NOT NULL");
    }
}
