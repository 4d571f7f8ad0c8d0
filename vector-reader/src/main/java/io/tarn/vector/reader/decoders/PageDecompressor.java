package io.tarn.vector.reader.decoders;

import io.airlift.compress.Decompressor;
import io.airlift.compress.lz4.Lz4Decompressor;
import io.airlift.compress.snappy.SnappyDecompressor;
import io.airlift.compress.zstd.ZstdDecompressor;
import io.tarn.vector.CorruptDataException;
import org.apache.parquet.format.CompressionCodec;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.zip.GZIPInputStream;

/**
 * Decompresses page bodies: ZSTD with native libzstd (zstd-jni; aircompressor's Java decoder where
 * the native library is missing), SNAPPY, LZ4_RAW and Hadoop-framed LZ4 with aircompressor, GZIP
 * with java.util.zip.
 * The output is sized from the page header's uncompressed size (Paimon's ZSTD frames carry no
 * content size) and must come out exactly that long.
 * <p>
 * Internal to the vector-reader module: public only for the reader package.
 */
public final class PageDecompressor
{
    private final CompressionCodec codec;
    private Decompressor decompressor;

    public PageDecompressor(CompressionCodec codec)
    {
        this.codec = codec;
    }

    public CompressionCodec codec()
    {
        return codec;
    }

    public static boolean isSupported(CompressionCodec codec)
    {
        return switch (codec) {
            case UNCOMPRESSED, SNAPPY, GZIP, ZSTD, LZ4_RAW, LZ4 -> true;
            default -> false;
        };
    }

    /**
     * Decompresses {@code input[offset, offset + length)} into {@code output[0, uncompressedSize)}.
     */
    public void decompress(byte[] input, int offset, int length, byte[] output, int uncompressedSize)
    {
        if (length == 0) {
            // parquet-mr stores the empty value section of a v2 page (all NULLs) as no bytes at
            // all, not as an empty frame of the codec: there is nothing to decode
            if (uncompressedSize != 0) {
                throw new CorruptDataException(codec + " page has no compressed bytes, but its header says " + uncompressedSize + " uncompressed");
            }
            return;
        }
        int produced;
        try {
            switch (codec) {
                case GZIP -> produced = gunzip(input, offset, length, output, uncompressedSize);
                case SNAPPY -> {
                    int declared = SnappyDecompressor.getUncompressedLength(input, offset);
                    if (declared != uncompressedSize) {
                        throw new CorruptDataException("Snappy block declares " + declared + " bytes but the page header " + uncompressedSize);
                    }
                    produced = decompressor().decompress(input, offset, length, output, 0, uncompressedSize);
                }
                case LZ4 -> produced = hadoopLz4(input, offset, length, output, uncompressedSize);
                case ZSTD -> produced = NativeZstd.AVAILABLE
                        ? NativeZstd.decompress(input, offset, length, output, uncompressedSize)
                        : decompressor().decompress(input, offset, length, output, 0, uncompressedSize);
                case LZ4_RAW -> produced = decompressor().decompress(input, offset, length, output, 0, uncompressedSize);
                default -> throw new CorruptDataException("Unsupported codec " + codec);
            }
        }
        catch (CorruptDataException e) {
            throw e;
        }
        catch (RuntimeException | IOException e) {
            throw new CorruptDataException("Cannot decompress " + codec + " page: " + e, e);
        }
        if (produced != uncompressedSize) {
            throw new CorruptDataException(codec + " page decompressed to " + produced + " bytes, but the header says " + uncompressedSize);
        }
    }

    private Decompressor decompressor()
    {
        if (decompressor == null) {
            decompressor = switch (codec) {
                case SNAPPY -> new SnappyDecompressor();
                case ZSTD -> new ZstdDecompressor();
                case LZ4_RAW, LZ4 -> new Lz4Decompressor();
                default -> throw new CorruptDataException("No decompressor for " + codec);
            };
        }
        return decompressor;
    }

    /**
     * The deprecated LZ4 codec as Hadoop frames it (what parquet-mr writes for it): blocks of
     * {@code int32 BE uncompressed size} followed by chunks of {@code int32 BE compressed size +
     * raw LZ4 block} until the block is complete.
     */
    private int hadoopLz4(byte[] input, int offset, int length, byte[] output, int uncompressedSize)
    {
        int in = offset;
        int end = offset + length;
        int out = 0;
        while (in < end) {
            int blockSize = bigEndianInt(input, in, end);
            in += 4;
            if (blockSize < 0 || blockSize > uncompressedSize - out) {
                throw new CorruptDataException("LZ4 block of " + blockSize + " bytes exceeds the page");
            }
            int blockEnd = out + blockSize;
            while (out < blockEnd) {
                int chunkSize = bigEndianInt(input, in, end);
                in += 4;
                if (chunkSize < 0 || chunkSize > end - in) {
                    throw new CorruptDataException("LZ4 chunk of " + chunkSize + " bytes exceeds the page");
                }
                int produced = decompressor().decompress(input, in, chunkSize, output, out, blockEnd - out);
                if (produced <= 0) {
                    throw new CorruptDataException("Empty LZ4 chunk");
                }
                in += chunkSize;
                out += produced;
            }
        }
        return out;
    }

    private static int bigEndianInt(byte[] bytes, int position, int end)
    {
        if (end - position < 4) {
            throw new CorruptDataException("LZ4 frame ends inside a length");
        }
        return (bytes[position] & 0xFF) << 24 | (bytes[position + 1] & 0xFF) << 16 | (bytes[position + 2] & 0xFF) << 8 | (bytes[position + 3] & 0xFF);
    }

    private static int gunzip(byte[] input, int offset, int length, byte[] output, int uncompressedSize)
            throws IOException
    {
        try (GZIPInputStream stream = new GZIPInputStream(new ByteArrayInputStream(input, offset, length), 8192)) {
            int total = stream.readNBytes(output, 0, uncompressedSize);
            if (stream.read() != -1) {
                throw new CorruptDataException("GZIP page holds more than the " + uncompressedSize + " bytes its header says");
            }
            return total;
        }
    }
}
