package io.tarn.vector.rows;

import io.tarn.types.ArrayType;
import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.MapType;
import io.tarn.types.MultisetType;
import io.tarn.types.RowType;
import io.tarn.types.Timestamp;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.types.DataTypes;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Converts Tarn types and internal values into Apache Paimon's, so that Paimon's side of the
 * canonical format ({@link io.tarn.testing.CanonicalValueFormatter}) can format the same rows.
 * A MULTISET value is a {@link Map} of element to count, as {@link TestingBatches} takes it.
 */
final class PaimonValues
{
    private PaimonValues() {}

    public static org.apache.paimon.types.RowType rowType(List<DataField> fields)
    {
        return (org.apache.paimon.types.RowType) type(RowType.of(fields));
    }

    public static org.apache.paimon.types.DataType type(DataType type)
    {
        org.apache.paimon.types.DataType result = switch (type.root()) {
            case BOOLEAN -> DataTypes.BOOLEAN();
            case TINYINT -> DataTypes.TINYINT();
            case SMALLINT -> DataTypes.SMALLINT();
            case INT -> DataTypes.INT();
            case BIGINT -> DataTypes.BIGINT();
            case FLOAT -> DataTypes.FLOAT();
            case DOUBLE -> DataTypes.DOUBLE();
            case DECIMAL -> DataTypes.DECIMAL(((AtomicType) type).precision(), ((AtomicType) type).scale());
            case CHAR -> DataTypes.CHAR(((AtomicType) type).precision());
            case VARCHAR -> DataTypes.VARCHAR(((AtomicType) type).precision());
            case BINARY -> DataTypes.BINARY(((AtomicType) type).precision());
            case VARBINARY -> DataTypes.VARBINARY(((AtomicType) type).precision());
            case DATE -> DataTypes.DATE();
            case TIME -> DataTypes.TIME(((AtomicType) type).precision());
            case TIMESTAMP -> DataTypes.TIMESTAMP(((AtomicType) type).precision());
            case TIMESTAMP_LTZ -> DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(((AtomicType) type).precision());
            case ARRAY -> DataTypes.ARRAY(type(((ArrayType) type).element()));
            case MAP -> DataTypes.MAP(type(((MapType) type).key()), type(((MapType) type).value()));
            case MULTISET -> DataTypes.MULTISET(type(((MultisetType) type).element()));
            case ROW -> DataTypes.ROW(((RowType) type).fields().stream()
                    .map(field -> DataTypes.FIELD(field.id(), field.name(), type(field.type())))
                    .toArray(org.apache.paimon.types.DataField[]::new));
            case VARIANT -> throw new IllegalArgumentException("VARIANT");
        };
        return result.copy(type.nullable());
    }

    public static GenericRow row(List<DataField> fields, List<Object> values)
    {
        GenericRow row = new GenericRow(fields.size());
        for (int i = 0; i < fields.size(); i++) {
            row.setField(i, value(fields.get(i).type(), values.get(i)));
        }
        return row;
    }

    @SuppressWarnings("unchecked")
    public static Object value(DataType type, Object value)
    {
        if (value == null) {
            return null;
        }
        return switch (type.root()) {
            case CHAR, VARCHAR -> BinaryString.fromString((String) value);
            case DECIMAL -> Decimal.fromBigDecimal((BigDecimal) value, ((AtomicType) type).precision(), ((AtomicType) type).scale());
            case TIMESTAMP, TIMESTAMP_LTZ -> org.apache.paimon.data.Timestamp.fromEpochMillis(((Timestamp) value).epochMillis(), ((Timestamp) value).nanoOfMillisecond());
            case ARRAY -> new GenericArray(((List<Object>) value).stream().map(element -> value(((ArrayType) type).element(), element)).toArray());
            case MAP -> map((Map<Object, Object>) value, ((MapType) type).key(), ((MapType) type).value());
            case MULTISET -> map((Map<Object, Object>) value, ((MultisetType) type).element(), io.tarn.types.DataTypes.integer());
            case ROW -> row(((RowType) type).fields(), (List<Object>) value);
            default -> value;
        };
    }

    private static GenericMap map(Map<Object, Object> map, DataType keyType, DataType valueType)
    {
        Map<Object, Object> converted = new LinkedHashMap<>();
        map.forEach((key, value) -> converted.put(value(keyType, key), value(valueType, value)));
        return new GenericMap(converted);
    }
}
