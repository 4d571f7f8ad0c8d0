package io.tarn.types;

/**
 * A Paimon data type. Values of each type are carried in their internal Java form:
 * <ul>
 * <li>BOOLEAN {@link Boolean}; TINYINT {@link Byte}; SMALLINT {@link Short}; INT {@link Integer};
 *     BIGINT {@link Long}; FLOAT {@link Float}; DOUBLE {@link Double};</li>
 * <li>DECIMAL {@link java.math.BigDecimal} with the type's scale;</li>
 * <li>CHAR, VARCHAR {@link String}; BINARY, VARBINARY {@code byte[]};</li>
 * <li>DATE {@link Integer} days since 1970-01-01; TIME {@link Integer} milliseconds of the day;</li>
 * <li>TIMESTAMP, TIMESTAMP_LTZ {@link Timestamp} (for LTZ: the UTC instant);</li>
 * <li>ARRAY, MULTISET {@link java.util.List}; MAP {@link java.util.Map} in stored order; ROW {@link java.util.List} of field values.</li>
 * </ul>
 * A null value is Java {@code null}.
 */
public sealed interface DataType
        permits AtomicType, ArrayType, MultisetType, MapType, RowType
{
    TypeRoot root();

    boolean nullable();

    DataType withNullable(boolean nullable);

    /**
     * The type as Paimon spells it in schema JSON for atomic types ({@code DECIMAL(10, 2)},
     * {@code STRING NOT NULL}), or a SQL-like rendering for composite types.
     */
    String asSqlString();

    /**
     * Whether this type, or a type nested in it (an element, key, value or field type, at any
     * depth), has root {@code wanted}.
     */
    default boolean contains(TypeRoot wanted)
    {
        if (root() == wanted) {
            return true;
        }
        if (this instanceof ArrayType array) {
            return array.element().contains(wanted);
        }
        if (this instanceof MultisetType multiset) {
            return multiset.element().contains(wanted);
        }
        if (this instanceof MapType map) {
            return map.key().contains(wanted) || map.value().contains(wanted);
        }
        if (this instanceof RowType row) {
            return row.fields().stream().anyMatch(field -> field.type().contains(wanted));
        }
        return false;
    }
}
