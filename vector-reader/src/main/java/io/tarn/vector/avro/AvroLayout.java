package io.tarn.vector.avro;

import io.tarn.types.ArrayType;
import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.MapType;
import io.tarn.types.MultisetType;
import io.tarn.types.RowType;
import io.tarn.types.TypeRoot;
import io.tarn.vector.DataFileCorruptionException;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;

import java.util.List;

/**
 * The Avro schema Paimon's writer ({@code AvroSchemaConverter} in paimon-format) gives each
 * Paimon type, and the check that a file's schema has it:
 *
 * <pre>
 * BOOLEAN boolean     TINYINT, SMALLINT, INT int     BIGINT long     FLOAT float     DOUBLE double
 * CHAR, VARCHAR string                 BINARY, VARBINARY bytes
 * DECIMAL(p, s) bytes with logical type decimal(p, s): the unscaled value, big-endian two's complement
 * DATE int (date): days since 1970-01-01          TIME(p &lt;= 3) int (time-millis): milliseconds of the day
 * TIMESTAMP(p) long: timestamp-millis for p &lt;= 3, timestamp-micros for p &lt;= 6
 * TIMESTAMP_LTZ(p) long: local-timestamp-millis for p &lt;= 3, local-timestamp-micros for p &lt;= 6
 * ARRAY array         ROW record, one field per Paimon field, named as it is
 * MAP, MULTISET with a CHAR / VARCHAR key: map (Avro keys are strings), values of the value type
 *     (MULTISET: nullable int counts); with any other key: array of a record {key, value}
 * a nullable type: the union [null, T]
 * </pre>
 * Paimon refuses TIMESTAMP and TIMESTAMP_LTZ above precision 6 and TIME above 3 in Avro files.
 * The check accepts a little more than Paimon writes where that changes nothing in how the
 * values decode: nullability either way, bytes for strings, string or fixed for binaries,
 * fixed for decimals, and the nanosecond timestamp types of newer Avro versions.
 */
final class AvroLayout
{
    private AvroLayout() {}

    /**
     * Checks that {@code avro} is how Paimon writes {@code type}; fails naming the file and
     * {@code column}, the field's path.
     */
    static void check(Schema avro, DataType type, String file, String column)
            throws DataFileCorruptionException
    {
        Schema value = nonNull(avro);
        if (value == null) {
            throw mismatch(avro, type, file, column);
        }
        if (type instanceof ArrayType array) {
            if (value.getType() != Schema.Type.ARRAY) {
                throw mismatch(avro, type, file, column);
            }
            check(value.getElementType(), array.element(), file, column + ".element");
            return;
        }
        if (type instanceof MapType || type instanceof MultisetType) {
            DataType key = type instanceof MapType map ? map.key() : ((MultisetType) type).element();
            DataType valueType = type instanceof MapType map ? map.value() : new AtomicType(TypeRoot.INT, 0, 0, true);
            if (isStringKeyed(type)) {
                if (value.getType() != Schema.Type.MAP) {
                    throw mismatch(avro, type, file, column);
                }
                check(value.getValueType(), valueType, file, column + ".value");
                return;
            }
            Schema entry = value.getType() == Schema.Type.ARRAY ? value.getElementType() : null;
            if (entry == null || entry.getType() != Schema.Type.RECORD || entry.getField("key") == null || entry.getField("value") == null) {
                throw mismatch(avro, type, file, column);
            }
            check(entry.getField("key").schema(), key, file, column + ".key");
            check(entry.getField("value").schema(), valueType, file, column + ".value");
            return;
        }
        if (type instanceof RowType row) {
            if (value.getType() != Schema.Type.RECORD) {
                throw mismatch(avro, type, file, column);
            }
            checkFields(value, row.fields(), file, column + ".");
            return;
        }
        if (!holds(value, (AtomicType) type)) {
            throw mismatch(avro, type, file, column);
        }
    }

