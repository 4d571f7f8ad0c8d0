package io.tarn.vector.writer;

import io.tarn.types.ArrayType;
import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.MapType;
import io.tarn.types.MultisetType;
import io.tarn.types.RowType;
import io.tarn.types.TypeRoot;
import org.apache.parquet.format.ConvertedType;
import org.apache.parquet.format.DateType;
import org.apache.parquet.format.DecimalType;
import org.apache.parquet.format.FieldRepetitionType;
import org.apache.parquet.format.IntType;
import org.apache.parquet.format.ListType;
import org.apache.parquet.format.LogicalType;
import org.apache.parquet.format.MicroSeconds;
import org.apache.parquet.format.MilliSeconds;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.StringType;
import org.apache.parquet.format.TimeType;
import org.apache.parquet.format.TimeUnit;
import org.apache.parquet.format.TimestampType;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.OriginalType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Type.Repetition;
import org.apache.parquet.schema.Types;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Paimon's Parquet schema conventions (PAIMON_FORMAT.md §6.2): message {@code paimon_schema},
 * every field carries its Paimon field id, nullable types are {@code optional} and others
 * {@code required}, 3-level LISTs, MAPs with a required key, and the synthetic ids Paimon gives
 * array elements, map keys and map values.
 */
final class ParquetSchemas
{
    static final String MESSAGE_NAME = "paimon_schema";

    // org.apache.paimon.table.SpecialFields: the base of the ids of nested array and map members
    private static final int NESTED_ID_BASE = Integer.MAX_VALUE / 4;
    private static final int NESTED_ID_STEP = 1024;

    private ParquetSchemas() {}

    static MessageType toMessageType(RowType rowType)
    {
        return new MessageType(MESSAGE_NAME, toTypes(rowType.fields()));
    }

    private static List<Type> toTypes(List<DataField> fields)
    {
        List<Type> types = new ArrayList<>(fields.size());
        for (DataField field : fields) {
            types.add(toType(field.name(), field.type(), field.id(), 0));
        }
        return types;
    }

    static int arrayElementId(int arrayId, int depth)
    {
        return NESTED_ID_BASE + arrayId * NESTED_ID_STEP + depth;
    }

    static int mapKeyId(int mapId, int depth)
    {
        return NESTED_ID_BASE - mapId * NESTED_ID_STEP - depth;
    }

    static int mapValueId(int mapId, int depth)
    {
        return NESTED_ID_BASE + mapId * NESTED_ID_STEP + depth;
    }

    private static Type toType(String name, DataType type, int id, int depth)
    {
        Repetition repetition = type.nullable() ? Repetition.OPTIONAL : Repetition.REQUIRED;
        if (type instanceof ArrayType array) {
            Type element = toType("element", array.element(), id, depth + 1).withId(arrayElementId(id, depth + 1));
            GroupType list = new GroupType(Repetition.REPEATED, "list", element);
            return Types.buildGroup(repetition).as(LogicalTypeAnnotation.listType()).addField(list).named(name).withId(id);
        }
        if (type instanceof MapType map) {
            return mapType(name, repetition, map.key(), map.value(), id, depth);
        }
        if (type instanceof MultisetType multiset) {
            return mapType(name, repetition, multiset.element(), new AtomicType(TypeRoot.INT, 0, 0, false), id, depth);
        }
        if (type instanceof RowType row) {
            return new GroupType(repetition, name, toTypes(row.fields())).withId(id);
        }
        return primitive(name, (AtomicType) type, repetition).withId(id);
    }

    private static Type mapType(String name, Repetition repetition, DataType key, DataType value, int id, int depth)
    {
        // Parquet has no nullable map keys, so Paimon forces the key to required
        Type keyType = toType("key", key.withNullable(false), id, depth + 1).withId(mapKeyId(id, depth + 1));
        Type valueType = toType("value", value, id, depth + 1).withId(mapValueId(id, depth + 1));
        // parquet-mr (and so Paimon) marks the repeated group with the legacy MAP_KEY_VALUE converted type
        GroupType keyValue = Types.buildGroup(Repetition.REPEATED)
                .as(LogicalTypeAnnotation.MapKeyValueTypeAnnotation.getInstance())
                .addFields(keyType, valueType)
                .named("key_value");
        return Types.buildGroup(repetition).as(LogicalTypeAnnotation.mapType()).addField(keyValue).named(name).withId(id);
    }

