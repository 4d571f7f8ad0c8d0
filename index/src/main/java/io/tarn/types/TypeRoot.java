package io.tarn.types;

/**
 * The kinds of Paimon data types. Atomic kinds are carried by {@link AtomicType}; the
 * composite kinds each have their own record.
 */
public enum TypeRoot
{
    BOOLEAN,
    TINYINT,
    SMALLINT,
    INT,
    BIGINT,
    FLOAT,
    DOUBLE,
    DECIMAL,
    CHAR,
    VARCHAR,
    BINARY,
    VARBINARY,
    DATE,
    TIME,
    TIMESTAMP,
    TIMESTAMP_LTZ,
    VARIANT,
    ARRAY,
    MULTISET,
    MAP,
    ROW;

    public boolean isAtomic()
    {
        return this != ARRAY && this != MULTISET && this != MAP && this != ROW;
    }

    public boolean isCharacterString()
    {
        return this == CHAR || this == VARCHAR;
    }

    public boolean isBinaryString()
    {
        return this == BINARY || this == VARBINARY;
    }
}
