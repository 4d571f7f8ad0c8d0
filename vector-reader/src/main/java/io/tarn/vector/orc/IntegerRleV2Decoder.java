package io.tarn.vector.orc;

import io.tarn.vector.CorruptDataException;

/**
 * ORC's integer run-length encoding version 2. The two top bits of a run's first byte choose
 * among four sub-encodings (bits are read from the most significant down, values bit-packed
 * big-endian and each run padded to a whole byte):
 * <ul>
 * <li>short repeat: 3 bits of byte width W - 1, 3 bits of count - 3, then one W-byte value;</li>
 * <li>direct: 5 bits of encoded bit width, 9 bits of length - 1, then the packed values;</li>
 * <li>patched base: as direct, plus a base value (sign and magnitude) added to every value, and a
 * list of patches that supply the high bits of the few values too wide for the packed width;</li>
 * <li>delta: 5 bits of encoded delta width, 9 bits of length - 1, a varint first value, a signed
 * varint first delta, then the packed magnitudes of the other deltas, which share the first
 * delta's sign; width 0 means every delta equals the first.</li>
 * </ul>
 * Signed streams zigzag-encode the values of short repeat and direct runs and the first value
 * of delta runs.
 */
final class IntegerRleV2Decoder
        extends IntegerDecoder
{
    private static final int SHORT_REPEAT = 0;
    private static final int DIRECT = 1;
    private static final int PATCHED_BASE = 2;
    private static final int MAX_RUN = 512;

    private final long[] patches = new long[32];
    // the packed bytes of a run that straddles two compression chunks
    private final byte[] packed = new byte[MAX_RUN * 8];

    IntegerRleV2Decoder(DecompressedStream input, boolean signed)
    {
        super(input, signed, MAX_RUN);
    }

    @Override
    void readRun(long[] target, int at)
    {
        int first = input.readByte();
        int encoding = first >>> 6;
        switch (encoding) {
            case SHORT_REPEAT -> shortRepeat(first, target, at);
            case DIRECT -> direct(first, target, at);
            case PATCHED_BASE -> patchedBase(first, target, at);
            default -> delta(first, target, at);
        }
    }

    /**
     * Passes over whole runs by their headers: the bytes of a run's values follow from its
     * header, so skipping needs no unpacking (a patched-base run's patches are not checked then,
     * as they are not applied).
     */
    @Override
    long skipRuns(long count)
    {
        long skipped = 0;
        while (skipped < count && input.contiguous() >= 2) {
            byte[] bytes = input.chunk();
            int at = input.chunkPosition();
            int first = bytes[at] & 0xFF;
            int encoding = first >>> 6;
            int length = encoding == SHORT_REPEAT ? (first & 7) + 3 : ((first & 1) << 8 | (bytes[at + 1] & 0xFF)) + 1;
            if (length > count - skipped) {
                break;
            }
            switch (encoding) {
                case SHORT_REPEAT -> input.skip(1 + ((first >>> 3) & 7) + 1);
                case DIRECT -> input.skip(2 + BitUnpacking.packedBytes(length, decodeBitWidth((first >>> 1) & 0x1F)));
                case PATCHED_BASE -> {
                    input.advance(2);
                    PatchedBaseHeader header = readPatchedBaseHeader();
                    input.skip(header.baseBytes()
                            + (long) BitUnpacking.packedBytes(length, decodeBitWidth((first >>> 1) & 0x1F))
                            + BitUnpacking.packedBytes(header.patchCount(), header.patchEntryBits()));
                }
                default -> {
                    int encodedWidth = (first >>> 1) & 0x1F;
                    input.advance(2);
                    readVarint();
                    readVarint();
                    if (encodedWidth != 0) {
                        if (length < 2) {
                            throw new CorruptDataException("Delta run of one value has packed deltas in stream " + input.name());
                        }
                        input.skip(BitUnpacking.packedBytes(length - 2, decodeBitWidth(encodedWidth)));
                    }
                }
            }
            skipped += length;
        }
        return skipped;
    }

    private void shortRepeat(int first, long[] target, int at)
    {
        int width = ((first >>> 3) & 7) + 1;
        int count = (first & 7) + 3;
        long value = 0;
        for (int i = 0; i < width; i++) {
            value = (value << 8) | input.readByte();
        }
        value = decode(value);
        for (int i = 0; i < count; i++) {
            target[at + i] = value;
        }
        size = count;
    }

    private void direct(int first, long[] target, int at)
    {
        int width = decodeBitWidth((first >>> 1) & 0x1F);
        int length = ((first & 1) << 8 | input.readByte()) + 1;
        readPacked(target, at, length, width);
        if (signed) {
            for (int i = 0; i < length; i++) {
                target[at + i] = ProtobufReader.zigzag(target[at + i]);
            }
        }
        size = length;
    }

    private void patchedBase(int first, long[] target, int at)
    {
        int width = decodeBitWidth((first >>> 1) & 0x1F);
        int length = ((first & 1) << 8 | input.readByte()) + 1;
        PatchedBaseHeader header = readPatchedBaseHeader();
        int baseBytes = header.baseBytes();
        int patchWidth = header.patchWidth();
        int patchCount = header.patchCount();
        long base = 0;
        for (int i = 0; i < baseBytes; i++) {
            base = (base << 8) | input.readByte();
        }
        // sign and magnitude: the top bit of the base's bytes is its sign
        long signBit = 1L << (baseBytes * 8 - 1);
        if ((base & signBit) != 0) {
            base = -(base & ~signBit);
        }
        readPacked(target, at, length, width);
        readPacked(patches, 0, patchCount, header.patchEntryBits());
        long patchMask = patchWidth == 64 ? -1L : (1L << patchWidth) - 1;
        long position = 0;
        for (int i = 0; i < patchCount; i++) {
            long gap = patches[i] >>> patchWidth;
            long patch = patches[i] & patchMask;
            position += gap;
            if (patch == 0) {
                // a patch of 0 only carries a gap longer than the gap width can say
                continue;
            }
            if (position >= length) {
                throw new CorruptDataException("Patched-base run patches value " + position + " of " + length + " in stream " + input.name());
            }
            // the patch supplies the bits above the packed width
            target[at + (int) position] |= width >= 64 ? 0 : patch << width;
        }
        for (int i = 0; i < length; i++) {
            target[at + i] += base;
        }
        size = length;
    }

    /**
     * The third and fourth header bytes of a patched-base run: the base's byte count, the width
     * of a patch, and the number of patches, each entry a gap and a patch packed together.
     */
    private PatchedBaseHeader readPatchedBaseHeader()
    {
        int third = input.readByte();
        int fourth = input.readByte();
        int patchWidth = decodeBitWidth(third & 0x1F);
        int gapWidth = ((fourth >>> 5) & 7) + 1;
        if (patchWidth + gapWidth > 64) {
            throw new CorruptDataException("Patched-base run has patches of " + patchWidth + " + " + gapWidth + " bits in stream " + input.name());
        }
        return new PatchedBaseHeader(((third >>> 5) & 7) + 1, patchWidth, fourth & 0x1F, closestFixedBits(patchWidth + gapWidth));
    }

    private record PatchedBaseHeader(int baseBytes, int patchWidth, int patchCount, int patchEntryBits) {}

    private void delta(int first, long[] target, int at)
    {
        int encodedWidth = (first >>> 1) & 0x1F;
        int width = encodedWidth == 0 ? 0 : decodeBitWidth(encodedWidth);
        int length = ((first & 1) << 8 | input.readByte()) + 1;
        long value = decode(readVarint());
        long deltaBase = readSignedVarint();
        target[at + 0] = value;
        if (width == 0) {
            for (int i = 1; i < length; i++) {
                value += deltaBase;
                target[at + i] = value;
            }
            size = length;
            return;
        }
        if (length < 2) {
            throw new CorruptDataException("Delta run of one value has packed deltas in stream " + input.name());
        }
        value += deltaBase;
        target[at + 1] = value;
        readPacked(target, at + 2, length - 2, width);
        // the packed deltas are magnitudes with the first delta's sign
        if (deltaBase < 0) {
            for (int i = 2; i < length; i++) {
                value -= target[at + i];
                target[at + i] = value;
            }
        }
        else {
            for (int i = 2; i < length; i++) {
                value += target[at + i];
                target[at + i] = value;
            }
        }
        size = length;
    }

    /**
     * Reads {@code count} values of {@code width} bits, big-endian and back to back, into
     * {@code values[offset, offset + count)}; the bits left in the last byte are dropped. The
     * values are unpacked straight from the decompressed chunk, or from a copy of their bytes
     * when they straddle two chunks.
     */
    private void readPacked(long[] values, int offset, int count, int width)
    {
        if (count == 0) {
            return;
        }
        int bytes = BitUnpacking.packedBytes(count, width);
        if (input.contiguous() >= bytes) {
            BitUnpacking.unpack(input.chunk(), input.chunkPosition(), values, offset, count, width);
            input.advance(bytes);
            return;
        }
        input.readFully(packed, 0, bytes);
        BitUnpacking.unpack(packed, 0, values, offset, count, width);
    }

    /**
     * The bit width of the 5-bit width code: 1..24 directly, then 26, 28, 30, 32, 40, 48, 56, 64.
     */
    static int decodeBitWidth(int code)
    {
        if (code <= 23) {
            return code + 1;
        }
        return switch (code) {
            case 24 -> 26;
            case 25 -> 28;
            case 26 -> 30;
            case 27 -> 32;
            case 28 -> 40;
            case 29 -> 48;
            case 30 -> 56;
            default -> 64;
        };
    }

    /**
     * The width that patch entries of {@code bits} bits are padded to.
     */
    static int closestFixedBits(int bits)
    {
        if (bits == 0) {
            return 1;
        }
        if (bits <= 24) {
            return bits;
        }
        if (bits <= 26) {
            return 26;
        }
        if (bits <= 28) {
            return 28;
        }
        if (bits <= 30) {
            return 30;
        }
        if (bits <= 32) {
            return 32;
        }
        if (bits <= 40) {
            return 40;
        }
        if (bits <= 48) {
            return 48;
        }
        if (bits <= 56) {
            return 56;
        }
        return 64;
    }
}