    private static PrimitiveType primitive(String name, AtomicType type, Repetition repetition)
    {
        return switch (type.root()) {
            case BOOLEAN -> Types.primitive(PrimitiveTypeName.BOOLEAN, repetition).named(name);
            case TINYINT -> Types.primitive(PrimitiveTypeName.INT32, repetition).as(LogicalTypeAnnotation.intType(8, true)).named(name);
            case SMALLINT -> Types.primitive(PrimitiveTypeName.INT32, repetition).as(LogicalTypeAnnotation.intType(16, true)).named(name);
            case INT -> Types.primitive(PrimitiveTypeName.INT32, repetition).named(name);
            case BIGINT -> Types.primitive(PrimitiveTypeName.INT64, repetition).named(name);
            case FLOAT -> Types.primitive(PrimitiveTypeName.FLOAT, repetition).named(name);
            case DOUBLE -> Types.primitive(PrimitiveTypeName.DOUBLE, repetition).named(name);
            case DECIMAL -> decimal(name, type.precision(), type.scale(), repetition);
            case CHAR, VARCHAR -> Types.primitive(PrimitiveTypeName.BINARY, repetition).as(LogicalTypeAnnotation.stringType()).named(name);
            case BINARY, VARBINARY -> Types.primitive(PrimitiveTypeName.BINARY, repetition).named(name);
            case DATE -> Types.primitive(PrimitiveTypeName.INT32, repetition).as(LogicalTypeAnnotation.dateType()).named(name);
            case TIME -> Types.primitive(PrimitiveTypeName.INT32, repetition)
                    .as(LogicalTypeAnnotation.timeType(true, LogicalTypeAnnotation.TimeUnit.MILLIS))
                    .named(name);
            case TIMESTAMP -> timestamp(name, type.precision(), false, repetition);
            case TIMESTAMP_LTZ -> timestamp(name, type.precision(), true, repetition);
            default -> throw new IllegalArgumentException("Type has no Parquet mapping: " + type);
        };
    }

