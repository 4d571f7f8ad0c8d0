package io.tarn.storage.manifest;

import io.tarn.storage.CorruptFileException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.util.Arrays;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * A bounded reader of Avro's binary encoding over a byte range, for {@link ManifestEntryDecoder}:
 * every length is checked against the bytes that remain before it is used, and byte ranges can be
 * compared in place. Values of any other schema than the few the decoder reads directly are
 * decoded or skipped by Avro's {@link GenericDatumReader}, through a {@link BoundedDecoder} over
 * the same bytes.
 */
final class AvroCursor
{
    private final byte[] bytes;
    private final int limit;
    private int position;
    private CharsetDecoder decoder;
    private BoundedDecoder avroDecoder;

    AvroCursor(byte[] bytes, int position, int limit)
    {
        this.bytes = bytes;
        this.position = position;
        this.limit = limit;
    }

    int remaining()
    {
        return limit - position;
    }

    int position()
    {
        return position;
    }

    /** Moves back to a position this cursor was at before. */
    void rewind(int newPosition)
    {
        position = newPosition;
    }

    /** The underlying bytes, for reading a range {@link #skipLength} returned in place. */
    byte[] array()
    {
        return bytes;
    }

    byte readByte()
            throws CorruptFileException
    {
        if (position >= limit) {
            throw new CorruptFileException("Unexpected end of Avro data");
        }
        return bytes[position++];
    }

    long readLong()
            throws CorruptFileException
    {
        // fast path for the common one- and two-byte varints
        if (limit - position >= 2) {
            int b0 = bytes[position];
            if (b0 >= 0) {
                position++;
                return (b0 >>> 1) ^ -(b0 & 1);
            }
            int b1 = bytes[position + 1];
            if (b1 >= 0) {
                position += 2;
                long raw = (b0 & 0x7F) | ((long) b1 << 7);
                return (raw >>> 1) ^ -(raw & 1);
            }
        }
        long raw = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            byte b = readByte();
            raw |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return (raw >>> 1) ^ -(raw & 1);
            }
        }
        throw new CorruptFileException("Invalid Avro varint");
    }

    int readInt()
            throws CorruptFileException
    {
        long value = readLong();
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
            throw new CorruptFileException("Avro int out of range: " + value);
        }
        return (int) value;
    }

    byte[] readFixed(int length)
            throws CorruptFileException
    {
        int start = skipFixed(length);
        return Arrays.copyOfRange(bytes, start, start + length);
    }

    /** Skips {@code length} bytes and returns where they start. */
    int skipFixed(int length)
            throws CorruptFileException
    {
        if (length < 0 || length > remaining()) {
            throw new CorruptFileException("Avro value of " + length + " bytes, but only " + remaining() + " bytes remain");
        }
        int start = position;
        position += length;
        return start;
    }

    /** Reads the length of a bytes or string value. */
    int readLength()
            throws CorruptFileException
    {
        long length = readLong();
        if (length < 0 || length > remaining()) {
            throw new CorruptFileException("Avro value of " + length + " bytes, but only " + remaining() + " bytes remain");
        }
        return (int) length;
    }

    /** Skips a bytes or string value and returns where its content starts; its length is {@code position() - start}. */
    int skipLength()
            throws CorruptFileException
    {
        return skipFixed(readLength());
    }

    byte[] readBytes()
            throws CorruptFileException
    {
        return readFixed(readLength());
    }

    String readString()
            throws CorruptFileException
    {
        int length = readLength();
        int start = skipFixed(length);
        int end = start + length;
        for (int i = start; i < end; i++) {
            if (bytes[i] < 0) {
                return decodeUtf8(start, length);
            }
        }
        // ASCII: every byte is its own character
        return new String(bytes, start, length, ISO_8859_1);
    }

    private String decodeUtf8(int start, int length)
            throws CorruptFileException
    {
        if (decoder == null) {
            decoder = UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT);
        }
        try {
            return decoder.decode(ByteBuffer.wrap(bytes, start, length)).toString();
        }
        catch (CharacterCodingException e) {
            throw new CorruptFileException("Avro string is not valid UTF-8", e);
        }
    }

    /** Skips a string, checking that it is valid UTF-8 as reading it would. */
    void skipString()
            throws CorruptFileException
    {
        int length = readLength();
        int start = skipFixed(length);
        for (int i = start; i < start + length; i++) {
            if (bytes[i] < 0) {
                decodeUtf8(start, length);
                return;
            }
        }
    }

    /**
     * Reads the count of the next block of an array or map, 0 at its end; a negative count is
     * followed by the block's size in bytes, which is not needed.
     */
    long readBlockCount()
            throws CorruptFileException
    {
        long count = readLong();
        if (count < 0) {
            count = -count;
            readLong();
        }
        // AvroBlocks refuses schemas whose collection items can take no bytes
        if (count < 0 || count > remaining()) {
            throw new CorruptFileException("Avro collection of " + count + " items in only " + remaining() + " bytes");
        }
        return count;
    }

    /** Reads a union's branch index and returns the branch's schema. */
    Schema readUnionBranch(Schema union)
            throws CorruptFileException
    {
        long index = readLong();
        if (index < 0 || index >= union.getTypes().size()) {
            throw new CorruptFileException("Invalid Avro union branch " + index + " for " + union);
        }
        return union.getTypes().get((int) index);
    }

    /** Decodes a value of {@code schema} with Avro's generic reader. */
    Object decode(Schema schema)
            throws IOException
    {
        BoundedDecoder in = avroDecoder();
        Object value = new BoundedDatumReader(schema, in).read();
        position = limit - in.remaining();
        return value;
    }

    /**
     * Skips a value of {@code schema}, with the same checks reading it makes. The types manifests
     * are made of are skipped here, as skipping the data files of the entries a filter refuses is
     * much of planning; any other goes through Avro's generic reader.
     */
    void skip(Schema schema)
            throws IOException
    {
        switch (schema.getType()) {
            case NULL -> {}
            case INT -> readInt();
            case LONG -> readLong();
            case STRING -> skipString();
            case BYTES -> skipLength();
            case UNION -> skip(readUnionBranch(schema));
            case RECORD -> {
                for (Schema.Field field : schema.getFields()) {
                    skip(field.schema());
                }
            }
            case ARRAY -> {
                for (long count = readBlockCount(); count != 0; count = readBlockCount()) {
                    for (long i = 0; i < count; i++) {
                        skip(schema.getElementType());
                    }
                }
            }
            default -> {
                BoundedDecoder in = avroDecoder();
                GenericDatumReader.skip(schema, in);
                position = limit - in.remaining();
            }
        }
    }

    private BoundedDecoder avroDecoder()
    {
        if (avroDecoder == null) {
            avroDecoder = new BoundedDecoder();
        }
        avroDecoder.reset(bytes, position, limit - position);
        return avroDecoder;
    }
}
