package io.tarn.storage.manifest;

import io.tarn.storage.CorruptFileException;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.Decoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.util.Utf8;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Avro's {@link BinaryDecoder} over one decompressed block, with every length and item count
 * checked against the bytes left in the block before anything is allocated for it, and strings
 * checked to be UTF-8. Avro 1.12.1's decoder allocates what a length or count claims (up to 2 GB)
 * before reading, and its only tighter bounds are JVM-wide system properties read once, when Avro
 * loads; bounding each read by the block keeps corrupt files from other readers' settings and
 * from the heap. An array or map item is taken to need at least one byte, which
 * {@link AvroBlocks} makes true by refusing schemas whose items can take none.
 */
final class BoundedDecoder
        extends Decoder
{
    private BinaryDecoder in;
    private CharsetDecoder utf8;
    private byte[] scratch = new byte[0];

    /** Points this decoder at a block; the bytes must not change while it is read. */
    void reset(byte[] bytes, int offset, int length)
    {
        in = DecoderFactory.get().binaryDecoder(bytes, offset, length, in);
    }

    /** The bytes of the block not read yet: the decoder reads straight from the array, so its stream knows them. */
    int remaining()
            throws IOException
    {
        return in.inputStream().available();
    }

    @Override
    public void readNull()
            throws IOException
    {
        in.readNull();
    }

    @Override
    public boolean readBoolean()
            throws IOException
    {
        return in.readBoolean();
    }

    @Override
    public int readInt()
            throws IOException
    {
        return in.readInt();
    }

    @Override
    public long readLong()
            throws IOException
    {
        return in.readLong();
    }

    @Override
    public float readFloat()
            throws IOException
    {
        return in.readFloat();
    }

    @Override
    public double readDouble()
            throws IOException
    {
        return in.readDouble();
    }

    @Override
    public Utf8 readString(Utf8 old)
            throws IOException
    {
        int length = length("string");
        Utf8 result = old == null ? new Utf8() : old;
        result.setByteLength(length);
        in.readFixed(result.getBytes(), 0, length);
        checkUtf8(result.getBytes(), length);
        return result;
    }

    @Override
    public String readString()
            throws IOException
    {
        return readString(null).toString();
    }

    /** Checks the skipped string too: a value must not be corrupt only when it is read. */
    @Override
    public void skipString()
            throws IOException
    {
        int length = length("string");
        if (scratch.length < length) {
            scratch = new byte[length];
        }
        in.readFixed(scratch, 0, length);
        checkUtf8(scratch, length);
    }

    /** Reads into a new buffer, never into {@code old}: values handed out stay as read. */
    @Override
    public ByteBuffer readBytes(ByteBuffer old)
            throws IOException
    {
        int length = length("bytes");
        byte[] bytes = new byte[length];
        in.readFixed(bytes, 0, length);
        return ByteBuffer.wrap(bytes);
    }

    @Override
    public void skipBytes()
            throws IOException
    {
        in.skipFixed(length("bytes"));
    }

    @Override
    public void readFixed(byte[] bytes, int start, int length)
            throws IOException
    {
        in.readFixed(bytes, start, length);
    }

    @Override
    public void skipFixed(int length)
            throws IOException
    {
        if (length > remaining()) {
            throw new CorruptFileException("Avro fixed value of " + length + " bytes, but only " + remaining() + " bytes remain");
        }
        in.skipFixed(length);
    }

    @Override
    public int readEnum()
            throws IOException
    {
        return in.readEnum();
    }

    @Override
    public long readArrayStart()
            throws IOException
    {
        return count(in.readArrayStart());
    }

    @Override
    public long arrayNext()
            throws IOException
    {
        return count(in.arrayNext());
    }

    @Override
    public long skipArray()
            throws IOException
    {
        return count(in.skipArray());
    }

    @Override
    public long readMapStart()
            throws IOException
    {
        return count(in.readMapStart());
    }

    @Override
    public long mapNext()
            throws IOException
    {
        return count(in.mapNext());
    }

    @Override
    public long skipMap()
            throws IOException
    {
        return count(in.skipMap());
    }

    @Override
    public int readIndex()
            throws IOException
    {
        return in.readIndex();
    }

    private int length(String what)
            throws IOException
    {
        long length = in.readLong();
        if (length < 0 || length > remaining()) {
            throw new CorruptFileException("Avro " + what + " of " + length + " bytes, but only " + remaining() + " bytes remain");
        }
        return (int) length;
    }

    private long count(long count)
            throws IOException
    {
        if (count > remaining()) {
            throw new CorruptFileException("Avro collection of " + count + " items in only " + remaining() + " bytes");
        }
        return count;
    }

    private void checkUtf8(byte[] bytes, int length)
            throws CorruptFileException
    {
        for (int i = 0; i < length; i++) {
            if (bytes[i] < 0) {
                if (utf8 == null) {
                    utf8 = UTF_8.newDecoder()
                            .onMalformedInput(CodingErrorAction.REPORT)
                            .onUnmappableCharacter(CodingErrorAction.REPORT);
                }
                try {
                    utf8.decode(ByteBuffer.wrap(bytes, 0, length));
                }
                catch (CharacterCodingException e) {
                    throw new CorruptFileException("Avro string is not valid UTF-8", e);
                }
                return;
            }
        }
    }
}
