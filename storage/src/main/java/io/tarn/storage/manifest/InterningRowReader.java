package io.tarn.storage.manifest;

import io.tarn.storage.binary.BinaryRow;
import org.apache.avro.Schema;

import java.io.IOException;
import java.util.Arrays;

/**
 * Reads the BinaryRow values of one field: consecutive entries mostly share them, so when a
 * value's bytes equal those of the previous value read through this reader, it returns that
 * instance (rows are immutable) without copying.
 */
final class InterningRowReader
{
    // the last row read
    private byte[] serialized;
    private BinaryRow row;

    BinaryRow read(Schema schema, AvroCursor cursor, String name)
            throws IOException
    {
        if (schema.getType() != Schema.Type.BYTES) {
            return FieldValueReader.readRow(schema, cursor, name);
        }
        int length = cursor.readLength();
        int start = cursor.skipFixed(length);
        byte[] bytes = cursor.array();
        if (serialized != null && Arrays.equals(bytes, start, start + length, serialized, 0, serialized.length)) {
            return row;
        }
        byte[] newSerialized = Arrays.copyOfRange(bytes, start, start + length);
        BinaryRow newRow = FieldValueReader.row(newSerialized, name);
        serialized = newSerialized;
        row = newRow;
        return newRow;
    }
}
