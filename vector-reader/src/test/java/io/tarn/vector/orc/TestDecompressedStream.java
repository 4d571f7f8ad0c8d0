package io.tarn.vector.orc;

import io.airlift.compress.Compressor;
import io.airlift.compress.lz4.Lz4Compressor;
import io.airlift.compress.snappy.SnappyCompressor;
import io.airlift.compress.zstd.ZstdCompressor;
import io.tarn.vector.CorruptDataException;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.Deflater;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Compressed ORC streams as chunks of a 3-byte header ({@code length * 2 + isOriginal}, little
 * endian) and a body compressed with the file's codec, built here with each codec's own
 * compressor: read whole, by bytes, skipped and sought; and broken chunks.
 */
public class TestDecompressedStream
{
    private static final int BLOCK_SIZE = 1000;

    @DataProvider
    public Object[][] codecs()
    {
        return new Object[][] {{OrcCodec.Kind.ZLIB}, {OrcCodec.Kind.SNAPPY}, {OrcCodec.Kind.LZ4}, {OrcCodec.Kind.ZSTD}};
    }

    @Test
    public void testHeaderOfTheSpecification()
    {
        // 5 bytes that did not compress: header [0x0b, 0x00, 0x00]
        byte[] stored = {0x0b, 0x00, 0x00, 1, 2, 3, 4, 5};
        DecompressedStream stream = new DecompressedStream("test", stored, 0, stored.length, new OrcCodec(OrcCodec.Kind.ZLIB), BLOCK_SIZE);
        assertThat(stream.readAll(100)).containsExactly(1, 2, 3, 4, 5);
        // a chunk of 100,000 compressed bytes: header [0x40, 0x0d, 0x03]
        assertThat((0x40 | 0x0d << 8 | 0x03 << 16) >>> 1).isEqualTo(100_000);
    }

    /**
     * Seeks into the chunk already decompressed (row groups of a narrow column share a chunk)
     * reuse it: after its stored bytes are overwritten, seeks into it still read the right bytes,
     * while a seek into another chunk and back decompresses again, and so fails.
     */
    @Test(dataProvider = "codecs")
    public void testSeeksIntoTheLoadedChunkReuseIt(OrcCodec.Kind kind)
    {
        byte[] data = data(2000, 11);
        ByteArrayOutputStream stored = new ByteArrayOutputStream();
        writeChunk(stored, compress(kind, Arrays.copyOfRange(data, 0, BLOCK_SIZE)), false);
        int secondChunk = stored.size();
        writeChunk(stored, compress(kind, Arrays.copyOfRange(data, BLOCK_SIZE, data.length)), false);
        byte[] bytes = stored.toByteArray();
        DecompressedStream stream = new DecompressedStream("test", bytes, 0, bytes.length, new OrcCodec(kind), BLOCK_SIZE);
        stream.seek(0, 100);
        assertThat(stream.readByte()).isEqualTo(data[100] & 0xFF);
        // the first chunk's compressed body is gone; its decompressed bytes are still held
        Arrays.fill(bytes, 3, secondChunk, (byte) 0x55);
        stream.seek(0, 700);
        assertThat(stream.readByte()).isEqualTo(data[700] & 0xFF);
        stream.seek(0, 5);
        byte[] read = new byte[10];
        stream.readFully(read, 0, 10);
        assertThat(read).containsExactly(Arrays.copyOfRange(data, 5, 15));
        // reading on crosses into the second chunk as usual
        stream.skip(BLOCK_SIZE - 15);
        assertThat(stream.readByte()).isEqualTo(data[BLOCK_SIZE] & 0xFF);
        stream.seek(secondChunk, 3);
        assertThat(stream.readByte()).isEqualTo(data[BLOCK_SIZE + 3] & 0xFF);
        assertThatThrownBy(() -> {
            stream.seek(0, 100);
            byte[] again = new byte[BLOCK_SIZE - 100];
            stream.readFully(again, 0, again.length);
            assertThat(again).containsExactly(Arrays.copyOfRange(data, 100, BLOCK_SIZE));
        }).isInstanceOfAny(CorruptDataException.class, AssertionError.class);
    }

