package io.tarn.storage.manifest;

import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.binary.BinaryRow;
import io.tarn.storage.binary.SimpleStats;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.GenericRecord;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Picks manifest fields out of decoded Avro records by name, so that files of every Paimon
 * release read alike: a field the file lacks reads as absent, fields it has in addition are
 * ignored here (the codecs refuse fields Tarn does not know at all, see {@link ManifestFields}). A missing required field or a value of the wrong type throws
 * {@link IllegalArgumentException}, which the codecs turn into a corrupt-file error.
 */
final class AvroFields
{
    static final String VERSION = "_VERSION";

    private AvroFields() {}

    static Object value(GenericRecord record, String name)
    {
        Schema.Field field = record.getSchema().getField(name);
        return field == null ? null : record.get(field.pos());
    }

    static Object required(GenericRecord record, String name)
    {
        Object value = value(record, name);
        if (value == null) {
            throw new IllegalArgumentException("Required field " + name + " is missing or null");
        }
        return value;
    }

    static long longValue(GenericRecord record, String name)
    {
        return toLong(name, required(record, name));
    }

    static int intValue(GenericRecord record, String name)
    {
        return toInt(name, required(record, name));
    }

    static OptionalLong optionalLong(GenericRecord record, String name)
    {
        Object value = value(record, name);
        return value == null ? OptionalLong.empty() : OptionalLong.of(toLong(name, value));
    }

    static OptionalInt optionalInt(GenericRecord record, String name)
    {
        Object value = value(record, name);
        return value == null ? OptionalInt.empty() : OptionalInt.of(toInt(name, value));
    }

    static String string(GenericRecord record, String name)
    {
        return toText(name, required(record, name));
    }

    static Optional<String> optionalString(GenericRecord record, String name)
    {
        Object value = value(record, name);
        return value == null ? Optional.empty() : Optional.of(toText(name, value));
    }

    static byte[] bytes(GenericRecord record, String name)
    {
        return toBytes(name, required(record, name));
    }

    static Optional<List<?>> optionalList(GenericRecord record, String name)
    {
        Object value = value(record, name);
        return value == null ? Optional.empty() : Optional.of(toList(name, value));
    }

    static List<String> strings(String name, List<?> values)
    {
        List<String> result = new ArrayList<>(values.size());
        for (Object value : values) {
            if (value == null) {
                throw new IllegalArgumentException("Field " + name + " contains a null string");
            }
            result.add(toText(name, value));
        }
        return result;
    }

    static BinaryRow binaryRow(GenericRecord record, String name)
    {
        try {
            return BinaryRow.fromSerialized(bytes(record, name));
        }
        catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Field " + name + " is not a valid BinaryRow: " + e.getMessage(), e);
        }
    }

    static SimpleStats simpleStats(GenericRecord record, String name)
    {
        return simpleStatsValue(name, required(record, name));
    }

    /** The statistics in {@code value}, a decoded {@code SimpleStats} record of field {@code name}. */
    static SimpleStats simpleStatsValue(String name, Object value)
    {
        if (!(value instanceof GenericRecord stats)) {
            throw new IllegalArgumentException("Field " + name + " is not a record");
        }
        List<Long> nullCounts = new ArrayList<>();
        Object counts = value(stats, "_NULL_COUNTS");
        if (counts != null) {
            for (Object count : toList(name + "._NULL_COUNTS", counts)) {
                nullCounts.add(count == null ? null : toLong(name + "._NULL_COUNTS", count));
            }
        }
        return new SimpleStats(binaryRow(stats, "_MIN_VALUES"), binaryRow(stats, "_MAX_VALUES"), nullCounts);
    }

    /**
     * @throws UnsupportedTableFeatureException if the row's {@code _VERSION} is not {@code expected}
     */
    static void checkVersion(GenericRecord record, int expected, String what, String fileName)
            throws UnsupportedTableFeatureException
    {
        int version = intValue(record, VERSION);
        if (version != expected) {
            throw new UnsupportedTableFeatureException(what + " " + fileName + " has rows of version " + version + "; only version " + expected + " is supported");
        }
    }

    // writing

    static GenericData.Record simpleStatsRecord(Schema schema, SimpleStats stats)
    {
        GenericData.Record record = new GenericData.Record(schema);
        record.put("_MIN_VALUES", ByteBuffer.wrap(stats.minValues().toSerialized()));
        record.put("_MAX_VALUES", ByteBuffer.wrap(stats.maxValues().toSerialized()));
        record.put("_NULL_COUNTS", new ArrayList<>(stats.nullCounts()));
        return record;
    }

    /** The record schema of field {@code name}, looking through a {@code ["null", record]} union. */
    static Schema fieldSchema(Schema parent, String name)
    {
        Schema schema = parent.getField(name).schema();
        return schema.isUnion() ? schema.getTypes().get(1) : schema;
    }

    static ByteBuffer byteBuffer(byte[] bytes)
    {
        return bytes == null ? null : ByteBuffer.wrap(bytes);
    }

    static long toLong(String name, Object value)
    {
        if (value instanceof Long longValue) {
            return longValue;
        }
        if (value instanceof Integer intValue) {
            return intValue;
        }
        throw new IllegalArgumentException("Field " + name + " is not a long but " + value.getClass().getSimpleName());
    }

    static int toInt(String name, Object value)
    {
        if (value instanceof Integer intValue) {
            return intValue;
        }
        throw new IllegalArgumentException("Field " + name + " is not an int but " + value.getClass().getSimpleName());
    }

    static String toText(String name, Object value)
    {
        if (value instanceof CharSequence text) {
            return text.toString();
        }
        throw new IllegalArgumentException("Field " + name + " is not a string but " + value.getClass().getSimpleName());
    }

    static byte[] toBytes(String name, Object value)
    {
        if (value instanceof byte[] bytes) {
            return bytes;
        }
        if (value instanceof ByteBuffer buffer) {
            byte[] bytes = new byte[buffer.remaining()];
            buffer.duplicate().get(bytes);
            return bytes;
        }
        if (value instanceof GenericFixed fixed) {
            return fixed.bytes().clone();
        }
        throw new IllegalArgumentException("Field " + name + " is not bytes but " + value.getClass().getSimpleName());
    }

    static List<?> toList(String name, Object value)
    {
        if (value instanceof List<?> list) {
            return Collections.unmodifiableList(list);
        }
        throw new IllegalArgumentException("Field " + name + " is not an array but " + value.getClass().getSimpleName());
    }
}
