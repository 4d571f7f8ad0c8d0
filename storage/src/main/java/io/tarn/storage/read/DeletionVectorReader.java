package io.tarn.storage.read;

import io.tarn.storage.CorruptFileException;
import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.fs.InputFile;
import io.tarn.storage.scan.DeletionFile;
import org.roaringbitmap.RoaringBitmap;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32;

/**
 * Reads one data file's deletion vector out of a deletion-vector index file. Trust contract: the
 * range comes from the index manifest and the bytes from the index file; both are checked before
 * use (range inside the file, size field consistent with the range, magic, CRC32 over magic and
 * bitmap) and a failure is a {@link CorruptFileException} naming the index file.
 *
 * <p>Layout at the range's offset: {@code int32 BE size}, then {@code size} bytes that start with
 * the magic, then {@code int32 BE CRC32} of those bytes. With the 32-bit magic 1581511376 (big
 * endian) the rest is a portable RoaringBitmap and the range's length equals {@code size}; with
 * the 64-bit magic 1681511377 (little endian) the rest is {@code int64 LE} bitmap count followed by
 * {@code int32 LE} high key + portable RoaringBitmap per bitmap, and the range's length covers the
 * size and CRC fields too. Bit positions are 0-based row positions in the data file.
 */
final class DeletionVectorReader
{
    static final int MAGIC_32 = 1581511376;
    static final int MAGIC_64 = 1681511377;

    private DeletionVectorReader() {}

    /**
     * The positions of the deleted rows.
     */
    static RoaringBitmap read(InputFile indexFile, DeletionFile range)
            throws IOException
    {
        long fileLength = indexFile.length();
        long offset = range.offset();
        if (offset < 1 || range.length() < 4 || offset + 8 > fileLength) {
            throw corrupt(indexFile, range, "range offset " + offset + " length " + range.length() + " lies outside the file of " + fileLength + " bytes");
        }
        byte[] sizeBytes = new byte[4];
        indexFile.readFully(offset, sizeBytes, 0, 4);
        int size = ByteBuffer.wrap(sizeBytes).getInt();
        if (size < 4 || offset + 4 + (long) size + 4 > fileLength) {
            throw corrupt(indexFile, range, "size field " + size + " runs past the end of the file (" + fileLength + " bytes)");
        }
        byte[] body = new byte[size + 4];
        indexFile.readFully(offset + 4, body, 0, body.length);
        ByteBuffer buffer = ByteBuffer.wrap(body);
        int magic = buffer.getInt(0);
        boolean bitmap64 = Integer.reverseBytes(magic) == MAGIC_64;
        if (magic != MAGIC_32 && !bitmap64) {
            throw corrupt(indexFile, range, "bad magic " + magic);
        }
        long expectedLength = bitmap64 ? 4L + size + 4 : size;
        if (range.length() != expectedLength) {
            throw corrupt(indexFile, range, "size field " + size + " does not match the range length " + range.length());
        }
        CRC32 crc = new CRC32();
        crc.update(body, 0, size);
        int storedCrc = buffer.getInt(size);
        if ((int) crc.getValue() != storedCrc) {
            throw corrupt(indexFile, range, "CRC mismatch: stored " + Integer.toHexString(storedCrc) + ", computed " + Long.toHexString(crc.getValue()));
        }
        ByteBuffer bitmapBytes = ByteBuffer.wrap(body, 4, size - 4).slice().order(ByteOrder.LITTLE_ENDIAN);
        try {
            return bitmap64 ? readBitmap64(bitmapBytes, indexFile, range) : readBitmap(bitmapBytes);
        }
        catch (RuntimeException | IOException e) {
            if (e instanceof UnsupportedTableFeatureException unsupported) {
                throw unsupported;
            }
            throw corrupt(indexFile, range, "the bitmap does not decode: " + e.getMessage(), e);
        }
    }

    private static RoaringBitmap readBitmap(ByteBuffer bytes)
            throws IOException
    {
        RoaringBitmap bitmap = new RoaringBitmap();
        bitmap.deserialize(bytes);
        return bitmap;
    }

    private static RoaringBitmap readBitmap64(ByteBuffer bytes, InputFile indexFile, DeletionFile range)
            throws IOException
    {
        if (bytes.remaining() < 8) {
            throw corrupt(indexFile, range, "64-bit bitmap shorter than its count");
        }
        long count = bytes.getLong();
        if (count < 0 || count > bytes.remaining() / 4) {
            throw corrupt(indexFile, range, "64-bit bitmap count " + count + " does not fit in " + bytes.remaining() + " bytes");
        }
        RoaringBitmap result = new RoaringBitmap();
        for (long i = 0; i < count; i++) {
            int highBits = bytes.getInt();
            RoaringBitmap part = new RoaringBitmap();
            ByteBuffer rest = bytes.slice().order(ByteOrder.LITTLE_ENDIAN);
            part.deserialize(rest);
            bytes.position(bytes.position() + part.serializedSizeInBytes());
            if (part.isEmpty()) {
                continue;
            }
            if (highBits != 0 || part.last() < 0) {
                // Rows at positions of 2^31 and above: Tarn's row selections are 32-bit.
                throw new UnsupportedTableFeatureException("Deletion vector at offset " + range.offset() + " of index file " + indexFile.path()
                        + " deletes rows at positions of 2^31 and above, which Tarn does not support yet");
            }
            result.or(part);
        }
        return result;
    }

    private static CorruptFileException corrupt(InputFile indexFile, DeletionFile range, String problem)
    {
        return corrupt(indexFile, range, problem, null);
    }

    private static CorruptFileException corrupt(InputFile indexFile, DeletionFile range, String problem, Throwable cause)
    {
        return new CorruptFileException("Deletion vector at offset " + range.offset() + " of index file " + indexFile.path() + ": " + problem, cause);
    }
}
