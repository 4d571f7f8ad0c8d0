package io.tarn.vector;

/**
 * The RLE / bit-packing hybrid of the Parquet spec: runs of {@code varint header} followed either
 * by one value of {@code ceil(bitWidth / 8)} bytes repeated {@code header >>> 1} times (header bit 0
 * clear), or by {@code header >>> 1} groups of 8 values bit-packed little-endian (bit 0 set).
 * A bit-packed run cut short at the end of the data reads missing bits as zero, as writers may
 * omit the padding of the last group.
 */
final class RleBitPackedDecoder
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

    RleBitPackedDecoder(byte[] data, int offset, int length, int bitWidth)
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
    static RleBitPackedDecoder withLengthPrefix(byte[] data, int offset, int end, int bitWidth)
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
    int end()
    {
        return end;
    }

    void read(int[] out, int offset, int count)
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
                for (int i = 0; i < n; i++) {
                    if (packedIndex == 8) {
                        unpackGroup();
                    }
                    out[index + i] = packed[packedIndex++];
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
                for (int i = 0; i < n; i++) {
                    if (packedIndex == 8) {
                        unpackGroup();
                    }
                    packedIndex++;
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

    private void unpackGroup()
    {
        if (bitWidth == 0) {
            java.util.Arrays.fill(packed, 0);
            packedIndex = 0;
            return;
        }
        long buffer = 0;
        int bits = 0;
        long mask = (1L << bitWidth) - 1;
        for (int i = 0; i < 8; i++) {
            while (bits < bitWidth) {
                long next = position < end ? data[position] & 0xFF : 0;
                position++;
                buffer |= next << bits;
                bits += 8;
            }
            packed[i] = (int) (buffer & mask);
            buffer >>>= bitWidth;
            bits -= bitWidth;
        }
        if (position > end) {
            position = end;
        }
        packedIndex = 0;
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
