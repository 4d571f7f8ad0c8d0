package io.tarn.vector;

import io.tarn.types.ArrayType;
import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.MapType;
import io.tarn.types.MultisetType;
import io.tarn.types.RowType;
import io.tarn.types.TypeRoot;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The one mapping from Paimon types to Arrow types, shared by the reader, the writer and every
 * consumer of Tarn's batches (Trino pages, the C stream interface, canonical rows):
 *
 * <pre>
 * BOOLEAN Bool              TINYINT Int(8)        SMALLINT Int(16)       INT Int(32)      BIGINT Int(64)
 * FLOAT FloatingPoint(SINGLE)   DOUBLE FloatingPoint(DOUBLE)             DECIMAL(p,s) Decimal(p,s,128)
 * CHAR, VARCHAR Utf8        BINARY, VARBINARY Binary                     DATE Date(DAY)   TIME(p) Time(MILLISECOND,32)
 * TIMESTAMP(p) Timestamp(MILLISECOND if p &lt;= 3, MICROSECOND if p &lt;= 6, else NANOSECOND; no zone)
 * TIMESTAMP_LTZ(p) the same unit with zone "UTC"
 * ARRAY List(element)       MAP Map(entries: key not null, value)        MULTISET Map(element, INT count)
 * ROW Struct(fields)
 * </pre>
 * Every Arrow field carries the Paimon field id in its metadata under {@link #FIELD_ID}, and the
 * nullability of the Paimon type.
 */
public final class ArrowTypes
{
    public static final String FIELD_ID = "PARQUET:field_id";

    private ArrowTypes() {}

    public static Schema toArrowSchema(List<DataField> fields)
    {
        List<Field> arrowFields = new ArrayList<>(fields.size());
        for (DataField field : fields) {
            arrowFields.add(toArrowField(field));
        }
        return new Schema(arrowFields);
    }

    public static Field toArrowField(DataField field)
    {
        return toArrowField(field.name(), field.type(), Map.of(FIELD_ID, Integer.toString(field.id())));
    }

    private static Field toArrowField(String name, DataType type, Map<String, String> metadata)
    {
        FieldType fieldType = new FieldType(type.nullable(), toArrowType(type), null, metadata);
        if (type instanceof ArrayType array) {
            return new Field(name, fieldType, List.of(toArrowField("element", array.element(), null)));
        }
        if (type instanceof MapType map) {
            return new Field(name, fieldType, List.of(entries(map.key().withNullable(false), map.value())));
        }
        if (type instanceof MultisetType multiset) {
            return new Field(name, fieldType, List.of(entries(multiset.element().withNullable(false), new AtomicType(TypeRoot.INT, 0, 0, false))));
        }
        if (type instanceof RowType row) {
            List<Field> children = new ArrayList<>();
            for (DataField child : row.fields()) {
                children.add(toArrowField(child));
            }
            return new Field(name, fieldType, children);
        }
        return new Field(name, fieldType, null);
    }

    private static Field entries(DataType key, DataType value)
    {
        return new Field("entries", FieldType.notNullable(ArrowType.Struct.INSTANCE),
                List.of(toArrowField("key", key, null), toArrowField("value", value, null)));
    }

    public static ArrowType toArrowType(DataType type)
    {
        return switch (type.root()) {
            case BOOLEAN -> ArrowType.Bool.INSTANCE;
            case TINYINT -> new ArrowType.Int(8, true);
            case SMALLINT -> new ArrowType.Int(16, true);
            case INT -> new ArrowType.Int(32, true);
            case BIGINT -> new ArrowType.Int(64, true);
            case FLOAT -> new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
            case DOUBLE -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
            case DECIMAL -> new ArrowType.Decimal(((AtomicType) type).precision(), ((AtomicType) type).scale(), 128);
            case CHAR, VARCHAR -> ArrowType.Utf8.INSTANCE;
            case BINARY, VARBINARY -> ArrowType.Binary.INSTANCE;
            case DATE -> new ArrowType.Date(DateUnit.DAY);
            case TIME -> new ArrowType.Time(TimeUnit.MILLISECOND, 32);
            case TIMESTAMP -> new ArrowType.Timestamp(timeUnit(((AtomicType) type).precision()), null);
            case TIMESTAMP_LTZ -> new ArrowType.Timestamp(timeUnit(((AtomicType) type).precision()), "UTC");
            case ARRAY -> ArrowType.List.INSTANCE;
            case MAP, MULTISET -> new ArrowType.Map(false);
            case ROW -> ArrowType.Struct.INSTANCE;
            case VARIANT -> throw new IllegalArgumentException("VARIANT has no Arrow mapping yet");
        };
    }

    public static TimeUnit timeUnit(int precision)
    {
        if (precision <= 3) {
            return TimeUnit.MILLISECOND;
        }
        return precision <= 6 ? TimeUnit.MICROSECOND : TimeUnit.NANOSECOND;
    }
}
