package io.tarn.storage.read;

import io.tarn.types.DataField;
import io.tarn.types.DataTypes;

/**
 * The system columns Paimon writes into every data file of a primary-key table, after the key
 * and value columns, with the field ids Paimon reserves for them.
 */
public final class SystemFields
{
    public static final DataField SEQUENCE_NUMBER = new DataField(Integer.MAX_VALUE - 1, "_SEQUENCE_NUMBER", DataTypes.bigint().withNullable(false));
    public static final DataField VALUE_KIND = new DataField(Integer.MAX_VALUE - 2, "_VALUE_KIND", DataTypes.tinyint().withNullable(false));

    private SystemFields() {}
}
