package io.tarn.vector;

import com.github.luben.zstd.Zstd;

/**
 * ZSTD decompression through zstd-jni's native libzstd, which is several times faster than the
 * Java decoder (the other engines Tarn is compared with all decompress natively). Where the
 * native library cannot be loaded (an unsupported platform), {@link #AVAILABLE} is false and
 * callers use aircompressor's Java decoder instead.
 */
final class NativeZstd
{
    static final boolean AVAILABLE = probe();

    private NativeZstd() {}

    /**
     * Decompresses one frame-sequence into {@code output[0, capacity)}, returning the size
     * produced; libzstd never writes past {@code capacity}, whatever the input holds.
     *
     * @throws RuntimeException (zstd-jni's {@code ZstdException}) for malformed input
     */
    static int decompress(byte[] input, int offset, int length, byte[] output, int capacity)
    {
        long produced = Zstd.decompressByteArray(output, 0, capacity, input, offset, length);
        if (Zstd.isError(produced)) {
            throw new IllegalArgumentException("ZSTD: " + Zstd.getErrorName(produced));
        }
        return (int) produced;
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
