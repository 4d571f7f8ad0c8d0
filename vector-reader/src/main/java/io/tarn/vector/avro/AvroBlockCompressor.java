package io.tarn.vector.avro;

import io.airlift.compress.Compressor;
import io.airlift.compress.snappy.SnappyCompressor;
import io.airlift.compress.zstd.ZstdCompressor;
import io.tarn.vector.reader.decoders.NativeZstd;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Compresses an Avro block as Avro's codecs do, so that any Avro reader decompresses it:
 * {@code deflate} raw (no zlib header), {@code snappy} one Snappy block followed by the CRC-32 of
 * the uncompressed bytes, big-endian, {@code zstandard} one ZSTD frame.
 */
abstract sealed class AvroBlockCompressor
{
    static AvroBlockCompressor create(AvroWriteOptions options)
    {
        return switch (options.codec()) {
            case "null" -> new Identity();
            case "deflate" -> new Deflate(options.level());
            case "snappy" -> new Snappy();
            case "zstandard" -> new Zstandard(options.level());
            default -> throw new IllegalArgumentException("Unsupported Avro codec: " + options.codec());
        };
    }

    abstract byte[] compress(byte[] block, int length);

    private static final class Identity
            extends AvroBlockCompressor
    {
        @Override
        byte[] compress(byte[] block, int length)
        {
            return Arrays.copyOf(block, length);
        }
    }

    private static final class Deflate
            extends AvroBlockCompressor
    {
        private final int level;

        Deflate(int level)
        {
            this.level = level;
        }

        @Override
        byte[] compress(byte[] block, int length)
        {
            Deflater deflater = new Deflater(level, true);
            try {
                deflater.setInput(block, 0, length);
                deflater.finish();
                ByteArrayOutputStream out = new ByteArrayOutputStream(length / 2 + 16);
                byte[] buffer = new byte[8192];
                while (!deflater.finished()) {
                    out.write(buffer, 0, deflater.deflate(buffer));
                }
                return out.toByteArray();
            }
            finally {
                deflater.end();
            }
        }
    }

    private static final class Snappy
            extends AvroBlockCompressor
    {
        private final Compressor compressor = new SnappyCompressor();

        @Override
        byte[] compress(byte[] block, int length)
        {
            byte[] output = new byte[compressor.maxCompressedLength(length) + Integer.BYTES];
            int size = compressor.compress(block, 0, length, output, 0, output.length);
            CRC32 crc = new CRC32();
            crc.update(block, 0, length);
            int checksum = (int) crc.getValue();
            output[size] = (byte) (checksum >>> 24);
            output[size + 1] = (byte) (checksum >>> 16);
            output[size + 2] = (byte) (checksum >>> 8);
            output[size + 3] = (byte) checksum;
            return Arrays.copyOf(output, size + Integer.BYTES);
        }
    }

    private static final class Zstandard
            extends AvroBlockCompressor
    {
        private final int level;

        Zstandard(int level)
        {
            this.level = level;
        }

        @Override
        byte[] compress(byte[] block, int length)
        {
            if (NativeZstd.available()) {
                byte[] output = new byte[NativeZstd.maxCompressedLength(length)];
                return Arrays.copyOf(output, NativeZstd.compress(block, 0, length, output, 0, output.length, level));
            }
            // without native libzstd, aircompressor's Java encoder (at its own level)
            Compressor compressor = new ZstdCompressor();
            byte[] output = new byte[compressor.maxCompressedLength(length)];
            return Arrays.copyOf(output, compressor.compress(block, 0, length, output, 0, output.length));
        }
    }
}
