package io.tarn.vector.orc;

import io.tarn.vector.CorruptDataException;

import java.nio.charset.StandardCharsets;

/**
 * A cursor over one protobuf message in {@code bytes[position, limit)}: the wire format of ORC's
 * tail and stripe metadata (orc_proto.proto). Only what those messages use is read: varints
 * (plain and zigzag), fixed 64-bit doubles and length-delimited fields (strings, bytes,
 * sub-messages, packed repeated numbers). Unknown fields are skipped by their wire type, so newer
 * writers' additions are ignored; groups (wire types 3 and 4), which proto2 ORC never writes, are
 * corrupt.
 * <p>
 * Trust contract: every length is checked against the message's limit before it is used, and a
 * varint longer than ten bytes is corrupt; violations throw {@link CorruptDataException}.
 */
final class ProtobufReader
{
    static final int VARINT = 0;
    static final int FIXED64 = 1;
    static final int LENGTH_DELIMITED = 2;
    static final int FIXED32 = 5;

    private final byte[] bytes;
    private final int limit;
    private int position;
    private int wireType = -1;

    ProtobufReader(byte[] bytes, int offset, int length)
    {
        if (offset < 0 || length < 0 || offset > bytes.length - length) {
            throw new CorruptDataException("Message of " + length + " bytes at " + offset + " is outside its buffer of " + bytes.length + " bytes");
        }
        this.bytes = bytes;
        this.position = offset;
        this.limit = offset + length;
    }

    /**
     * Moves to the next field and returns its number, or -1 at the end of the message. The
     * caller reads the field's value or calls {@link #skip()}.
     */
    int nextField()
    {
        if (position >= limit) {
            return -1;
        }
        long key = readVarint();
        wireType = (int) (key & 7);
        long field = key >>> 3;
        if (field == 0 || field > Integer.MAX_VALUE) {
            throw new CorruptDataException("Protobuf field number " + field + " is invalid");
        }
        return (int) field;
    }

    int wireType()
    {
        return wireType;
    }

    /**
     * Skips the value of the current field.
     */
    void skip()
    {
        switch (wireType) {
            case VARINT -> readVarint();
            case FIXED64 -> advance(8);
            case LENGTH_DELIMITED -> advance(readLength());
            case FIXED32 -> advance(4);
            default -> throw new CorruptDataException("Protobuf wire type " + wireType + " is not supported");
        }
    }

    long readVarint()
    {
        long result = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (position >= limit) {
                throw new CorruptDataException("Protobuf varint runs past the end of its message");
            }
            byte b = bytes[position++];
            result |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                return result;
            }
        }
        throw new CorruptDataException("Protobuf varint is longer than ten bytes");
    }

    /**
     * A {@code uint64} field's value, which must fit a non-negative long: ORC stores lengths,
     * offsets and counts in them.
     */
    long readUnsigned()
    {
        expect(VARINT);
        long value = readVarint();
        if (value < 0) {
            throw new CorruptDataException("Protobuf unsigned value " + Long.toUnsignedString(value) + " is too large");
        }
        return value;
    }

    /**
     * A {@code uint32} field, which must fit a non-negative int.
     */
    int readUnsignedInt()
    {
        long value = readUnsigned();
        if (value > Integer.MAX_VALUE) {
            throw new CorruptDataException("Protobuf value " + value + " does not fit 31 bits");
        }
        return (int) value;
    }

    /**
     * A {@code sint64} (zigzag) field.
     */
    long readSigned()
    {
        expect(VARINT);
        return zigzag(readVarint());
    }

    /**
     * An {@code int32} field: a plain varint of the two's complement value, sign-extended to
     * ten bytes when negative.
     */
    int readInt32()
    {
        expect(VARINT);
        return (int) readVarint();
    }

    boolean readBoolean()
    {
        expect(VARINT);
        return readVarint() != 0;
    }

    double readDouble()
    {
        expect(FIXED64);
        advance(8);
        long bits = 0;
        for (int i = 1; i <= 8; i++) {
            bits = (bits << 8) | (bytes[position - i] & 0xFF);
        }
        return Double.longBitsToDouble(bits);
    }

    String readString()
    {
        expect(LENGTH_DELIMITED);
        int length = readLength();
        int start = position;
        advance(length);
        return new String(bytes, start, length, StandardCharsets.UTF_8);
    }

    byte[] readBytes()
    {
        expect(LENGTH_DELIMITED);
        int length = readLength();
        int start = position;
        advance(length);
        byte[] result = new byte[length];
        System.arraycopy(bytes, start, result, 0, length);
        return result;
    }

    /**
     * The current field's embedded message; this reader moves past it.
     */
    ProtobufReader readMessage()
    {
        expect(LENGTH_DELIMITED);
        int length = readLength();
        ProtobufReader message = new ProtobufReader(bytes, position, length);
        advance(length);
        return message;
    }

    /**
     * Appends the current field's unsigned values to {@code values}: one varint when unpacked,
     * all varints of the field when packed (writers may use either form).
     */
    void readUnsignedRepeated(LongList values)
    {
        if (wireType == VARINT) {
            values.add(readUnsigned());
            return;
        }
        expect(LENGTH_DELIMITED);
        int length = readLength();
        int end = position + length;
        ProtobufReader packed = new ProtobufReader(bytes, position, length);
        while (packed.position < packed.limit) {
            long value = packed.readVarint();
            if (value < 0) {
                throw new CorruptDataException("Protobuf unsigned value " + Long.toUnsignedString(value) + " is too large");
            }
            values.add(value);
        }
        position = end;
    }

    static long zigzag(long value)
    {
        return (value >>> 1) ^ -(value & 1);
    }

    private int readLength()
    {
        long length = readVarint();
        if (length < 0 || length > limit - position) {
            throw new CorruptDataException("Protobuf field of " + length + " bytes runs past the end of its message (" + (limit - position) + " bytes left)");
        }
        return (int) length;
    }

    private void advance(int length)
    {
        if (length > limit - position) {
            throw new CorruptDataException("Protobuf field runs past the end of its message");
        }
        position += length;
    }

    private void expect(int expected)
    {
        if (wireType != expected) {
            throw new CorruptDataException("Protobuf field has wire type " + wireType + ", expected " + expected);
        }
    }
}