    @Test(dataProvider = "codecs")
    public void testChunks(OrcCodec.Kind kind)
    {
        byte[] data = data(3500, 7);
        // chunks of 1000 bytes (the block size), the third stored as original
        ByteArrayOutputStream stored = new ByteArrayOutputStream();
        for (int start = 0, chunk = 0; start < data.length; start += BLOCK_SIZE, chunk++) {
            byte[] piece = Arrays.copyOfRange(data, start, Math.min(data.length, start + BLOCK_SIZE));
            if (chunk == 2) {
                writeChunk(stored, piece, true);
            }
            else {
                writeChunk(stored, compress(kind, piece), false);
            }
        }
        byte[] bytes = stored.toByteArray();
        OrcCodec codec = new OrcCodec(kind);
        assertThat(new DecompressedStream("test", bytes, 0, bytes.length, codec, BLOCK_SIZE).readAll(10_000)).containsExactly(data);
        assertThatThrownBy(() -> new DecompressedStream("test", bytes, 0, bytes.length, codec, BLOCK_SIZE).readAll(3000))
                .isInstanceOf(CorruptDataException.class);

        DecompressedStream stream = new DecompressedStream("test", bytes, 0, bytes.length, codec, BLOCK_SIZE);
        assertThat(stream.readByte()).isEqualTo(data[0] & 0xFF);
        stream.skip(1998);
        byte[] across = new byte[4];
        stream.readFully(across, 0, 4);
        assertThat(across).containsExactly(Arrays.copyOfRange(data, 1999, 2003));
        stream.skip(data.length - 2003 - 1);
        assertThat(stream.readByte()).isEqualTo(data[data.length - 1] & 0xFF);
        assertThat(stream.atEnd()).isTrue();
        assertThatThrownBy(stream::readByte).isInstanceOf(CorruptDataException.class);

        // a row index position: the chunk starting at the second chunk's header, 10 bytes into it
        int secondChunk = 3 + (((bytes[0] & 0xFF) | (bytes[1] & 0xFF) << 8 | (bytes[2] & 0xFF) << 16) >>> 1);
        stream.seek(secondChunk, 10);
        assertThat(stream.readByte()).isEqualTo(data[1010] & 0xFF);
        assertThatThrownBy(() -> stream.seek(secondChunk, 1001)).isInstanceOf(CorruptDataException.class);
        assertThatThrownBy(() -> stream.seek(bytes.length + 1, 0)).isInstanceOf(CorruptDataException.class);
        codec.close();
    }

    @Test(dataProvider = "codecs")
    public void testBrokenChunks(OrcCodec.Kind kind)
    {
        byte[] data = data(BLOCK_SIZE, 11);
        ByteArrayOutputStream good = new ByteArrayOutputStream();
        writeChunk(good, compress(kind, data), false);
        byte[] bytes = good.toByteArray();

        // a header that claims more bytes than the stream holds
        byte[] longer = bytes.clone();
        longer[0] = (byte) (longer[0] + 2);
        assertCorrupt(kind, longer);
        // a stream that ends inside a header
        assertCorrupt(kind, Arrays.copyOf(bytes, 2));
        // a body cut short
        byte[] shorter = Arrays.copyOf(bytes, bytes.length - 5);
        int length = bytes.length - 3 - 5;
        shorter[0] = (byte) (length << 1);
        shorter[1] = (byte) (length >>> 7);
        shorter[2] = (byte) (length >>> 15);
        assertCorrupt(kind, shorter);
        // a body of garbage
        byte[] garbage = bytes.clone();
        for (int i = 3; i < garbage.length; i++) {
            garbage[i] = (byte) (0xA5 ^ i * 31);
        }
        assertCorrupt(kind, garbage);
        // a chunk that decompresses to more than the block size
        ByteArrayOutputStream large = new ByteArrayOutputStream();
        writeChunk(large, compress(kind, data(BLOCK_SIZE * 3, 1)), false);
        assertCorrupt(kind, large.toByteArray());
        // an original chunk longer than the block size
        ByteArrayOutputStream original = new ByteArrayOutputStream();
        writeChunk(original, data(BLOCK_SIZE + 1, 2), true);
        assertCorrupt(kind, original.toByteArray());
    }

    private static void assertCorrupt(OrcCodec.Kind kind, byte[] bytes)
    {
        assertThatThrownBy(() -> new DecompressedStream("test", bytes, 0, bytes.length, new OrcCodec(kind), BLOCK_SIZE).readAll(1 << 20))
                .isInstanceOf(CorruptDataException.class);
    }

    private static byte[] data(int length, int seed)
    {
        // compressible: runs of a few random bytes
        Random random = new Random(seed);
        byte[] data = new byte[length];
        for (int i = 0; i < length; i++) {
            data[i] = (byte) (i % 17 < 10 ? random.nextInt(4) : 'x');
        }
        return data;
    }

    private static void writeChunk(ByteArrayOutputStream out, byte[] body, boolean original)
    {
        int header = body.length * 2 + (original ? 1 : 0);
        out.write(header);
        out.write(header >>> 8);
        out.write(header >>> 16);
        out.write(body, 0, body.length);
    }

    static byte[] compress(OrcCodec.Kind kind, byte[] data)
    {
        if (kind == OrcCodec.Kind.ZLIB) {
            Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
            deflater.setInput(data);
            deflater.finish();
            byte[] buffer = new byte[data.length * 2 + 64];
            int length = deflater.deflate(buffer);
            deflater.end();
            return Arrays.copyOf(buffer, length);
        }
        Compressor compressor = switch (kind) {
            case SNAPPY -> new SnappyCompressor();
            case LZ4 -> new Lz4Compressor();
            case ZSTD -> new ZstdCompressor();
            default -> throw new IllegalArgumentException(kind.toString());
        };
        byte[] buffer = new byte[compressor.maxCompressedLength(data.length)];
        int length = compressor.compress(data, 0, data.length, buffer, 0, buffer.length);
        return Arrays.copyOf(buffer, length);
    }
}
