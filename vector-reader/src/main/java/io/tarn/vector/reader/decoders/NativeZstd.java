package io.tarn.vector.reader.decoders;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;

import static java.lang.Math.toIntExact;

/**
 * ZSTD through zstd-jni's native libzstd: decompression several times faster than the Java
 * decoder (the other engines Tarn is compared with all decompress natively), and compression at
 * the level a table asks for (aircompressor's Java encoder has only its level 3). Where the
 * native library cannot be loaded (an unsupported platform), {@link #available()} is false and
 * callers use aircompressor instead.
 * <p>
 * Internal to the vector-reader module: public only for the writer and ORC packages.
 */
public final class NativeZstd
{
    static final boolean AVAILABLE = probe();

    // a decompression context per thread: zstd-jni's one-shot call builds and frees a context per
    // page, which showed up as several percent of a selective scan's time
    private static final ThreadLocal<ZstdDecompressCtx> CONTEXT = ThreadLocal.withInitial(ZstdDecompressCtx::new);

    private NativeZstd() {}

    public static boolean available()
    {
        return AVAILABLE;
    }

    /**
     * The most bytes {@link #compress} can produce for {@code length} input bytes.
     */
    public static int maxCompressedLength(int length)
    {
        return toIntExact(Zstd.compressBound(length));
    }

    /**
     * Compresses {@code input[offset, offset + length)} as one ZSTD frame at {@code level} into
     * {@code output[outputOffset, outputOffset + capacity)}, returning the frame's size.
     */
    public static int compress(byte[] input, int offset, int length, byte[] output, int outputOffset, int capacity, int level)
    {
        try {
            return toIntExact(Zstd.compressByteArray(output, outputOffset, capacity, input, offset, length, level));
        }
        catch (ZstdException e) {
            throw new IllegalArgumentException("ZSTD: " + e.getMessage(), e);
        }
    }

    /**
     * Decompresses one frame-sequence into {@code output[0, capacity)}, returning the size
     * produced; libzstd never writes past {@code capacity}, whatever the input holds.
     *
     * @throws IllegalArgumentException for malformed input
     */
    public static int decompress(byte[] input, int offset, int length, byte[] output, int capacity)
    {
        try {
            return CONTEXT.get().decompressByteArray(output, 0, capacity, input, offset, length);
        }
        catch (ZstdException e) {
            throw new IllegalArgumentException("ZSTD: " + e.getMessage(), e);
        }
    }

    private static boolean probe()
    {
        try {
            byte[] compressed = Zstd.compress(new byte[] {1, 2, 3});
            byte[] restored = new byte[3];
            return Zstd.decompressByteArray(restored, 0, 3, compressed, 0, compressed.length) == 3 && restored[2] == 3;
        }
        catch (LinkageError | RuntimeException e) {
            return false;
        }
    }
}
