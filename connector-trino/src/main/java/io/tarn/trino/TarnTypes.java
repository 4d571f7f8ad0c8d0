package io.tarn.trino;

import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.types.ArrayType;
import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.MapType;
import io.tarn.types.MultisetType;
import io.tarn.types.RowType;
import io.trino.spi.TrinoException;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.CharType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.RealType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TimeType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TimestampWithTimeZoneType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;
import io.trino.spi.type.TypeOperators;
import io.trino.spi.type.VarbinaryType;
import io.trino.spi.type.VarcharType;

import java.util.ArrayList;
import java.util.List;

import static io.tarn.trino.TarnErrorCode.TARN_UNSUPPORTED_FEATURE;
import static java.util.Objects.requireNonNull;

/**
 * The mapping from Paimon types to Trino types:
 *
 * <pre>
 * BOOLEAN → BOOLEAN            TINYINT, SMALLINT, INT, BIGINT → the same
 * FLOAT → REAL                 DOUBLE → DOUBLE              DECIMAL(p, s) → DECIMAL(p, s)
 * CHAR(n) → CHAR(n)            VARCHAR(n) → VARCHAR(n), STRING → VARCHAR
 * BINARY(n), VARBINARY(n), BYTES → VARBINARY                DATE → DATE
 * TIME(p) → TIME(p)            TIMESTAMP(p) → TIMESTAMP(p)
 * TIMESTAMP(p) WITH LOCAL TIME ZONE → TIMESTAMP(p) WITH TIME ZONE (values in UTC)
 * ARRAY&lt;t&gt; → ARRAY(t)     MAP&lt;k, v&gt; → MAP(k, v)     MULTISET&lt;t&gt; → MAP(t, INTEGER)
 * ROW&lt;...&gt; → ROW(...) with the same field names
 * </pre>
 */
final class TarnTypes
{
    private final TypeOperators typeOperators;

    TarnTypes(TypeOperators typeOperators)
    {
        this.typeOperators = requireNonNull(typeOperators, "typeOperators is null");
    }

    Type toTrinoType(DataType type)
    {
        return switch (type) {
            case AtomicType atomic -> atomic(atomic);
            case ArrayType array -> new io.trino.spi.type.ArrayType(toTrinoType(array.element()));
            case MapType map -> new io.trino.spi.type.MapType(toTrinoType(map.key()), toTrinoType(map.value()), typeOperators);
            case MultisetType multiset -> new io.trino.spi.type.MapType(toTrinoType(multiset.element()), IntegerType.INTEGER, typeOperators);
            case RowType row -> {
                List<io.trino.spi.type.RowType.Field> fields = new ArrayList<>();
                for (DataField field : row.fields()) {
                    fields.add(io.trino.spi.type.RowType.field(field.name(), toTrinoType(field.type())));
                }
                yield io.trino.spi.type.RowType.from(fields);
            }
        };
    }

    private static Type atomic(AtomicType type)
    {
        return switch (type.root()) {
            case BOOLEAN -> BooleanType.BOOLEAN;
            case TINYINT -> TinyintType.TINYINT;
            case SMALLINT -> SmallintType.SMALLINT;
            case INT -> IntegerType.INTEGER;
            case BIGINT -> BigintType.BIGINT;
            case FLOAT -> RealType.REAL;
            case DOUBLE -> DoubleType.DOUBLE;
            case DECIMAL -> DecimalType.createDecimalType(type.precision(), type.scale());
            case CHAR -> CharType.createCharType(Math.min(type.precision(), CharType.MAX_LENGTH));
            case VARCHAR -> type.precision() >= VarcharType.MAX_LENGTH ? VarcharType.VARCHAR : VarcharType.createVarcharType(type.precision());
            case BINARY, VARBINARY -> VarbinaryType.VARBINARY;
            case DATE -> DateType.DATE;
            case TIME -> TimeType.createTimeType(type.precision());
            case TIMESTAMP -> TimestampType.createTimestampType(type.precision());
            case TIMESTAMP_LTZ -> TimestampWithTimeZoneType.createTimestampWithTimeZoneType(type.precision());
            default -> throw new TrinoException(TARN_UNSUPPORTED_FEATURE, "Paimon type " + type + " has no Trino mapping yet",
                    new UnsupportedTableFeatureException("Unsupported type " + type));
        };
    }
}
