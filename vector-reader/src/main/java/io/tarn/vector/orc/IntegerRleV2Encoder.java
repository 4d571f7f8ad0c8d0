package io.tarn.vector.orc;

/**
 * ORC's integer run-length encoding version 2, the counterpart of {@link IntegerRleV2Decoder}.
 * Values wait in a buffer of up to 512 and are then written as runs of three sub-encodings:
 * SHORT_REPEAT for 3 to 10 equal values, DELTA with a fixed delta of zero for 11 to 512 equal
 * values, and DIRECT (bit-packed at one of ORC's fixed widths) for the values between such runs.
 * Signed values are zigzag encoded first. PATCHED_BASE is never written.
 * <p>
 * Header layouts: SHORT_REPEAT {@code 00 www ccc} (value bytes - 1, count - 3) then the value
 * big-endian; DIRECT {@code 01 wwwww l llllllll} (width code, count - 1) then the packed values;
 * DELTA {@code 11 00000 l llllllll} then the base as a varint and the delta 0 as a signed varint.
 */
final class IntegerRleV2Encoder
        implements ValueEncoder
{
    private static final int MAX_VALUES = 512;
    private static final int MIN_REPEAT = 3;
    private static final int MAX_SHORT_REPEAT = 10;

    private final OrcOutputBuffer output;
    private final boolean signed;
    private final long[] values = new long[MAX_VALUES];
    private int count;

    IntegerRleV2Encoder(OrcOutputBuffer output, boolean signed)
    {
        this.output = output;
        this.signed = signed;
    }

    void write(long value)
    {
        values[count++] = value;
        if (count == MAX_VALUES) {
            flush();
        }
    }

    /**
     * Adds the stream's position and the number of values pending, all written from there.
     */
    @Override
    public void recordPosition(OrcOutputBuffer.PositionList positions)
    {
        output.recordPosition(positions);
        positions.add(count);
    }

    int positionCount()
    {
        return output.positionCount() + 1;
    }

    @Override
    public void flush()
    {
        int start = 0;
        while (start < count) {
            int repeat = repeatLength(start);
            if (repeat >= MIN_REPEAT) {
                if (repeat <= MAX_SHORT_REPEAT) {
                    writeShortRepeat(values[start], repeat);
                }
                else {
                    writeRepeatedDelta(values[start], repeat);
                }
                start += repeat;
                continue;
            }
            int end = start + repeat;
            while (end < count && repeatLength(end) < MIN_REPEAT) {
                end++;
            }
            writeDirect(start, end - start);
            start = end;
        }
        count = 0;
    }

    private int repeatLength(int start)
    {
        int end = start + 1;
        while (end < count && values[end] == values[start]) {
            end++;
        }
        return end - start;
    }

    private long encode(long value)
    {
        return signed ? (value << 1) ^ (value >> 63) : value;
    }

    private void writeShortRepeat(long value, int repeat)
    {
        long encoded = encode(value);
        int bytes = Math.max(1, (64 - Long.numberOfLeadingZeros(encoded) + 7) / 8);
        output.write((bytes - 1) << 3 | (repeat - MIN_REPEAT));
        for (int i = bytes - 1; i >= 0; i--) {
            output.write((int) (encoded >>> (8 * i)));
        }
    }

    private void writeRepeatedDelta(long value, int repeat)
    {
        int length = repeat - 1;
        output.write(0xC0 | (length >>> 8));
        output.write(length & 0xFF);
        writeVarint(encode(value));
        // the fixed delta 0, a signed varint
        writeVarint(0);
    }

    private void writeDirect(int start, int length)
    {
        long all = 0;
        for (int i = start; i < start + length; i++) {
            all |= encode(values[i]);
        }
        int width = fixedWidth(64 - Long.numberOfLeadingZeros(all));
        int header = length - 1;
        output.write(0x40 | widthCode(width) << 1 | (header >>> 8));
        output.write(header & 0xFF);
        int current = 0;
        int bitsInCurrent = 0;
        for (int i = start; i < start + length; i++) {
            long value = encode(values[i]);
            int remaining = width;
            while (remaining > 0) {
                int take = Math.min(8 - bitsInCurrent, remaining);
                int part = (int) ((value >>> (remaining - take)) & ((1 << take) - 1));
                current = current << take | part;
                bitsInCurrent += take;
                remaining -= take;
                if (bitsInCurrent == 8) {
                    output.write(current);
                    current = 0;
                    bitsInCurrent = 0;
                }
            }
        }
        if (bitsInCurrent > 0) {
            output.write(current << (8 - bitsInCurrent));
        }
    }

    private void writeVarint(long value)
    {
        while ((value & ~0x7FL) != 0) {
            output.write((int) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        output.write((int) value);
    }

    /**
     * The smallest of ORC's packing widths (1..24, 26, 28, 30, 32, 40, 48, 56, 64) that holds
     * {@code bits} bits.
     */
    static int fixedWidth(int bits)
    {
        if (bits <= 1) {
            return 1;
        }
        if (bits <= 24) {
            return bits;
        }
        if (bits <= 32) {
            return bits + (bits & 1);
        }
        if (bits <= 64) {
            return (bits + 7) / 8 * 8;
        }
        throw new IllegalArgumentException("Width " + bits);
    }

    /**
     * The 5-bit code of a packing width, the inverse of {@link IntegerRleV2Decoder#decodeBitWidth}.
     */
    static int widthCode(int width)
    {
        if (width <= 24) {
            return width - 1;
        }
        return switch (width) {
            case 26 -> 24;
            case 28 -> 25;
            case 30 -> 26;
            case 32 -> 27;
            case 40 -> 28;
            case 48 -> 29;
            case 56 -> 30;
            case 64 -> 31;
            default -> throw new IllegalArgumentException("Not a packing width: " + width);
        };
    }
}
