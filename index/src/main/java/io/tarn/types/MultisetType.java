package io.tarn.types;

import static java.util.Objects.requireNonNull;

public record MultisetType(DataType element, boolean nullable)
        implements DataType
{
    public MultisetType
    {
        requireNonNull(element, "element is null");
    }

    @Override
    public TypeRoot root()
    {
        return TypeRoot.MULTISET;
    }

    @Override
    public MultisetType withNullable(boolean nullable)
    {
        return new MultisetType(element, nullable);
    }

    @Override
    public String asSqlString()
    {
        return "MULTISET<" + element.asSqlString() + ">" + (nullable ? "" : " NOT NULL");
    }
}
