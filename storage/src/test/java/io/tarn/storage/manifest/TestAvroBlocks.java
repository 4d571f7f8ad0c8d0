package io.tarn.storage.manifest;

import com.github.luben.zstd.ZstdOutputStream;
import io.tarn.storage.CorruptFileException;
import io.tarn.storage.binary.BinaryRow;
import io.tarn.storage.binary.BinaryRowWriter;
import io.tarn.storage.binary.SimpleStats;
import io.tarn.types.DataTypes;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.assertj.core.api.AbstractThrowableAssert;
import org.testng.annotations.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Avro files whose lengths and counts claim far more than the file holds, or whose writer schema
 * lets a few bytes claim unbounded memory or nesting: each must fail at once with a
 * {@link CorruptFileException} naming the file, without allocating what it claims (the tests run
 * with a 1 GB heap, and time out after 10 seconds).
 */
public class TestAvroBlocks
{
    private static final long TWO_TO_31 = 1L << 31;
    private static final List<Long> HUGE = List.of(TWO_TO_31, TWO_TO_31 - 9, 1L << 30, Long.MAX_VALUE);
    private static final BinaryRow EMPTY_ROW = BinaryRowWriter.encode(List.of(DataTypes.integer()), List.of(1));

    @Test(timeOut = 10_000)
    public void testHugeBlockCount()
            throws IOException
    {
        byte[] file = manifestList();
        for (long count : HUGE) {
            assertCorrupt(replaceBlockHeader(file, count, blockSize(file)), "manifest-list-count-" + count)
                    .hasMessageContaining("records in only");
        }
    }

    @Test(timeOut = 10_000)
    public void testHugeBlockSize()
            throws IOException
    {
        byte[] file = manifestList();
        for (long size : HUGE) {
            assertCorrupt(replaceBlockHeader(file, 1, size), "manifest-list-size-" + size)
                    .hasMessageContaining("bytes remain");
        }
    }

    @Test(timeOut = 10_000)
    public void testHugeStringLength()
            throws IOException
    {
        byte[] file = manifestList();
        for (long length : HUGE) {
            // _VERSION 2, then the length of _FILE_NAME
            byte[] row = concat(varint(2), varint(length), new byte[] {'m', 'a', 'n', 'i', 'f', 'e', 's', 't'});
            assertCorrupt(replaceBlock(file, 1, row), "manifest-list-string-" + length)
                    .hasMessageContaining("Avro string of " + length + " bytes");
        }
    }

    @Test(timeOut = 10_000)
    public void testHugeCollectionCount()
            throws IOException
    {
        byte[] file = manifestList();
        for (long count : HUGE) {
            // _VERSION, _FILE_NAME, _FILE_SIZE, _NUM_ADDED_FILES, _NUM_DELETED_FILES, then _PARTITION_STATS:
            // empty _MIN_VALUES and _MAX_VALUES, the array branch of _NULL_COUNTS and its first block's count
            byte[] row = concat(varint(2), varint(1), new byte[] {'m'}, varint(1), varint(1), varint(1), varint(0), varint(0), varint(1), varint(count), varint(0));
            assertCorrupt(replaceBlock(file, 1, row), "manifest-list-array-" + count);
        }
    }

    @Test(timeOut = 10_000)
    public void testHugeMetadataLength()
            throws IOException
    {
        byte[] file = manifestList();
        // magic, then the count of the metadata map's first block and the length of its first key
        int keyLengthAt = skipVarint(file, 4);
        for (long length : HUGE) {
            byte[] corrupt = concat(Arrays.copyOf(file, keyLengthAt), varint(length), Arrays.copyOfRange(file, skipVarint(file, keyLengthAt), file.length));
            assertCorrupt(corrupt, "manifest-list-metadata-" + length)
                    .hasMessageContaining("Avro metadata value of " + length + " bytes");
        }
    }

    @Test(timeOut = 10_000)
    public void testSchemasThatClaimUnboundedMemory()
            throws IOException
    {
        Schema recursive = new Schema.Parser().parse("""
                {"type": "record", "name": "node", "fields": [
                    {"name": "_VERSION", "type": "int"},
                    {"name": "left", "type": ["null", "node"]},
                    {"name": "right", "type": ["null", "node"]}]}""");
        GenericData.Record node = new GenericData.Record(recursive);
        node.put("_VERSION", 2);
        assertCorrupt(write(recursive, node), "manifest-list-recursive")
                .hasMessageContaining("nested deeper than 64 levels");

        Schema nulls = new Schema.Parser().parse("""
                {"type": "record", "name": "nulls", "fields": [
                    {"name": "_VERSION", "type": "int"},
                    {"name": "items", "type": {"type": "array", "items": "null"}}]}""");
        GenericData.Record record = new GenericData.Record(nulls);
        record.put("_VERSION", 2);
        record.put("items", Arrays.asList(null, null));
        assertCorrupt(write(nulls, record), "manifest-list-nulls")
                .hasMessageContaining("items that take no bytes");
    }