    private static PrimitiveType decimal(String name, int precision, int scale, Repetition repetition)
    {
        LogicalTypeAnnotation annotation = LogicalTypeAnnotation.decimalType(scale, precision);
        if (precision <= 9) {
            return Types.primitive(PrimitiveTypeName.INT32, repetition).as(annotation).named(name);
        }
        if (precision <= 18) {
            return Types.primitive(PrimitiveTypeName.INT64, repetition).as(annotation).named(name);
        }
        return Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, repetition)
                .as(annotation)
                .length(decimalBytes(precision))
                .named(name);
    }

    /**
     * The fewest bytes whose two's complement holds every unscaled value of the precision.
     */
    static int decimalBytes(int precision)
    {
        BigInteger largest = BigInteger.TEN.pow(precision).subtract(BigInteger.ONE);
        // bitLength excludes the sign bit
        return (largest.bitLength() + 1 + 7) / 8;
    }

    private static PrimitiveType timestamp(String name, int precision, boolean adjustedToUtc, Repetition repetition)
    {
        if (precision > 6) {
            // Paimon keeps nanosecond timestamps in INT96, which has no logical annotation
            return Types.primitive(PrimitiveTypeName.INT96, repetition).named(name);
        }
        LogicalTypeAnnotation.TimeUnit unit = precision <= 3 ? LogicalTypeAnnotation.TimeUnit.MILLIS : LogicalTypeAnnotation.TimeUnit.MICROS;
        return Types.primitive(PrimitiveTypeName.INT64, repetition)
                .as(LogicalTypeAnnotation.timestampType(adjustedToUtc, unit))
                .named(name);
    }

    /**
     * The schema as the footer stores it: a depth-first list of elements, the root first.
     */
    static List<SchemaElement> toSchemaElements(MessageType message)
    {
        List<SchemaElement> elements = new ArrayList<>();
        SchemaElement root = new SchemaElement(message.getName());
        root.setNum_children(message.getFieldCount());
        elements.add(root);
        for (Type field : message.getFields()) {
            addElements(field, elements);
        }
        return elements;
    }

    private static void addElements(Type type, List<SchemaElement> elements)
    {
        SchemaElement element = new SchemaElement(type.getName());
        element.setRepetition_type(FieldRepetitionType.valueOf(type.getRepetition().name()));
        if (type.getId() != null) {
            element.setField_id(type.getId().intValue());
        }
        LogicalTypeAnnotation annotation = type.getLogicalTypeAnnotation();
        if (annotation != null) {
            OriginalType originalType = annotation.toOriginalType();
            if (originalType != null) {
                element.setConverted_type(ConvertedType.valueOf(originalType.name()));
            }
            LogicalType logicalType = toLogicalType(annotation);
            if (logicalType != null) {
                element.setLogicalType(logicalType);
            }
            if (annotation instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation decimal) {
                element.setPrecision(decimal.getPrecision());
                element.setScale(decimal.getScale());
            }
        }
        if (type.isPrimitive()) {
            PrimitiveType primitive = type.asPrimitiveType();
            element.setType(physicalType(primitive.getPrimitiveTypeName()));
            if (primitive.getPrimitiveTypeName() == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY) {
                element.setType_length(primitive.getTypeLength());
            }
            elements.add(element);
            return;
        }
        GroupType group = type.asGroupType();
        element.setNum_children(group.getFieldCount());
        elements.add(element);
        for (Type child : group.getFields()) {
            addElements(child, elements);
        }
    }

    static org.apache.parquet.format.Type physicalType(PrimitiveTypeName name)
    {
        return switch (name) {
            case BOOLEAN -> org.apache.parquet.format.Type.BOOLEAN;
            case INT32 -> org.apache.parquet.format.Type.INT32;
            case INT64 -> org.apache.parquet.format.Type.INT64;
            case INT96 -> org.apache.parquet.format.Type.INT96;
            case FLOAT -> org.apache.parquet.format.Type.FLOAT;
            case DOUBLE -> org.apache.parquet.format.Type.DOUBLE;
            case BINARY -> org.apache.parquet.format.Type.BYTE_ARRAY;
            case FIXED_LEN_BYTE_ARRAY -> org.apache.parquet.format.Type.FIXED_LEN_BYTE_ARRAY;
        };
    }

    private static LogicalType toLogicalType(LogicalTypeAnnotation annotation)
    {
        if (annotation instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation) {
            return LogicalType.STRING(new StringType());
        }
        if (annotation instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation integer) {
            return LogicalType.INTEGER(new IntType((byte) integer.getBitWidth(), integer.isSigned()));
        }
        if (annotation instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation decimal) {
            return LogicalType.DECIMAL(new DecimalType(decimal.getScale(), decimal.getPrecision()));
        }
        if (annotation instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
            return LogicalType.DATE(new DateType());
        }
        if (annotation instanceof LogicalTypeAnnotation.TimeLogicalTypeAnnotation time) {
            return LogicalType.TIME(new TimeType(time.isAdjustedToUTC(), timeUnit(time.getUnit())));
        }
        if (annotation instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation timestamp) {
            return LogicalType.TIMESTAMP(new TimestampType(timestamp.isAdjustedToUTC(), timeUnit(timestamp.getUnit())));
        }
        if (annotation instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation) {
            return LogicalType.LIST(new ListType());
        }
        if (annotation instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation) {
            return LogicalType.MAP(new org.apache.parquet.format.MapType());
        }
        return null;
    }

    private static TimeUnit timeUnit(LogicalTypeAnnotation.TimeUnit unit)
    {
        return switch (unit) {
            case MILLIS -> TimeUnit.MILLIS(new MilliSeconds());
            case MICROS -> TimeUnit.MICROS(new MicroSeconds());
            case NANOS -> throw new IllegalArgumentException("Paimon writes no nanosecond annotation");
        };
    }
}
