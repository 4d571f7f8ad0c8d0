package io.tarn.storage.schema;

import io.tarn.types.ArrayType;
import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.MapType;
import io.tarn.types.MultisetType;
import io.tarn.types.RowType;
import io.tarn.types.TypeRoot;
import org.apache.paimon.types.DecimalType;

import java.util.List;
import java.util.Optional;

/**
 * Converts Apache Paimon's type objects into Tarn's, through Paimon's own accessors, so that types
 * parsed by Tarn can be compared with the ones Paimon parsed from the same file.
 */
final class PaimonTypes
{
    private PaimonTypes() {}

    static List<DataField> fields(List<org.apache.paimon.types.DataField> fields)
    {
        return fields.stream().map(PaimonTypes::field).toList();
    }

    static DataField field(org.apache.paimon.types.DataField field)
    {
        return new DataField(field.id(), field.name(), type(field.type()), Optional.ofNullable(field.description()), Optional.ofNullable(field.defaultValue()));
    }

    static DataType type(org.apache.paimon.types.DataType type)
    {
        boolean nullable = type.isNullable();
        return switch (type.getTypeRoot()) {
            case BOOLEAN -> atomic(TypeRoot.BOOLEAN, 0, 0, nullable);
            case TINYINT -> atomic(TypeRoot.TINYINT, 0, 0, nullable);
            case SMALLINT -> atomic(TypeRoot.SMALLINT, 0, 0, nullable);
            case INTEGER -> atomic(TypeRoot.INT, 0, 0, nullable);
            case BIGINT -> atomic(TypeRoot.BIGINT, 0, 0, nullable);
            case FLOAT -> atomic(TypeRoot.FLOAT, 0, 0, nullable);
            case DOUBLE -> atomic(TypeRoot.DOUBLE, 0, 0, nullable);
            case DATE -> atomic(TypeRoot.DATE, 0, 0, nullable);
            case VARIANT -> atomic(TypeRoot.VARIANT, 0, 0, nullable);
            case DECIMAL -> atomic(TypeRoot.DECIMAL, ((DecimalType) type).getPrecision(), ((DecimalType) type).getScale(), nullable);
            case CHAR -> atomic(TypeRoot.CHAR, length(type), 0, nullable);
            case VARCHAR -> atomic(TypeRoot.VARCHAR, length(type), 0, nullable);
            case BINARY -> atomic(TypeRoot.BINARY, length(type), 0, nullable);
            case VARBINARY -> atomic(TypeRoot.VARBINARY, length(type), 0, nullable);
            case TIME_WITHOUT_TIME_ZONE -> atomic(TypeRoot.TIME, precision(type), 0, nullable);
            case TIMESTAMP_WITHOUT_TIME_ZONE -> atomic(TypeRoot.TIMESTAMP, precision(type), 0, nullable);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> atomic(TypeRoot.TIMESTAMP_LTZ, precision(type), 0, nullable);
            case ARRAY -> new ArrayType(type(((org.apache.paimon.types.ArrayType) type).getElementType()), nullable);
            case MULTISET -> new MultisetType(type(((org.apache.paimon.types.MultisetType) type).getElementType()), nullable);
            case MAP -> new MapType(
                    type(((org.apache.paimon.types.MapType) type).getKeyType()),
                    type(((org.apache.paimon.types.MapType) type).getValueType()),
                    nullable);
            case ROW -> new RowType(fields(((org.apache.paimon.types.RowType) type).getFields()), nullable);
            default -> throw new IllegalArgumentException("Unexpected Paimon type " + type);
        };
    }

    private static AtomicType atomic(TypeRoot root, int precision, int scale, boolean nullable)
    {
        return new AtomicType(root, precision, scale, nullable);
    }

    private static int length(org.apache.paimon.types.DataType type)
    {
        return org.apache.paimon.types.DataTypes.getLength(type).orElseThrow();
    }

    private static int precision(org.apache.paimon.types.DataType type)
    {
        return org.apache.paimon.types.DataTypes.getPrecision(type).orElseThrow();
    }
}
