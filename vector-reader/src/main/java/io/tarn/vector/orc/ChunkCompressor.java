package io.tarn.vector.orc;

import io.airlift.compress.Compressor;
import io.airlift.compress.lz4.Lz4Compressor;
import io.airlift.compress.snappy.SnappyCompressor;
import io.airlift.compress.zstd.ZstdCompressor;
import io.tarn.vector.reader.decoders.NativeZstd;

import java.util.zip.Deflater;

/**
 * Compresses one chunk of an ORC stream or metadata section with the file's codec, as
 * {@link OrcCodec} reads it back: ZLIB as raw deflate (no zlib header), SNAPPY and LZ4 as bare
 * blocks, ZSTD as one frame (native libzstd at the configured level, else aircompressor's encoder,
 * whose frames any reader decodes as well). Not thread safe.
 */
final class ChunkCompressor
{
    private final OrcCodec.Kind kind;
    private final int zstdLevel;
    private final Compressor compressor;
    private final Deflater deflater;
    private byte[] output = new byte[0];

    ChunkCompressor(OrcCodec.Kind kind, int zstdLevel)
    {
        this.kind = kind;
        this.zstdLevel = zstdLevel;
        this.compressor = switch (kind) {
            case SNAPPY -> new SnappyCompressor();
            case LZ4 -> new Lz4Compressor();
            case ZSTD -> NativeZstd.available() ? null : new ZstdCompressor();
            case NONE, ZLIB -> null;
            default -> throw new IllegalArgumentException("ORC compression " + kind + " is not written");
        };
        // orc-core's ZLIB codec: raw deflate at the default level
        this.deflater = kind == OrcCodec.Kind.ZLIB ? new Deflater(Deflater.DEFAULT_COMPRESSION, true) : null;
    }

    OrcCodec.Kind kind()
    {
        return kind;
    }

    /**
     * Compresses {@code input[offset, offset + length)} into {@link #output()}; returns the
     * compressed length, or -1 when compression does not make the chunk smaller (the chunk is
     * then stored as it is).
     */
    int compress(byte[] input, int offset, int length)
    {
        int size = switch (kind) {
            case ZLIB -> deflate(input, offset, length);
            case ZSTD -> compressor == null
                    ? NativeZstd.compress(input, offset, length, capacity(NativeZstd.maxCompressedLength(length)), 0, output.length, zstdLevel)
                    : compressor.compress(input, offset, length, capacity(compressor.maxCompressedLength(length)), 0, output.length);
            case SNAPPY, LZ4 -> compressor.compress(input, offset, length, capacity(compressor.maxCompressedLength(length)), 0, output.length);
            default -> throw new IllegalStateException("No compression for " + kind);
        };
        return size >= 0 && size < length ? size : -1;
    }

    byte[] output()
    {
        return output;
    }

    private int deflate(byte[] input, int offset, int length)
    {
        deflater.reset();
        deflater.setInput(input, offset, length);
        deflater.finish();
        // stored smaller or not at all: a deflate result as large as the input is not used
        byte[] target = capacity(length);
        int size = 0;
        while (!deflater.finished() && size < target.length) {
            size += deflater.deflate(target, size, target.length - size);
        }
        return deflater.finished() ? size : -1;
    }

    private byte[] capacity(int size)
    {
        if (output.length < size) {
            output = new byte[size];
        }
        return output;
    }

    void close()
    {
        if (deflater != null) {
            deflater.end();
        }
    }
}
