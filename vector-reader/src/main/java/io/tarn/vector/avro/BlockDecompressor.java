package io.tarn.vector.avro;

import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import io.airlift.compress.MalformedInputException;
import io.airlift.compress.snappy.SnappyDecompressor;
import io.airlift.compress.zstd.ZstdInputStream;
import io.tarn.vector.CorruptDataException;
import io.tarn.vector.reader.decoders.NativeZstd;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

import static java.util.Objects.requireNonNull;

/**
 * Decompresses the blocks of one file into a reused buffer. Deflate and ZSTD do not state the
 * uncompressed size, so the buffer grows as the output does; Snappy states it, and a size no
 * Snappy block of that length can produce is rejected before anything is allocated. No block
 * decompresses to more than {@link #MAX_BLOCK_BYTES}: Avro writers end a block after about 64 KB
 * of records (Paimon keeps Avro's default sync interval), so only a record larger than that
 * limit, which Paimon never writes, could need more.
 */
final class BlockDecompressor
        implements AutoCloseable
{
    static final int MAX_BLOCK_BYTES = 1 << 30;
    // a Snappy copy element of 3 bytes expands to at most 64: no block grows more than this
    private static final int MAX_SNAPPY_RATIO = 22;

    private final BlockCodec codec;
    private byte[] output = new byte[0];
    private Inflater inflater;
    private SnappyDecompressor snappy;
    private CRC32 crc;

    BlockDecompressor(BlockCodec codec)
    {
        this.codec = requireNonNull(codec, "codec is null");
    }

    /**
     * Decompresses {@code input[offset, offset + length)}; the block's bytes are then
     * {@code [0, result)} of {@link #output()}, or, for the null codec, the input itself
     * (the result is -1).
     */
    int decompress(byte[] input, int offset, int length)
    {
        return switch (codec) {
            case NULL -> -1;
            case DEFLATE -> inflate(input, offset, length);
            case SNAPPY -> unsnappy(input, offset, length);
            case ZSTANDARD -> unzstd(input, offset, length);
        };
    }

    byte[] output()
    {
        return output;
    }

    long retainedBytes()
    {
        return output.length;
    }

    private int inflate(byte[] input, int offset, int length)
    {
        if (inflater == null) {
            // Avro's deflate codec writes raw deflate data, without the zlib wrapper
            inflater = new Inflater(true);
        }
        inflater.reset();
        inflater.setInput(input, offset, length);
        int produced = 0;
        ensureOutput(Math.max(4096, Math.min(MAX_BLOCK_BYTES, length * 4L)));
        try {
            while (!inflater.finished()) {
                if (produced == output.length) {
                    grow(produced);
                }
                int count = inflater.inflate(output, produced, output.length - produced);
                produced += count;
                if (count == 0 && !inflater.finished() && produced < output.length) {
                    // more input or a preset dictionary needed: either way the block is cut short
                    throw new CorruptDataException("Deflate block of " + length + " bytes ends early");
                }
            }
        }
        catch (DataFormatException e) {
            throw new CorruptDataException("Deflate block is corrupt: " + e.getMessage(), e);
        }
        return produced;
    }

    private int unsnappy(byte[] input, int offset, int length)
    {
        if (length < 4) {
            throw new CorruptDataException("Snappy block of " + length + " bytes has no checksum");
        }
        if (snappy == null) {
            snappy = new SnappyDecompressor();
            crc = new CRC32();
        }
        int compressed = length - 4;
        int declared;
        try {
            declared = SnappyDecompressor.getUncompressedLength(input, offset);
        }
        catch (MalformedInputException | IndexOutOfBoundsException e) {
            throw new CorruptDataException("Snappy block has a corrupt length", e);
        }
        if (declared < 0 || declared > MAX_BLOCK_BYTES || declared > (long) compressed * MAX_SNAPPY_RATIO + 16) {
            throw new CorruptDataException("Snappy block of " + compressed + " bytes declares " + declared + " uncompressed bytes");
        }
        ensureOutput(declared);
        int produced;
        try {
            produced = snappy.decompress(input, offset, compressed, output, 0, declared);
        }
        catch (MalformedInputException e) {
            throw new CorruptDataException("Snappy block is corrupt: " + e.getMessage(), e);
        }
        if (produced != declared) {
            throw new CorruptDataException("Snappy block declares " + declared + " bytes but holds " + produced);
        }
        crc.reset();
        crc.update(output, 0, produced);
        int end = offset + compressed;
        int stored = ((input[end] & 0xFF) << 24) | ((input[end + 1] & 0xFF) << 16) | ((input[end + 2] & 0xFF) << 8) | (input[end + 3] & 0xFF);
        if (stored != (int) crc.getValue()) {
            throw new CorruptDataException("Snappy block fails its CRC-32 check");
        }
        return produced;
    }

    private int unzstd(byte[] input, int offset, int length)
    {
        ensureOutput(Math.max(4096, Math.min(MAX_BLOCK_BYTES, length * 4L)));
        int produced = 0;
        // Avro's writer streams each block into a frame without a content size: decode as a stream
        try (InputStream stream = zstdStream(new ByteArrayInputStream(input, offset, length))) {
            while (true) {
                if (produced == output.length) {
                    grow(produced);
                }
                int count = stream.read(output, produced, output.length - produced);
                if (count < 0) {
                    break;
                }
                produced += count;
            }
        }
        catch (IOException | RuntimeException e) {
            if (e instanceof CorruptDataException corrupt) {
                throw corrupt;
            }
            throw new CorruptDataException("ZSTD block is corrupt: " + e.getMessage(), e);
        }
        return produced;
    }

    private static InputStream zstdStream(InputStream compressed)
            throws IOException
    {
        if (NativeZstd.available()) {
            return new ZstdInputStreamNoFinalizer(compressed);
        }
        return new ZstdInputStream(compressed);
    }

    private void grow(int produced)
    {
        if (produced >= MAX_BLOCK_BYTES) {
            throw new CorruptDataException("Block decompresses to more than " + MAX_BLOCK_BYTES + " bytes");
        }
        output = Arrays.copyOf(output, (int) Math.min(MAX_BLOCK_BYTES, produced * 2L));
    }

    private void ensureOutput(long size)
    {
        if (output.length < size) {
            output = new byte[(int) size];
        }
    }

    @Override
    public void close()
    {
        if (inflater != null) {
            inflater.end();
            inflater = null;
        }
    }
}