    /**
     * Checks that every one of {@code fields} is a field of the record {@code avro}, by name.
     */
    static void checkFields(Schema record, List<DataField> fields, String file, String prefix)
            throws DataFileCorruptionException
    {
        for (DataField field : fields) {
            Schema.Field avroField = record.getField(field.name());
            if (avroField == null) {
                throw new DataFileCorruptionException("File " + file + " has no Avro field " + prefix + field.name() + " (" + field.type().asSqlString()
                        + "), which the schema the file was written with has");
            }
            check(avroField.schema(), field.type(), file, prefix + field.name());
        }
    }

    /**
     * Whether Paimon writes {@code type} (a MAP or MULTISET) as an Avro map.
     */
    static boolean isStringKeyed(DataType type)
    {
        DataType key = type instanceof MapType map ? map.key() : ((MultisetType) type).element();
        return key.root() == TypeRoot.CHAR || key.root() == TypeRoot.VARCHAR;
    }

    /**
     * The branch of a union with null, {@code avro} itself when it is not a union, or null for
     * any other union.
     */
    static Schema nonNull(Schema avro)
    {
        if (avro.getType() != Schema.Type.UNION) {
            return avro;
        }
        int nullIndex = nullIndex(avro);
        if (nullIndex < 0) {
            return null;
        }
        return avro.getTypes().get(1 - nullIndex);
    }

    /**
     * The index of the null branch of a union of null and one other type, or -1.
     */
    static int nullIndex(Schema union)
    {
        List<Schema> branches = union.getTypes();
        if (branches.size() != 2) {
            return -1;
        }
        boolean first = branches.get(0).getType() == Schema.Type.NULL;
        boolean second = branches.get(1).getType() == Schema.Type.NULL;
        if (first == second) {
            return -1;
        }
        return first ? 0 : 1;
    }

    private static boolean holds(Schema avro, AtomicType type)
    {
        Schema.Type physical = avro.getType();
        LogicalType logical = avro.getLogicalType();
        return switch (type.root()) {
            case BOOLEAN -> physical == Schema.Type.BOOLEAN;
            case TINYINT, SMALLINT, INT, DATE, TIME -> physical == Schema.Type.INT;
            case BIGINT -> physical == Schema.Type.LONG && AtomicDecoders.unitsPerSecond(logical) < 0;
            case FLOAT -> physical == Schema.Type.FLOAT;
            case DOUBLE -> physical == Schema.Type.DOUBLE;
            case CHAR, VARCHAR -> physical == Schema.Type.STRING || physical == Schema.Type.BYTES;
            case BINARY, VARBINARY -> physical == Schema.Type.BYTES || physical == Schema.Type.STRING || physical == Schema.Type.FIXED;
            case DECIMAL -> (physical == Schema.Type.BYTES || physical == Schema.Type.FIXED) && logical instanceof LogicalTypes.Decimal;
            case TIMESTAMP, TIMESTAMP_LTZ -> physical == Schema.Type.LONG && AtomicDecoders.unitsPerSecond(logical) > 0;
            default -> false;
        };
    }

    private static DataFileCorruptionException mismatch(Schema avro, DataType type, String file, String column)
    {
        return new DataFileCorruptionException("File " + file + " column " + column + " has Avro type " + describe(avro) + ", which is not how Paimon writes "
                + type.asSqlString());
    }

    /**
     * A short description of an Avro schema for messages: its type, logical type and, for
     * unions, branches.
     */
    static String describe(Schema avro)
    {
        String text = switch (avro.getType()) {
            case UNION -> {
                StringBuilder branches = new StringBuilder("union[");
                for (int i = 0; i < avro.getTypes().size(); i++) {
                    branches.append(i == 0 ? "" : ", ").append(describe(avro.getTypes().get(i)));
                }
                yield branches.append(']').toString();
            }
            case RECORD -> "record " + avro.getName();
            case FIXED -> "fixed(" + avro.getFixedSize() + ")";
            default -> avro.getType().getName();
        };
        LogicalType logical = avro.getLogicalType();
        return logical == null ? text : text + " (" + logical.getName() + ")";
    }
}
