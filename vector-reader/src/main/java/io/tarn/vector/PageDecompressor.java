package io.tarn.vector;

import io.airlift.compress.Decompressor;
import io.airlift.compress.lz4.Lz4Decompressor;
import io.airlift.compress.snappy.SnappyDecompressor;
import io.airlift.compress.zstd.ZstdDecompressor;
import org.apache.parquet.format.CompressionCodec;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.zip.GZIPInputStream;

/**
 * Decompresses page bodies with aircompressor (ZSTD, SNAPPY, LZ4_RAW) and java.util.zip (GZIP).
 * The output is sized from the page header's uncompressed size (Paimon's ZSTD frames carry no
 * content size) and must come out exactly that long.
 */
final class PageDecompressor
{
    private final CompressionCodec codec;
    private Decompressor decompressor;

    PageDecompressor(CompressionCodec codec)
    {
        this.codec = codec;
    }

    CompressionCodec codec()
    {
        return codec;
    }

    static boolean isSupported(CompressionCodec codec)
    {
        return switch (codec) {
            case UNCOMPRESSED, SNAPPY, GZIP, ZSTD, LZ4_RAW -> true;
            default -> false;
        };
    }

    /**
     * Decompresses {@code input[offset, offset + length)} into {@code output[0, uncompressedSize)}.
     */
    void decompress(byte[] input, int offset, int length, byte[] output, int uncompressedSize)
    {
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
                case ZSTD, LZ4_RAW -> produced = decompressor().decompress(input, offset, length, output, 0, uncompressedSize);
                default -> throw new CorruptDataException("Unsupported codec " + codec);
            }
        }
        catch (CorruptDataException e) {
            throw e;
        }
        catch (RuntimeException | IOException e) {
            throw new CorruptDataException("Cannot decompress " + codec + " page: " + e);
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
                case LZ4_RAW -> new Lz4Decompressor();
                default -> throw new CorruptDataException("No decompressor for " + codec);
            };
        }
        return decompressor;
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
