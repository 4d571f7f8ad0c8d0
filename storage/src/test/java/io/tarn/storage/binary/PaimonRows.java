package io.tarn.storage.binary;

import io.tarn.types.AtomicType;
import io.tarn.types.DataType;
import io.tarn.types.Timestamp;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.serializer.InternalRowSerializer;
import org.apache.paimon.types.DataTypes;

import java.math.BigDecimal;
import java.util.List;

/** Encodes rows with Apache Paimon's own serializer, the oracle for {@link BinaryRowWriter}. */
final class PaimonRows
{
    private PaimonRows() {}

    static org.apache.paimon.data.BinaryRow encode(List<? extends DataType> types, List<?> values)
    {
        org.apache.paimon.types.DataType[] paimonTypes = types.stream().map(PaimonRows::paimonType).toArray(org.apache.paimon.types.DataType[]::new);
        GenericRow row = new GenericRow(types.size());
        for (int i = 0; i < types.size(); i++) {
            row.setField(i, paimonValue(types.get(i), values.get(i)));
        }
        return new InternalRowSerializer(paimonTypes).toBinaryRow(row).copy();
    }

    static org.apache.paimon.types.RowType paimonRowType(List<String> names, List<? extends DataType> types)
    {
        org.apache.paimon.types.RowType.Builder builder = org.apache.paimon.types.RowType.builder();
        for (int i = 0; i < names.size(); i++) {
            builder.field(names.get(i), paimonType(types.get(i)));
        }
        return builder.build();
    }

    static org.apache.paimon.types.DataType paimonType(DataType type)
    {
        AtomicType atomic = (AtomicType) type;
        return switch (type.root()) {
            case BOOLEAN -> DataTypes.BOOLEAN();
            case TINYINT -> DataTypes.TINYINT();
            case SMALLINT -> DataTypes.SMALLINT();
            case INT -> DataTypes.INT();
            case BIGINT -> DataTypes.BIGINT();
            case FLOAT -> DataTypes.FLOAT();
            case DOUBLE -> DataTypes.DOUBLE();
            case DECIMAL -> DataTypes.DECIMAL(atomic.precision(), atomic.scale());
            case CHAR -> DataTypes.CHAR(atomic.precision());
            case VARCHAR -> DataTypes.VARCHAR(atomic.precision());
            case BINARY -> DataTypes.BINARY(atomic.precision());
            case VARBINARY -> DataTypes.VARBINARY(atomic.precision());
            case DATE -> DataTypes.DATE();
            case TIME -> DataTypes.TIME(atomic.precision());
            case TIMESTAMP -> DataTypes.TIMESTAMP(atomic.precision());
            case TIMESTAMP_LTZ -> DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(atomic.precision());
            default -> throw new IllegalArgumentException(type.toString());
        };
    }

    static Object paimonValue(DataType type, Object value)
    {
        if (value instanceof String text) {
            return BinaryString.fromString(text);
        }
        if (value instanceof BigDecimal decimal) {
            return Decimal.fromBigDecimal(decimal, ((AtomicType) type).precision(), ((AtomicType) type).scale());
        }
        if (value instanceof Timestamp timestamp) {
            return org.apache.paimon.data.Timestamp.fromEpochMillis(timestamp.epochMillis(), timestamp.nanoOfMillisecond());
        }
        return value;
    }
}
