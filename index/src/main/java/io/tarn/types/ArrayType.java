package io.tarn.types;

import static java.util.Objects.requireNonNull;

public record ArrayType(DataType element, boolean nullable)
        implements DataType
{
    public ArrayType
    {
        requireNonNull(element, "element is null");
    }

    @Override
    public TypeRoot root()
    {
        return TypeRoot.ARRAY;
    }

    @Override
    public ArrayType withNullable(boolean nullable)
    {
        return new ArrayType(element, nullable);
    }

    @Override
    public String asSqlString()
    {
        return "ARRAY<" + element.asSqlString() + ">" + (nullable ? "" : " NOT NULL");
    }
}
