package io.tarn.index.fileindex;

import io.tarn.types.AtomicType;
import io.tarn.types.DataType;
import io.tarn.types.Timestamp;

import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * How the bitmap index stores the values of each type it supports, and the keys it looks them
 * up by: TINYINT a byte, SMALLINT a short, INT / DATE / TIME an int, BIGINT a long, TIMESTAMP and
 * TIMESTAMP_LTZ a long (epoch millis up to precision 3, else epoch micros), FLOAT / DOUBLE their
 * IEEE bits, BOOLEAN one byte, CHAR / VARCHAR an int32 length and the UTF-8 bytes. Keys are
 * ordered as Paimon orders them in version-2 index blocks: numbers by value (floating types in
 * {@link Float#compare} order), strings by unsigned bytes.
 */
final class BitmapKeys
{
    private BitmapKeys() {}

    static boolean supports(DataType type)
    {
        return switch (type.root()) {
            case TINYINT, SMALLINT, INT, BIGINT, DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ, FLOAT, DOUBLE, BOOLEAN, CHAR, VARCHAR -> true;
            default -> false;
        };
    }

    /**
     * The key of a non-null value in the internal representation of {@code type}.
     */
    static Comparable<?> key(DataType type, Object value)
    {
        return switch (type.root()) {
            case CHAR, VARCHAR -> new Utf8(((String) value).getBytes(StandardCharsets.UTF_8));
            case TIMESTAMP, TIMESTAMP_LTZ -> FileIndexHash.timestampValue((AtomicType) type, (Timestamp) value);
            case TINYINT, SMALLINT, INT, BIGINT, DATE, TIME, FLOAT, DOUBLE, BOOLEAN -> (Comparable<?>) value;
            default -> throw new IllegalArgumentException("Bitmap indexes do not support type " + type.asSqlString());
        };
    }

    @SuppressWarnings("unchecked")
    static int compare(Object left, Object right)
    {
        return ((Comparable<Object>) left).compareTo(right);
    }

    static int size(DataType type, Object key)
    {
        return switch (type.root()) {
            case TINYINT, BOOLEAN -> 1;
            case SMALLINT -> 2;
            case INT, DATE, TIME, FLOAT -> 4;
            case BIGINT, TIMESTAMP, TIMESTAMP_LTZ, DOUBLE -> 8;
            case CHAR, VARCHAR -> 4 + ((Utf8) key).bytes().length;
            default -> throw new IllegalArgumentException("Bitmap indexes do not support type " + type.asSqlString());
        };
    }

    static void write(DataType type, Object key, DataOutputStream out)
            throws IOException
    {
        switch (type.root()) {
            case TINYINT -> out.writeByte((Byte) key);
            case SMALLINT -> out.writeShort((Short) key);
            case INT, DATE, TIME -> out.writeInt((Integer) key);
            case BIGINT, TIMESTAMP, TIMESTAMP_LTZ -> out.writeLong((Long) key);
            case FLOAT -> out.writeFloat((Float) key);
            case DOUBLE -> out.writeDouble((Double) key);
            case BOOLEAN -> out.writeBoolean((Boolean) key);
            case CHAR, VARCHAR -> {
                byte[] bytes = ((Utf8) key).bytes();
                out.writeInt(bytes.length);
                out.write(bytes);
            }
            default -> throw new IllegalArgumentException("Bitmap indexes do not support type " + type.asSqlString());
        }
    }

    /**
     * Reads a key at the buffer's position; the caller catches running past the end.
     */
    static Object read(DataType type, ByteBuffer buffer)
            throws CorruptIndexException
    {
        return switch (type.root()) {
            case TINYINT -> buffer.get();
            case SMALLINT -> buffer.getShort();
            case INT, DATE, TIME -> buffer.getInt();
            case BIGINT, TIMESTAMP, TIMESTAMP_LTZ -> buffer.getLong();
            case FLOAT -> buffer.getFloat();
            case DOUBLE -> buffer.getDouble();
            case BOOLEAN -> buffer.get() != 0;
            case CHAR, VARCHAR -> {
                int length = buffer.getInt();
                if (length < 0 || length > buffer.remaining()) {
                    throw new CorruptIndexException("Bitmap index has a string key of " + length + " bytes, but " + buffer.remaining() + " bytes are left");
                }
                byte[] bytes = new byte[length];
                buffer.get(bytes);
                yield new Utf8(bytes);
            }
            default -> throw new IllegalArgumentException("Bitmap indexes do not support type " + type.asSqlString());
        };
    }

    /**
     * A string key: its UTF-8 bytes, compared unsigned, which is code point order.
     */
    record Utf8(byte[] bytes)
            implements Comparable<Utf8>
    {
        @Override
        public int compareTo(Utf8 other)
        {
            return Arrays.compareUnsigned(bytes, other.bytes);
        }

        @Override
        public boolean equals(Object other)
        {
            return other instanceof Utf8 that && Arrays.equals(bytes, that.bytes);
        }

        @Override
        public int hashCode()
        {
            return Arrays.hashCode(bytes);
        }

        @Override
        public String toString()
        {
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }
}
