package io.tarn.vector.writer;

import io.airlift.compress.Compressor;
import io.airlift.compress.lz4.Lz4Compressor;
import io.airlift.compress.snappy.SnappyCompressor;
import io.airlift.compress.zstd.ZstdCompressor;
import io.tarn.vector.reader.decoders.NativeZstd;
import org.apache.parquet.format.CompressionCodec;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;

/**
 * Compresses page bodies with the codec Parquet names in {@link CompressionCodec}.
 *
 * <p>{@code LZ4} is Hadoop's framing, which parquet-mr (and so Paimon) writes for {@code lz4}:
 * blocks of a big-endian uncompressed length, then a big-endian compressed length and a raw LZ4
 * block. Blocks stay far below Hadoop's 256 KB decompression buffer. {@code LZ4_RAW} is a bare block.
 *
 * <p>ZSTD: native libzstd (zstd-jni) at the table's level (Paimon's default 1, which is also
 * several times faster to write than level 3); where the native library cannot be loaded,
 * aircompressor's Java encoder, which has only its level 3. Every level produces standard ZSTD
 * frames that any reader decodes.
 */
final class PageCompressor
{
    private static final int HADOOP_LZ4_BLOCK = 64 * 1024;

    private final CompressionCodec codec;
    private final Compressor compressor;

    private PageCompressor(CompressionCodec codec, Compressor compressor)
    {
        this.codec = codec;
        this.compressor = compressor;
    }

    static PageCompressor create(ParquetWriteOptions options)
    {
        return switch (options.compression()) {
            case "zstd" -> new PageCompressor(CompressionCodec.ZSTD, NativeZstd.available() ? new LeveledZstdCompressor(options.zstdLevel()) : new ZstdCompressor());
            case "snappy" -> new PageCompressor(CompressionCodec.SNAPPY, new SnappyCompressor());
            case "lz4" -> new PageCompressor(CompressionCodec.LZ4, new Lz4Compressor());
            case "lz4_raw" -> new PageCompressor(CompressionCodec.LZ4_RAW, new Lz4Compressor());
            case "gzip" -> new PageCompressor(CompressionCodec.GZIP, null);
            case "none", "uncompressed" -> new PageCompressor(CompressionCodec.UNCOMPRESSED, null);
            default -> throw new IllegalArgumentException("Unsupported Parquet compression: " + options.compression());
        };
    }

    CompressionCodec codec()
    {
        return codec;
    }

    byte[] compress(byte[] input)
    {
        return switch (codec) {
            case UNCOMPRESSED -> input;
            case GZIP -> gzip(input);
            case LZ4 -> hadoopLz4(input);
            default -> block(input, 0, input.length);
        };
    }

    private byte[] block(byte[] input, int offset, int length)
    {
        byte[] output = new byte[compressor.maxCompressedLength(length)];
        int size = compressor.compress(input, offset, length, output, 0, output.length);
        return Arrays.copyOf(output, size);
    }

    private byte[] hadoopLz4(byte[] input)
    {
        ByteArrayOutputStream out = new ByteArrayOutputStream(input.length / 2 + 16);
        int offset = 0;
        do {
            int length = Math.min(HADOOP_LZ4_BLOCK, input.length - offset);
            byte[] compressed = block(input, offset, length);
            writeBigEndianInt(out, length);
            writeBigEndianInt(out, compressed.length);
            out.writeBytes(compressed);
            offset += length;
        }
        while (offset < input.length);
        return out.toByteArray();
    }

    /**
     * ZSTD at a chosen level through native libzstd.
     */
    private record LeveledZstdCompressor(int level)
            implements Compressor
    {
        @Override
        public int maxCompressedLength(int uncompressedSize)
        {
            return NativeZstd.maxCompressedLength(uncompressedSize);
        }

        @Override
        public int compress(byte[] input, int inputOffset, int inputLength, byte[] output, int outputOffset, int maxOutputLength)
        {
            return NativeZstd.compress(input, inputOffset, inputLength, output, outputOffset, maxOutputLength, level);
        }

        @Override
        public void compress(ByteBuffer input, ByteBuffer output)
        {
            // the writer compresses byte arrays only
            throw new UnsupportedOperationException("ZSTD compression of ByteBuffers is not used by the Parquet writer");
        }
    }

    private static void writeBigEndianInt(ByteArrayOutputStream out, int value)
    {
        out.write(value >>> 24);
        out.write(value >>> 16);
        out.write(value >>> 8);
        out.write(value);
    }

    private static byte[] gzip(byte[] input)
    {
        ByteArrayOutputStream out = new ByteArrayOutputStream(input.length / 2 + 32);
        try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
            gzip.write(input);
        }
        catch (IOException e) {
            // a ByteArrayOutputStream does not fail
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
