package io.tarn.types;

/**
 * Factories for nullable types; use {@link DataType#withNullable(boolean)} for NOT NULL.
 */
public final class DataTypes
{
    private DataTypes() {}

    public static AtomicType of(TypeRoot root)
    {
        return new AtomicType(root, 0, 0, true);
    }

    public static AtomicType booleanType()
    {
        return of(TypeRoot.BOOLEAN);
    }

    public static AtomicType tinyint()
    {
        return of(TypeRoot.TINYINT);
    }

    public static AtomicType smallint()
    {
        return of(TypeRoot.SMALLINT);
    }

    public static AtomicType integer()
    {
        return of(TypeRoot.INT);
    }

    public static AtomicType bigint()
    {
        return of(TypeRoot.BIGINT);
    }

    public static AtomicType floatType()
    {
        return of(TypeRoot.FLOAT);
    }

    public static AtomicType doubleType()
    {
        return of(TypeRoot.DOUBLE);
    }

    public static AtomicType decimal(int precision, int scale)
    {
        return new AtomicType(TypeRoot.DECIMAL, precision, scale, true);
    }

    public static AtomicType charType(int length)
    {
        return new AtomicType(TypeRoot.CHAR, length, 0, true);
    }

    public static AtomicType varchar(int length)
    {
        return new AtomicType(TypeRoot.VARCHAR, length, 0, true);
    }

    public static AtomicType string()
    {
        return varchar(AtomicType.MAX_LENGTH);
    }

    public static AtomicType binary(int length)
    {
        return new AtomicType(TypeRoot.BINARY, length, 0, true);
    }

    public static AtomicType varbinary(int length)
    {
        return new AtomicType(TypeRoot.VARBINARY, length, 0, true);
    }

    public static AtomicType bytes()
    {
        return varbinary(AtomicType.MAX_LENGTH);
    }

    public static AtomicType date()
    {
        return of(TypeRoot.DATE);
    }

    public static AtomicType time(int precision)
    {
        return new AtomicType(TypeRoot.TIME, precision, 0, true);
    }

    public static AtomicType timestamp(int precision)
    {
        return new AtomicType(TypeRoot.TIMESTAMP, precision, 0, true);
    }

    public static AtomicType timestampLtz(int precision)
    {
        return new AtomicType(TypeRoot.TIMESTAMP_LTZ, precision, 0, true);
    }
}
