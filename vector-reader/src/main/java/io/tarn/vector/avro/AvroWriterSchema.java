package io.tarn.vector.avro;

import io.tarn.types.ArrayType;
import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.MapType;
import io.tarn.types.MultisetType;
import io.tarn.types.RowType;
import io.tarn.types.TypeRoot;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;

import java.util.ArrayList;
import java.util.List;

/**
 * The Avro schema Paimon's writer gives a row type (its {@code AvroSchemaConverter}; the type
 * table is in {@link AvroLayout}), so that a file Tarn writes carries the schema a file Paimon
 * writes would: the top-level record {@code org.apache.paimon.avro.generated.record}, nested
 * records named by their path ({@code record_a_b}), a nullable type as the union
 * {@code [null, T]} with default null, maps with non-string keys as arrays of
 * {@code {key, value}} records marked with the logical type {@code map}.
 */
final class AvroWriterSchema
{
    static final String NAMESPACE = "org.apache.paimon.avro.generated";
    static final String ROOT_NAME = "record";

    private static final int MAX_MILLIS_PRECISION = 3;
    private static final int MAX_MICROS_PRECISION = 6;

    private AvroWriterSchema() {}

    /**
     * The schema of {@code rowType}'s records; fails with {@link IllegalArgumentException}
     * naming the column for a type Avro cannot hold, as Paimon refuses it.
     */
    static Schema of(RowType rowType)
    {
        return record(rowType, ROOT_NAME);
    }

    private static Schema record(RowType rowType, String name)
    {
        List<Schema.Field> fields = new ArrayList<>();
        for (DataField field : rowType.fields()) {
            Schema type = nullable(convert(field.type(), name + "_" + field.name(), field.name()), field.type());
            try {
                fields.add(field.type().nullable()
                        ? new Schema.Field(field.name(), type, null, Schema.Field.NULL_DEFAULT_VALUE)
                        : new Schema.Field(field.name(), type));
            }
            catch (SchemaParseException e) {
                throw new IllegalArgumentException("Column " + field.name() + " cannot be written to Avro: " + e.getMessage(), e);
            }
        }
        return Schema.createRecord(name, null, NAMESPACE, false, fields);
    }

    private static Schema nullable(Schema schema, DataType type)
    {
        return type.nullable() ? Schema.createUnion(Schema.create(Schema.Type.NULL), schema) : schema;
    }

    private static Schema convert(DataType type, String name, String column)
    {
        if (type instanceof ArrayType array) {
            return Schema.createArray(nullable(convert(array.element(), name, column), array.element()));
        }
        if (type instanceof MapType || type instanceof MultisetType) {
            DataType key = type instanceof MapType map ? map.key() : ((MultisetType) type).element();
            DataType value = type instanceof MapType map ? map.value() : new AtomicType(TypeRoot.INT, 0, 0, true);
            Schema values = nullable(convert(value, name, column), value);
            if (AvroLayout.isStringKeyed(type)) {
                return Schema.createMap(values);
            }
            Schema entry = Schema.createRecord(name, null, NAMESPACE, false, List.of(
                    new Schema.Field("key", nullable(convert(key, name + "_key", column), key)),
                    value.nullable() ? new Schema.Field("value", values, null, Schema.Field.NULL_DEFAULT_VALUE) : new Schema.Field("value", values)));
            Schema entries = Schema.createArray(entry);
            entries.addProp("logicalType", "map");
            return entries;
        }
        if (type instanceof RowType row) {
            return record(row, name);
        }
        AtomicType atomic = (AtomicType) type;
        return switch (type.root()) {
            case BOOLEAN -> Schema.create(Schema.Type.BOOLEAN);
            case TINYINT, SMALLINT, INT -> Schema.create(Schema.Type.INT);
            case BIGINT -> Schema.create(Schema.Type.LONG);
            case FLOAT -> Schema.create(Schema.Type.FLOAT);
            case DOUBLE -> Schema.create(Schema.Type.DOUBLE);
            case CHAR, VARCHAR -> Schema.create(Schema.Type.STRING);
            case BINARY, VARBINARY -> Schema.create(Schema.Type.BYTES);
            case DECIMAL -> LogicalTypes.decimal(atomic.precision(), atomic.scale()).addToSchema(Schema.create(Schema.Type.BYTES));
            case DATE -> LogicalTypes.date().addToSchema(Schema.create(Schema.Type.INT));
            case TIME -> {
                if (atomic.precision() > MAX_MILLIS_PRECISION) {
                    throw new IllegalArgumentException("Column %s is %s: Avro holds TIME of precision up to %d".formatted(column, type.asSqlString(), MAX_MILLIS_PRECISION));
                }
                yield LogicalTypes.timeMillis().addToSchema(Schema.create(Schema.Type.INT));
            }
            case TIMESTAMP, TIMESTAMP_LTZ -> timestamp(atomic, column);
            default -> throw new IllegalArgumentException("Column %s is %s, which Tarn does not write to Avro".formatted(column, type.asSqlString()));
        };
    }

    private static Schema timestamp(AtomicType type, String column)
    {
        boolean local = type.root() == TypeRoot.TIMESTAMP_LTZ;
        int precision = type.precision();
        if (precision > MAX_MICROS_PRECISION) {
            throw new IllegalArgumentException("Column %s is %s: Avro holds timestamps of precision up to %d".formatted(column, type.asSqlString(), MAX_MICROS_PRECISION));
        }
        // as Paimon: TIMESTAMP as Avro's timestamp-*, TIMESTAMP_LTZ as its local-timestamp-*
        if (precision <= MAX_MILLIS_PRECISION) {
            return (local ? LogicalTypes.localTimestampMillis() : LogicalTypes.timestampMillis()).addToSchema(Schema.create(Schema.Type.LONG));
        }
        return (local ? LogicalTypes.localTimestampMicros() : LogicalTypes.timestampMicros()).addToSchema(Schema.create(Schema.Type.LONG));
    }
}
