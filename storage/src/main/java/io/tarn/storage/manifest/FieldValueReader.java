package io.tarn.storage.manifest;

import io.tarn.storage.binary.BinaryRow;
import org.apache.avro.Schema;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static io.tarn.storage.manifest.AvroFields.strings;
import static io.tarn.storage.manifest.AvroFields.toBytes;
import static io.tarn.storage.manifest.AvroFields.toInt;
import static io.tarn.storage.manifest.AvroFields.toList;
import static io.tarn.storage.manifest.AvroFields.toLong;
import static io.tarn.storage.manifest.AvroFields.toText;

/**
 * Readers of one value of a manifest field, given the field's writer schema: a value of the
 * expected Avro type is read directly; any other type is decoded by Avro's generic reader and
 * converted as {@link AvroFields} does, which rejects it with the same message. A null value reads
 * as null, or, for the int and long readers, sets {@link #present()} to false.
 */
final class FieldValueReader
{
    // whether the value the last readInt or readLong read was present (not null)
    private boolean present;

    boolean present()
    {
        return present;
    }

    int readInt(Schema schema, AvroCursor cursor, String name)
            throws IOException
    {
        present = true;
        if (schema.getType() == Schema.Type.UNION) {
            schema = cursor.readUnionBranch(schema);
        }
        return switch (schema.getType()) {
            case INT -> cursor.readInt();
            case NULL -> {
                present = false;
                yield 0;
            }
            default -> toInt(name, cursor.decode(schema));
        };
    }

    long readLong(Schema schema, AvroCursor cursor, String name)
            throws IOException
    {
        present = true;
        if (schema.getType() == Schema.Type.UNION) {
            schema = cursor.readUnionBranch(schema);
        }
        return switch (schema.getType()) {
            case LONG -> cursor.readLong();
            case INT -> cursor.readInt();
            case NULL -> {
                present = false;
                yield 0;
            }
            default -> toLong(name, cursor.decode(schema));
        };
    }

    static String readString(Schema schema, AvroCursor cursor, String name)
            throws IOException
    {
        if (schema.getType() == Schema.Type.UNION) {
            schema = cursor.readUnionBranch(schema);
        }
        return switch (schema.getType()) {
            case STRING -> cursor.readString();
            case NULL -> null;
            default -> toText(name, cursor.decode(schema));
        };
    }

    static byte[] readBytes(Schema schema, AvroCursor cursor, String name)
            throws IOException
    {
        if (schema.getType() == Schema.Type.UNION) {
            schema = cursor.readUnionBranch(schema);
        }
        return switch (schema.getType()) {
            case BYTES -> cursor.readBytes();
            case NULL -> null;
            default -> toBytes(name, cursor.decode(schema));
        };
    }

    static BinaryRow readRow(Schema schema, AvroCursor cursor, String name)
            throws IOException
    {
        try {
            byte[] bytes = readBytes(schema, cursor, name);
            return bytes == null ? null : row(bytes, name);
        }
        catch (IllegalArgumentException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("Field " + name + " is not a valid BinaryRow")) {
                throw e;
            }
            throw new IllegalArgumentException("Field " + name + " is not a valid BinaryRow: " + e.getMessage(), e);
        }
    }

    static BinaryRow row(byte[] serialized, String name)
    {
        try {
            return BinaryRow.fromSerialized(serialized);
        }
        catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Field " + name + " is not a valid BinaryRow: " + e.getMessage(), e);
        }
    }

    static List<String> readStrings(Schema schema, AvroCursor cursor, String name)
            throws IOException
    {
        if (schema.getType() == Schema.Type.UNION) {
            schema = cursor.readUnionBranch(schema);
        }
        if (schema.getType() == Schema.Type.NULL) {
            return null;
        }
        if (schema.getType() != Schema.Type.ARRAY || schema.getElementType().getType() != Schema.Type.STRING) {
            return strings(name, toList(name, cursor.decode(schema)));
        }
        List<String> values = null;
        for (long count = cursor.readBlockCount(); count != 0; count = cursor.readBlockCount()) {
            if (values == null) {
                values = new ArrayList<>((int) count);
            }
            for (long i = 0; i < count; i++) {
                values.add(cursor.readString());
            }
        }
        return values == null ? List.of() : List.copyOf(values);
    }

    static IllegalArgumentException missing(String name)
    {
        return new IllegalArgumentException("Required field " + name + " is missing or null");
    }

    static IllegalArgumentException missingRow(String name)
    {
        return new IllegalArgumentException("Field " + name + " is not a valid BinaryRow: Required field " + name + " is missing or null");
    }
}
