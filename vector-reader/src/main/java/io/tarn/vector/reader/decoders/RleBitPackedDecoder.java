package io.tarn.vector.reader.decoders;

import io.tarn.vector.CorruptDataException;

/**
 * The RLE / bit-packing hybrid of the Parquet spec: runs of {@code varint header} followed either
 * by one value of {@code ceil(bitWidth / 8)} bytes repeated {@code header >>> 1} times (header bit 0
 * clear), or by {@code header >>> 1} groups of 8 values bit-packed little-endian (bit 0 set).
 * A bit-packed run cut short at the end of the data reads missing bits as zero, as writers may
 * omit the padding of the last group.
 * <p>
 * Internal to the vector-reader module: public only for the reader package.
 */
public final class RleBitPackedDecoder
{
    private final byte[] data;
    private final int end;
    private final int bitWidth;
    private final int valueBytes;
    private int position;

    private boolean rle;
    private int runRemaining;
    private int rleValue;
    private final int[] packed = new int[8];
    private int packedIndex = 8;

    public RleBitPackedDecoder(byte[] data, int offset, int length, int bitWidth)
    {
        if (bitWidth < 0 || bitWidth > 32) {
            throw new CorruptDataException("Invalid RLE bit width " + bitWidth);
        }
        if (offset < 0 || length < 0 || offset > data.length - length) {
            throw new CorruptDataException("RLE data of " + length + " bytes at " + offset + " is outside the page");
        }
        this.data = data;
        this.position = offset;
        this.end = offset + length;
        this.bitWidth = bitWidth;
        this.valueBytes = (bitWidth + 7) / 8;
    }

    /**
     * Reads the 4-byte little-endian length prefix used by levels of v1 pages and by RLE
     * booleans, and returns a decoder over that many bytes.
     */
    public static RleBitPackedDecoder withLengthPrefix(byte[] data, int offset, int end, int bitWidth)
    {
        if (end - offset < 4) {
            throw new CorruptDataException("Missing RLE length prefix");
        }
        int length = ByteArrays.intLE(data, offset);
        if (length < 0 || length > end - offset - 4) {
            throw new CorruptDataException("RLE length " + length + " exceeds the page");
        }
        return new RleBitPackedDecoder(data, offset + 4, length, bitWidth);
    }

    /**
     * The first byte after the data of a length-prefixed run.
     */
    public int end()
    {
        return end;
    }

    public void read(int[] out, int offset, int count)
    {
        int index = offset;
        int limit = offset + count;
        while (index < limit) {
            if (runRemaining == 0) {
                nextRun();
            }
            int n = Math.min(limit - index, runRemaining);
            if (rle) {
                int value = rleValue;
                for (int i = 0; i < n; i++) {
                    out[index + i] = value;
                }
            }
            else {
                int i = 0;
                while (i < n && packedIndex < 8) {
                    out[index + i++] = packed[packedIndex++];
                }
                // whole groups go straight to the output
                while (n - i >= 8) {
                    unpack(out, index + i);
                    i += 8;
                }
                if (i < n) {
                    unpack(packed, 0);
                    packedIndex = 0;
                    while (i < n) {
                        out[index + i++] = packed[packedIndex++];
                    }
                }
            }
            index += n;
            runRemaining -= n;
        }
    }

    void skip(int count)
    {
        int remaining = count;
        while (remaining > 0) {
            if (runRemaining == 0) {
                nextRun();
            }
            int n = Math.min(remaining, runRemaining);
            if (!rle) {
                int i = 0;
                while (i < n && packedIndex < 8) {
                    packedIndex++;
                    i++;
                }
                // whole groups are stepped over without decoding
                int groups = (n - i) / 8;
                position = (int) Math.min(end, position + (long) groups * bitWidth);
                i += groups * 8;
                if (i < n) {
                    unpack(packed, 0);
                    packedIndex = n - i;
                }
            }
            remaining -= n;
            runRemaining -= n;
        }
    }

    private void nextRun()
    {
        long header = readUnsignedVarint();
        if ((header & 1) == 0) {
            long length = header >>> 1;
            if (length == 0 || length > Integer.MAX_VALUE) {
                throw new CorruptDataException("Invalid RLE run length " + length);
            }
            if (end - position < valueBytes) {
                throw new CorruptDataException("RLE run value past the end of the data");
            }
            int value = 0;
            for (int i = 0; i < valueBytes; i++) {
                value |= (data[position++] & 0xFF) << (8 * i);
            }
            if (bitWidth < 32 && (value >>> bitWidth) != 0) {
                throw new CorruptDataException("RLE value " + value + " does not fit in " + bitWidth + " bits");
            }
            rle = true;
            rleValue = value;
            runRemaining = (int) length;
        }
        else {
            long groups = header >>> 1;
            if (groups == 0 || groups * 8 > Integer.MAX_VALUE || position >= end && bitWidth > 0) {
                throw new CorruptDataException("Invalid bit-packed run of " + groups + " groups");
            }
            rle = false;
            runRemaining = (int) (groups * 8);
            packedIndex = 8;
        }
    }

    /**
     * Values left in the current run, starting the next run when the current one is used up;
     * {@link #isRle()} and {@link #rleValue()} then describe it. Lets callers handle whole RLE
     * runs at once instead of value by value.
     */
    public int runLength()
    {
        if (runRemaining == 0) {
            nextRun();
        }
        return runRemaining;
    }

    public boolean isRle()
    {
        return rle;
    }

    public int rleValue()
    {
        return rleValue;
    }

    /**
     * Consumes {@code count <= runLength()} values of the current RLE run.
     */
    public void consumeRle(int count)
    {
        runRemaining -= count;
    }

    /**
     * Unpacks the next group of 8 values into {@code target[offset, offset + 8)}.
     */
    private void unpack(int[] target, int offset)
    {
        int width = bitWidth;
        int pos = position;
        // a whole group is {@code width} bytes; 8-byte reads at bit offsets stay inside the array
        if (width > 0 && pos <= end - width && pos <= data.length - width - Long.BYTES) {
            long mask = (1L << width) - 1;
            if (width <= 8) {
                long word = ByteArrays.longLE(data, pos);
                for (int i = 0; i < 8; i++) {
                    target[offset + i] = (int) ((word >>> (i * width)) & mask);
                }
            }
            else {
                for (int i = 0; i < 8; i++) {
                    int bit = i * width;
                    target[offset + i] = (int) ((ByteArrays.longLE(data, pos + (bit >>> 3)) >>> (bit & 7)) & mask);
                }
            }
            position = pos + width;
            return;
        }
        unpackSlow(target, offset);
    }

    private void unpackSlow(int[] target, int offset)
    {
        if (bitWidth == 0) {
            java.util.Arrays.fill(target, offset, offset + 8, 0);
            return;
        }
        long buffer = 0;
        int bits = 0;
        long mask = (1L << bitWidth) - 1;
        int pos = position;
        for (int i = 0; i < 8; i++) {
            while (bits < bitWidth) {
                long next = pos < end ? data[pos] & 0xFF : 0;
                pos++;
                buffer |= next << bits;
                bits += 8;
            }
            target[offset + i] = (int) (buffer & mask);
            buffer >>>= bitWidth;
            bits -= bitWidth;
        }
        position = Math.min(pos, end);
    }

    private long readUnsignedVarint()
    {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (position >= end) {
                throw new CorruptDataException("RLE data ends inside a run header");
            }
            int b = data[position++] & 0xFF;
            value |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw new CorruptDataException("RLE run header is too long");
    }
}
