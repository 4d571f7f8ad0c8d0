package io.tarn.vector.orc;

import io.airlift.compress.Decompressor;
import io.airlift.compress.lz4.Lz4Decompressor;
import io.airlift.compress.snappy.SnappyDecompressor;
import io.airlift.compress.zstd.ZstdDecompressor;
import io.tarn.vector.CorruptDataException;
import io.tarn.vector.reader.decoders.NativeZstd;

import java.util.Optional;
import java.util.OptionalInt;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * The generic compression of an ORC file (the postscript's {@code compression}), applied to each
 * chunk of every stream and metadata section apart: ZLIB is raw deflate (no zlib header), SNAPPY
 * and LZ4 are raw blocks (no framing), ZSTD is one frame per chunk. LZO and Brotli are not read.
 * A chunk never decompresses to more than the file's compression block size; one that would is
 * corrupt. Not thread safe: a codec keeps its decompressors.
 */
final class OrcCodec
{
    enum Kind
    {
        NONE, ZLIB, SNAPPY, LZO, LZ4, ZSTD, BROTLI;

        /**
         * The kind of the postscript's {@code compression} number, empty when unknown.
         */
        static Optional<Kind> of(long number)
        {
            Kind[] kinds = values();
            return number >= 0 && number < kinds.length ? Optional.of(kinds[(int) number]) : Optional.empty();
        }

        boolean isSupported()
        {
            return this != LZO && this != BROTLI;
        }
    }

    private final Kind kind;
    private Decompressor decompressor;
    private Inflater inflater;

    OrcCodec(Kind kind)
    {
        if (!kind.isSupported()) {
            throw new IllegalArgumentException("Unsupported codec " + kind);
        }
        this.kind = kind;
    }

    Kind kind()
    {
        return kind;
    }

    /**
     * Decompresses one chunk's body {@code input[offset, offset + length)} into
     * {@code output[0, capacity)}, returning the bytes produced.
     */
    int decompress(byte[] input, int offset, int length, byte[] output, int capacity)
    {
        try {
            return switch (kind) {
                case ZLIB -> inflate(input, offset, length, output, capacity);
                case SNAPPY -> {
                    int declared = SnappyDecompressor.getUncompressedLength(input, offset);
                    if (declared < 0 || declared > capacity) {
                        throw new CorruptDataException("Snappy chunk declares " + declared + " bytes, more than the compression block size " + capacity);
                    }
                    yield decompressor().decompress(input, offset, length, output, 0, capacity);
                }
                case LZ4 -> decompressor().decompress(input, offset, length, output, 0, capacity);
                case ZSTD -> zstd(input, offset, length, output, capacity);
                default -> throw new IllegalStateException("Codec " + kind + " has no chunks");
            };
        }
        catch (CorruptDataException e) {
            throw e;
        }
        catch (RuntimeException e) {
            // the decompressors' own errors for malformed input (and bounds they check)
            throw new CorruptDataException("Cannot decompress " + kind + " chunk: " + e.getMessage(), e);
        }
    }

    private int zstd(byte[] input, int offset, int length, byte[] output, int capacity)
    {
        if (NativeZstd.available()) {
            return NativeZstd.decompress(input, offset, length, output, capacity);
        }
        OptionalInt declared = zstdContentSize(input, offset, length);
        if (declared.isPresent() && declared.getAsInt() > capacity) {
            throw new CorruptDataException("ZSTD chunk declares " + declared.getAsInt() + " bytes, more than the compression block size " + capacity);
        }
        return decompressor().decompress(input, offset, length, output, 0, capacity);
    }

    /**
     * The content size a ZSTD frame header declares, when it declares one that fits an int.
     */
    private static OptionalInt zstdContentSize(byte[] input, int offset, int length)
    {
        try {
            long size = ZstdDecompressor.getDecompressedSize(input, offset, length);
            return size >= 0 && size <= Integer.MAX_VALUE ? OptionalInt.of((int) size) : OptionalInt.empty();
        }
        catch (RuntimeException e) {
            return OptionalInt.empty();
        }
    }

    private int inflate(byte[] input, int offset, int length, byte[] output, int capacity)
    {
        if (inflater == null) {
            // ORC writes raw deflate streams, without the zlib header and checksum
            inflater = new Inflater(true);
        }
        inflater.reset();
        inflater.setInput(input, offset, length);
        int produced = 0;
        try {
            while (!inflater.finished()) {
                if (produced == capacity) {
                    // more output than a chunk may hold, unless the stream merely has not seen its end marker yet
                    byte[] probe = new byte[1];
                    if (inflater.inflate(probe) > 0) {
                        throw new CorruptDataException("ZLIB chunk decompresses to more than the compression block size " + capacity);
                    }
                    break;
                }
                int count = inflater.inflate(output, produced, capacity - produced);
                produced += count;
                if (count == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    if (inflater.needsDictionary()) {
                        throw new CorruptDataException("ZLIB chunk needs a preset dictionary");
                    }
                    // ORC's writers finish every chunk's deflate stream: one without its final block was cut short
                    throw new CorruptDataException("ZLIB chunk ends before its deflate stream does");
                }
            }
        }
        catch (DataFormatException e) {
            throw new CorruptDataException("Cannot decompress ZLIB chunk: " + e.getMessage(), e);
        }
        return produced;
    }

    private Decompressor decompressor()
    {
        if (decompressor == null) {
            decompressor = switch (kind) {
                case SNAPPY -> new SnappyDecompressor();
                case LZ4 -> new Lz4Decompressor();
                case ZSTD -> new ZstdDecompressor();
                default -> throw new IllegalStateException("No decompressor for " + kind);
            };
        }
        return decompressor;
    }

    /**
     * Releases the native state of the ZLIB inflater.
     */
    void close()
    {
        if (inflater != null) {
            inflater.end();
            inflater = null;
        }
    }
}