    @Test(timeOut = 60_000)
    public void testDecompressionBombs()
            throws IOException
    {
        // 300 MB of zeros compress to well under a megabyte
        int size = 300 * 1024 * 1024;
        for (String codec : List.of("zstd", "deflate")) {
            ByteArrayOutputStream compressed = new ByteArrayOutputStream();
            try (OutputStream out = codec.equals("zstd") ? new ZstdOutputStream(compressed) : new DeflaterOutputStream(compressed, new Deflater(Deflater.BEST_SPEED, true))) {
                byte[] zeros = new byte[1024 * 1024];
                for (int written = 0; written < size; written += zeros.length) {
                    out.write(zeros);
                }
            }
            assertCorrupt(replaceBlock(manifestList(codec), 1, compressed.toByteArray()), "manifest-list-bomb-" + codec)
                    .hasMessageContaining("decompresses to more than");
        }
    }

    @Test
    public void testSnappyChecksum()
            throws IOException
    {
        byte[] file = manifestList("snappy");
        // the block's last 4 bytes are the CRC-32 of its decompressed bytes: flip one bit of it
        int checksumEnd = file.length - 16;
        file[checksumEnd - 1] ^= 1;
        assertCorrupt(file, "manifest-list-snappy-crc").hasMessageContaining("checksum");
        // a block too short to hold a checksum
        assertCorrupt(replaceBlock(manifestList("snappy"), 1, new byte[] {1, 2}), "manifest-list-snappy-short").hasMessageContaining("no checksum");
    }

    private static AbstractThrowableAssert<?, ? extends Throwable> assertCorrupt(byte[] file, String fileName)
    {
        return assertThatThrownBy(() -> ManifestListFile.read(file, fileName))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining(fileName);
    }

    /** A valid manifest list of one row in one uncompressed block. */
    private static byte[] manifestList()
            throws IOException
    {
        return manifestList("none");
    }

    /** A valid manifest list of one row in one block. */
    private static byte[] manifestList(String compression)
            throws IOException
    {
        ManifestFileMeta meta = new ManifestFileMeta("manifest-1", 2000, 3, 1, new SimpleStats(EMPTY_ROW, EMPTY_ROW, List.of(0L)), 2,
                OptionalInt.empty(), OptionalInt.empty(), OptionalInt.empty(), OptionalInt.empty());
        byte[] file = ManifestListFile.write(List.of(meta), compression);
        assertThat(ManifestListFile.read(file, "manifest-list")).containsExactly(meta);
        return file;
    }

    private static byte[] write(Schema schema, GenericRecord record)
            throws IOException
    {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (DataFileWriter<GenericRecord> writer = new DataFileWriter<>(new GenericDatumWriter<>(schema))) {
            writer.create(schema, out);
            writer.append(record);
        }
        return out.toByteArray();
    }

    /** The file with its only block's count and size replaced, its bytes kept. */
    private static byte[] replaceBlockHeader(byte[] file, long count, long size)
    {
        int headerEnd = headerEnd(file);
        int dataStart = skipVarint(file, skipVarint(file, headerEnd));
        return concat(Arrays.copyOf(file, headerEnd), varint(count), varint(size), Arrays.copyOfRange(file, dataStart, file.length));
    }

    /** The file with its only block replaced by {@code count} records in {@code data}. */
    private static byte[] replaceBlock(byte[] file, long count, byte[] data)
    {
        int headerEnd = headerEnd(file);
        byte[] sync = Arrays.copyOfRange(file, file.length - 16, file.length);
        return concat(Arrays.copyOf(file, headerEnd), varint(count), varint(data.length), data, sync);
    }

    private static long blockSize(byte[] file)
    {
        return zigzag(file, skipVarint(file, headerEnd(file)));
    }

    /** Where the first block starts: after the header's sync marker, the same 16 bytes that end the file. */
    private static int headerEnd(byte[] file)
    {
        byte[] sync = Arrays.copyOfRange(file, file.length - 16, file.length);
        for (int i = 4; i + 16 <= file.length; i++) {
            if (Arrays.equals(Arrays.copyOfRange(file, i, i + 16), sync)) {
                return i + 16;
            }
        }
        throw new AssertionError("no sync marker");
    }

    private static int skipVarint(byte[] bytes, int position)
    {
        while ((bytes[position] & 0x80) != 0) {
            position++;
        }
        return position + 1;
    }

    private static long zigzag(byte[] bytes, int position)
    {
        long raw = 0;
        for (int shift = 0; ; shift += 7) {
            byte b = bytes[position++];
            raw |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return (raw >>> 1) ^ -(raw & 1);
            }
        }
    }

    /** Avro's zigzag varint encoding of a long. */
    private static byte[] varint(long value)
    {
        long raw = (value << 1) ^ (value >> 63);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while ((raw & ~0x7FL) != 0) {
            out.write((int) ((raw & 0x7F) | 0x80));
            raw >>>= 7;
        }
        out.write((int) raw);
        return out.toByteArray();
    }

    private static byte[] concat(byte[]... parts)
    {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
