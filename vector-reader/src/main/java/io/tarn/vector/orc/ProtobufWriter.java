package io.tarn.vector.orc;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes one protobuf message, field by field, in the order called: varints, zigzag varints,
 * fixed 64-bit doubles, length-delimited strings, bytes, nested messages and packed varints.
 * The counterpart of {@link ProtobufReader} for the ORC metadata a writer produces.
 */
final class ProtobufWriter
{
    private static final int VARINT = 0;
    private static final int FIXED64 = 1;
    private static final int LENGTH_DELIMITED = 2;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    ProtobufWriter writeUnsigned(int field, long value)
    {
        tag(field, VARINT);
        varint(value);
        return this;
    }

    ProtobufWriter writeSigned(int field, long value)
    {
        tag(field, VARINT);
        varint((value << 1) ^ (value >> 63));
        return this;
    }

    ProtobufWriter writeBoolean(int field, boolean value)
    {
        return writeUnsigned(field, value ? 1 : 0);
    }

    ProtobufWriter writeDouble(int field, double value)
    {
        tag(field, FIXED64);
        long bits = Double.doubleToRawLongBits(value);
        for (int i = 0; i < 8; i++) {
            out.write((int) (bits >>> (8 * i)));
        }
        return this;
    }

    ProtobufWriter writeString(int field, String value)
    {
        return writeBytes(field, value.getBytes(StandardCharsets.UTF_8));
    }

    ProtobufWriter writeBytes(int field, byte[] value)
    {
        tag(field, LENGTH_DELIMITED);
        varint(value.length);
        out.writeBytes(value);
        return this;
    }

    ProtobufWriter writeMessage(int field, ProtobufWriter message)
    {
        return writeBytes(field, message.toByteArray());
    }

    /**
     * A packed repeated varint field; nothing when {@code values} is empty.
     */
    ProtobufWriter writePackedUnsigned(int field, long[] values, int count)
    {
        if (count == 0) {
            return this;
        }
        ProtobufWriter packed = new ProtobufWriter();
        for (int i = 0; i < count; i++) {
            packed.varint(values[i]);
        }
        return writeMessage(field, packed);
    }

    byte[] toByteArray()
    {
        return out.toByteArray();
    }

    private void tag(int field, int wireType)
    {
        varint(((long) field << 3) | wireType);
    }

    private void varint(long value)
    {
        while ((value & ~0x7FL) != 0) {
            out.write((int) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        out.write((int) value);
    }
}
