package io.tarn.types;

import static java.util.Objects.requireNonNull;

/**
 * An atomic (non-composite) type. {@code precision} is the length of CHAR, VARCHAR, BINARY and
 * VARBINARY, the precision of DECIMAL, TIME, TIMESTAMP and TIMESTAMP_LTZ, and 0 otherwise;
 * {@code scale} is only used by DECIMAL.
 */
public record AtomicType(TypeRoot root, int precision, int scale, boolean nullable)
        implements DataType
{
    public static final int MAX_LENGTH = Integer.MAX_VALUE;

    public AtomicType
    {
        requireNonNull(root, "root is null");
        if (!root.isAtomic()) {
            throw new IllegalArgumentException("Not an atomic type: " + root);
        }
        if (precision < 0 || scale < 0) {
            throw new IllegalArgumentException("Negative precision or scale: " + precision + ", " + scale);
        }
        if (root == TypeRoot.DECIMAL && (precision < 1 || precision > 38 || scale > precision)) {
            throw new IllegalArgumentException("Invalid DECIMAL(" + precision + ", " + scale + ")");
        }
        if ((root == TypeRoot.TIME || root == TypeRoot.TIMESTAMP || root == TypeRoot.TIMESTAMP_LTZ) && precision > 9) {
            throw new IllegalArgumentException("Invalid " + root + " precision " + precision);
        }
    }

    @Override
    public AtomicType withNullable(boolean nullable)
    {
        return new AtomicType(root, precision, scale, nullable);
    }

    @Override
    public String asSqlString()
    {
        String text = switch (root) {
            case DECIMAL -> "DECIMAL(" + precision + ", " + scale + ")";
            case CHAR, BINARY, TIME, TIMESTAMP -> root + "(" + precision + ")";
            case VARCHAR -> precision == MAX_LENGTH ? "STRING" : "VARCHAR(" + precision + ")";
            case VARBINARY -> precision == MAX_LENGTH ? "BYTES" : "VARBINARY(" + precision + ")";
            case TIMESTAMP_LTZ -> "TIMESTAMP(" + precision + ") WITH LOCAL TIME ZONE";
            default -> root.name();
        };
        return nullable ? text : text + " NOT NULL";
    }

    @Override
    public String toString()
    {
        return asSqlString();
    }
}
