package io.tarn.vector.reader.decoders;

import io.tarn.vector.CorruptDataException;

/**
 * DELTA_BINARY_PACKED: a header {@code <block size> <miniblocks per block> <total count>
 * <first value (zigzag)>} of ULEB128 varints, then blocks of {@code <min delta (zigzag)> <one bit
 * width byte per miniblock> <miniblocks>}, each miniblock holding bit-packed deltas minus the
 * minimum. Arithmetic wraps, as the spec requires, so INT32 columns decode through longs.
 * A block is decoded at a time into a reusable array.
 */
final class DeltaBinaryPackedDecoder
        implements ValuesDecoder
{
    private final byte[] data;
    private final int end;
    private final boolean int32;
    private int position;

    private final int blockSize;
    private final int miniblocks;
    private final int valuesPerMiniblock;
    private final int totalCount;
    private int valuesRead;

    private final long[] block;
    private int blockIndex;
    private int blockLength;
    private long previous;
    private final int[] bitWidths;

    DeltaBinaryPackedDecoder(byte[] data, int offset, int end, boolean int32)
    {
        this.data = data;
        this.position = offset;
        this.end = end;
        this.int32 = int32;
        long size = readUnsignedVarint();
        long miniblockCount = readUnsignedVarint();
        long total = readUnsignedVarint();
        if (size <= 0 || size % 128 != 0 || size > 1 << 16 || miniblockCount <= 0 || size % miniblockCount != 0 || (size / miniblockCount) % 32 != 0) {
            throw new CorruptDataException("Invalid DELTA_BINARY_PACKED block size " + size + " with " + miniblockCount + " miniblocks");
        }
        if (total > Integer.MAX_VALUE) {
            throw new CorruptDataException("Invalid DELTA_BINARY_PACKED value count " + total);
        }
        this.blockSize = (int) size;
        this.miniblocks = (int) miniblockCount;
        this.valuesPerMiniblock = blockSize / miniblocks;
        this.totalCount = (int) total;
        this.bitWidths = new int[miniblocks];
        this.block = new long[blockSize + 1];
        long first = zigzag(readUnsignedVarint());
        this.previous = first;
        // the first value is the first entry of the first "block"
        if (totalCount > 0) {
            block[0] = first;
            blockLength = 1;
        }
    }

    /**
     * The first byte after the last block; valid once every value has been read or skipped.
     */
    int endPosition()
    {
        return position;
    }

    int totalCount()
    {
        return totalCount;
    }

    @Override
    public void read(ValueBuffer out, int count)
    {
        if (int32) {
            int[] target = out.ints(count);
            int base = out.count;
            int done = 0;
            while (done < count) {
                ensureBlock();
                int n = Math.min(count - done, blockLength - blockIndex);
                for (int i = 0; i < n; i++) {
                    target[base + done + i] = (int) block[blockIndex + i];
                }
                blockIndex += n;
                done += n;
            }
        }
        else {
            long[] target = out.longs(count);
            int base = out.count;
            int done = 0;
            while (done < count) {
                ensureBlock();
                int n = Math.min(count - done, blockLength - blockIndex);
                System.arraycopy(block, blockIndex, target, base + done, n);
                blockIndex += n;
                done += n;
            }
        }
        valuesRead += count;
        out.count += count;
    }

    /**
     * Reads values into a plain array (used for the lengths of the delta byte array encodings).
     */
    void readInts(int[] target, int offset, int count)
    {
        int done = 0;
        while (done < count) {
            ensureBlock();
            int n = Math.min(count - done, blockLength - blockIndex);
            for (int i = 0; i < n; i++) {
                target[offset + done + i] = (int) block[blockIndex + i];
            }
            blockIndex += n;
            done += n;
        }
        valuesRead += count;
    }

    @Override
    public void readSelected(ValueBuffer out, int count, long[] selected)
    {
        // the values are decoded block by block anyway; only the copies of the others are wasted
        int start = out.count;
        read(out, count);
        if (int32) {
            out.retainInts(start, count, selected);
        }
        else {
            out.retainLongs(start, count, selected);
        }
    }

    @Override
    public void skip(int count)
    {
        int done = 0;
        while (done < count) {
            ensureBlock();
            int n = Math.min(count - done, blockLength - blockIndex);
            blockIndex += n;
            done += n;
        }
        valuesRead += count;
    }

    private void ensureBlock()
    {
        if (blockIndex < blockLength) {
            return;
        }
        int consumed = valuesReadBeforeBlock() + blockLength;
        int remaining = totalCount - consumed;
        if (remaining <= 0) {
            throw new CorruptDataException("DELTA_BINARY_PACKED data holds only " + totalCount + " values");
        }
        long minDelta = zigzag(readUnsignedVarint());
        if (end - position < miniblocks) {
            throw new CorruptDataException("DELTA_BINARY_PACKED bit widths past the end of the page");
        }
        for (int i = 0; i < miniblocks; i++) {
            bitWidths[i] = data[position++] & 0xFF;
        }
        int count = Math.min(remaining, blockSize);
        int index = 0;
        long value = previous;
        for (int m = 0; m < miniblocks && index < count; m++) {
            int width = bitWidths[m];
            if (width > 64) {
                throw new CorruptDataException("DELTA_BINARY_PACKED bit width " + width + " is above 64");
            }
            long bytes = (long) valuesPerMiniblock * width / 8;
            if (bytes > end - position) {
                // the last miniblock may be shorter when the writer trimmed its padding
                if (index + valuesPerMiniblock < count) {
                    throw new CorruptDataException("DELTA_BINARY_PACKED miniblock past the end of the page");
                }
            }
            int n = Math.min(valuesPerMiniblock, count - index);
            if (width <= 56) {
                // stream the bits through one accumulator; 56 bits plus a byte still fit in a long
                long mask = (1L << width) - 1;
                long buffer = 0;
                int bits = 0;
                int pos = position;
                for (int i = 0; i < n; i++) {
                    while (bits < width) {
                        long next = pos < end ? data[pos] & 0xFF : 0;
                        pos++;
                        buffer |= next << bits;
                        bits += 8;
                    }
                    long delta = buffer & mask;
                    buffer >>>= width;
                    bits -= width;
                    value += minDelta + delta;
                    block[index + i] = value;
                }
            }
            else {
                int bitPosition = 0;
                for (int i = 0; i < n; i++) {
                    long delta = readBits(position, bitPosition, width);
                    bitPosition += width;
                    value += minDelta + delta;
                    block[index + i] = value;
                }
            }
            position = (int) Math.min(end, position + bytes);
            index += n;
        }
        previousBlockStart += blockLength;
        previous = value;
        blockIndex = 0;
        blockLength = count;
    }

    private int previousBlockStart;

    private int valuesReadBeforeBlock()
    {
        return previousBlockStart;
    }

    private long readBits(int base, int bitOffset, int width)
    {
        if (width == 0) {
            return 0;
        }
        long result = 0;
        int bitsDone = 0;
        int byteIndex = base + (bitOffset >>> 3);
        int shift = bitOffset & 7;
        while (bitsDone < width) {
            long b = byteIndex < end ? data[byteIndex] & 0xFF : 0;
            result |= (b >>> shift) << bitsDone;
            bitsDone += 8 - shift;
            shift = 0;
            byteIndex++;
        }
        return width == 64 ? result : result & ((1L << width) - 1);
    }

    private long readUnsignedVarint()
    {
        long value = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            if (position >= end) {
                throw new CorruptDataException("DELTA_BINARY_PACKED header past the end of the page");
            }
            int b = data[position++] & 0xFF;
            value |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw new CorruptDataException("DELTA_BINARY_PACKED varint is too long");
    }

    private static long zigzag(long value)
    {
        return (value >>> 1) ^ -(value & 1);
    }
}
