package io.tarn.trino;

import io.tarn.types.ArrayType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.DataTypes;
import io.tarn.types.MapType;
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
import io.trino.spi.type.VarbinaryType;
import io.trino.spi.type.VarcharType;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;

/**
 * Trino types of a new table as Paimon types, the inverse of {@link TarnTypes}. Field ids are
 * assigned as Paimon's schema builder does: each column takes the next id, then the fields nested
 * in it take the following ones, depth first.
 */
final class TarnWriteTypes
{
    private TarnWriteTypes() {}

    static DataType toPaimonType(Type type, AtomicInteger highestFieldId)
    {
        if (type instanceof BooleanType) {
            return DataTypes.booleanType();
        }
        if (type instanceof TinyintType) {
            return DataTypes.tinyint();
        }
        if (type instanceof SmallintType) {
            return DataTypes.smallint();
        }
        if (type instanceof IntegerType) {
            return DataTypes.integer();
        }
        if (type instanceof BigintType) {
            return DataTypes.bigint();
        }
        if (type instanceof RealType) {
            return DataTypes.floatType();
        }
        if (type instanceof DoubleType) {
            return DataTypes.doubleType();
        }
        if (type instanceof DecimalType decimal) {
            return DataTypes.decimal(decimal.getPrecision(), decimal.getScale());
        }
        if (type instanceof CharType charType) {
            return DataTypes.charType(charType.getLength());
        }
        if (type instanceof VarcharType varchar) {
            return varchar.isUnbounded() ? DataTypes.string() : DataTypes.varchar(varchar.getBoundedLength());
        }
        if (type instanceof VarbinaryType) {
            return DataTypes.bytes();
        }
        if (type instanceof DateType) {
            return DataTypes.date();
        }
        if (type instanceof TimeType time && time.getPrecision() <= 3) {
            return DataTypes.time(time.getPrecision());
        }
        if (type instanceof TimestampType timestamp && timestamp.getPrecision() <= 9) {
            return DataTypes.timestamp(timestamp.getPrecision());
        }
        if (type instanceof TimestampWithTimeZoneType timestamp && timestamp.getPrecision() <= 9) {
            return DataTypes.timestampLtz(timestamp.getPrecision());
        }
        if (type instanceof io.trino.spi.type.ArrayType array) {
            return new ArrayType(toPaimonType(array.getElementType(), highestFieldId), true);
        }
        if (type instanceof io.trino.spi.type.MapType map) {
            return new MapType(toPaimonType(map.getKeyType(), highestFieldId).withNullable(false), toPaimonType(map.getValueType(), highestFieldId), true);
        }
        if (type instanceof io.trino.spi.type.RowType row) {
            List<DataField> fields = new ArrayList<>();
            for (io.trino.spi.type.RowType.Field field : row.getFields()) {
                int id = highestFieldId.incrementAndGet();
                String name = field.getName().orElseThrow(() -> new TrinoException(NOT_SUPPORTED, "ROW fields of a Paimon table need names: " + type));
                fields.add(new DataField(id, name, toPaimonType(field.getType(), highestFieldId)));
            }
            return new RowType(fields, true);
        }
        if (type instanceof TimeType) {
            throw new TrinoException(NOT_SUPPORTED, "Unsupported type: %s cannot be stored in a Paimon table, which keeps TIME values as milliseconds (time(0) to time(3))".formatted(type));
        }
        // Trino's wording for a type a connector cannot store
        throw new TrinoException(NOT_SUPPORTED, "Unsupported type: " + type + " cannot be stored in a Paimon table");
    }
}
