package io.tarn.vector.orc;

import io.tarn.vector.CorruptDataException;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.FieldVector;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.nio.ByteOrder;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Arrays;

/**
 * DECIMAL columns: DATA holds each unscaled value as a zigzag varint of unbounded length,
 * SECONDARY each value's own scale (ORC's writer drops trailing zeros, so it may be below the
 * column's). Values are brought to the column's scale as ORC's reader does (a value of a larger
 * scale is rounded half up; one that then exceeds the column's precision reads as null), then to
 * the requested scale, which is never smaller.
 */
final class DecimalColumnDecoder
        extends ColumnDecoder
{
    private static final BigInteger[] POWERS = new BigInteger[77];
    private static final long[] LONG_POWERS = new long[19];
    private static final VarHandle WORDS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    static {
        BigInteger power = BigInteger.ONE;
        for (int i = 0; i < POWERS.length; i++) {
            POWERS[i] = power;
            power = power.multiply(BigInteger.TEN);
        }
        long value = 1;
        for (int i = 0; i < LONG_POWERS.length; i++) {
            LONG_POWERS[i] = value;
            value *= 10;
        }
    }

    private final int filePrecision;
    private final int fileScale;
    private final int targetPrecision;
    private final int targetScale;
    // the digits a value may have at the file's scale (both precisions), and once at the requested scale
    private final int fitDigits;
    private final int scaledDigits;
    private DecompressedStream data;
    private IntegerDecoder scales;
    private long[] small = new long[0];
    // the values that did not fit 63 bits, null where small holds the value
    private BigInteger[] large = new BigInteger[0];
    private long[] valueScales = new long[0];
    // how many entries of large are set in this batch: when none, large is all null
    private int largeValues;

    DecimalColumnDecoder(int column, String name, int filePrecision, int fileScale, int targetPrecision, int targetScale)
    {
        super(column, name);
        this.filePrecision = filePrecision;
        this.fileScale = fileScale;
        this.targetPrecision = targetPrecision;
        this.targetScale = targetScale;
        this.fitDigits = Math.min(targetPrecision, filePrecision);
        this.scaledDigits = Math.min(targetPrecision, filePrecision + targetScale - fileScale);
    }

    @Override
    void startValues(StripeStreams stripe)
    {
        StripeFooter.Encoding.Kind kind = stripe.encoding(column).kind();
        if (kind.isDictionary()) {
            throw new CorruptDataException("Decimal column " + name + " has dictionary encoding " + kind);
        }
        data = stripe.requiredStream(column, StripeFooter.Stream.DATA);
        scales = IntegerDecoder.create(stripe.requiredStream(column, StripeFooter.Stream.SECONDARY), true, kind.isV2());
    }

    @Override
    void clearValues()
    {
        if (largeValues > 0) {
            Arrays.fill(large, null);
            largeValues = 0;
        }
    }

    @Override
    void readValues(int count)
    {
        if (small.length < values + count) {
            int size = grow(small.length, values + count);
            small = Arrays.copyOf(small, size);
            large = Arrays.copyOf(large, size);
            valueScales = Arrays.copyOf(valueScales, size);
        }
        int i = 0;
        while (i < count) {
            i = readValuesInChunk(values + i, values + count) - values;
            if (i < count) {
                // a value that straddles two chunks or needs more than 63 bits
                readValue(values + i);
                i++;
            }
        }
        scales.next(valueScales, values, count);
    }

    /**
     * Reads the values {@code [from, to)} straight from the decompressed chunk while each surely
     * lies in it (the longest, 19 bytes, would) and fits 63 bits; returns the index of the first
     * value not read.
     */
    private int readValuesInChunk(int from, int to)
    {
        int available = data.contiguous();
        byte[] bytes = data.chunk();
        int start = data.chunkPosition();
        int end = start + available - 19;
        int at = start;
        int index = from;
        while (index < to && at <= end) {
            // unrolled for the short values most decimals are
            long result = bytes[at];
            if (result >= 0) {
                at++;
            }
            else {
                result &= 0x7F;
                long b = bytes[at + 1];
                if (b >= 0) {
                    result |= b << 7;
                    at += 2;
                }
                else {
                    result |= (b & 0x7F) << 7;
                    b = bytes[at + 2];
                    if (b >= 0) {
                        result |= b << 14;
                        at += 3;
                    }
                    else {
                        result |= (b & 0x7F) << 14;
                        int shift = 21;
                        int next = at + 3;
                        do {
                            b = bytes[next++];
                            result |= (b & 0x7F) << shift;
                            shift += 7;
                        }
                        while (b < 0 && shift < 63);
                        if (b < 0) {
                            // more than 63 bits: the slow path's
                            break;
                        }
                        at = next;
                    }
                }
            }
            small[index] = (result >>> 1) ^ -(result & 1);
            index++;
        }
        data.advance(at - start);
        return index;
    }

    private void readValue(int index)
    {
        long result = 0;
        for (int shift = 0; ; shift += 7) {
            int b = data.readByte();
            if (shift == 63) {
                // past 63 bits: continue in a BigInteger
                readLarge(index, result, b);
                return;
            }
            result |= (long) (b & 0x7F) << shift;
            if (b < 0x80) {
                small[index] = ProtobufReader.zigzag(result);
                return;
            }
        }
    }

    private void readLarge(int index, long low, int next)
    {
        BigInteger unsigned = BigInteger.valueOf(low);
        int shift = 63;
        int b = next;
        while (true) {
            unsigned = unsigned.or(BigInteger.valueOf(b & 0x7F).shiftLeft(shift));
            shift += 7;
            if (b < 0x80) {
                break;
            }
            if (shift >= 7 * 19) {
                throw new CorruptDataException("Decimal column " + name + " has a value longer than 128 bits");
            }
            b = data.readByte();
        }
        BigInteger value = unsigned.shiftRight(1);
        if (unsigned.testBit(0)) {
            value = value.not();
        }
        if (value.bitLength() <= 63) {
            small[index] = value.longValue();
        }
        else {
            large[index] = value;
            largeValues++;
        }
    }

    @Override
    void skipValues(long count)
    {
        // a value ends at a byte below 0x80: count those in the chunk's bytes
        long left = count;
        int continued = 0;
        while (left > 0) {
            int available = data.contiguous();
            if (available == 0) {
                data.readByte();
            }
            byte[] bytes = data.chunk();
            int start = data.chunkPosition();
            int end = start + available;
            int at = start;
            // 8 bytes at a time while they cannot end more values than are left: their bytes
            // below 0x80 end values, the bytes after the last of them continue the next one
            while (at <= end - 8 && left >= 8) {
                long terminators = ~(long) WORDS.get(bytes, at) & 0x8080808080808080L;
                if (terminators == 0) {
                    continued += 8;
                }
                else {
                    continued += Long.numberOfTrailingZeros(terminators) >>> 3;
                    if (continued > 19) {
                        break;
                    }
                    left -= Long.bitCount(terminators);
                    continued = Long.numberOfLeadingZeros(terminators) >>> 3;
                }
                if (continued > 19) {
                    // the byte-at-a-time loop below reports it
                    break;
                }
                at += 8;
            }
            while (at < end && left > 0) {
                if (bytes[at++] >= 0) {
                    left--;
                    continued = 0;
                }
                else if (++continued > 19) {
                    throw new CorruptDataException("Decimal column " + name + " has a value longer than 128 bits");
                }
            }
            data.advance(at - start);
        }
        scales.skip(count);
    }

    @Override
    void seekValues(PositionCursor positions, RowIndexes indexes, int group)
    {
        positions.seek(data);
        scales.seek(positions);
    }

    @Override
    long batchBytes()
    {
        return 24L * values + entries;
    }

    @Override
    void write(FieldVector vector, int slots, int[] slotOfEntry)
    {
        BaseFixedWidthVector fixed = (BaseFixedWidthVector) vector;
        VectorWrites.prepareFixed(fixed, slots);
        long validity = VectorWrites.validityAddress(fixed.getValidityBuffer(), slots);
        long address = VectorWrites.dataAddress(fixed.getDataBuffer(), 16L * slots);
        if (slotOfEntry == null) {
            // entry e in slot e: the validity of 8 slots is gathered and written as a byte
            int value = 0;
            for (int base = 0; base < entries; base += 8) {
                int end = Math.min(base + 8, entries);
                int bits = 0;
                for (int entry = base; entry < end; entry++) {
                    if (presence[entry] && writeValue(address + 16L * entry, value++)) {
                        bits |= 1 << (entry - base);
                    }
                }
                MemoryUtil.putByte(validity + (base >>> 3), (byte) bits);
            }
        }
        else {
            int value = 0;
            for (int entry = 0; entry < entries; entry++) {
                if (presence[entry]) {
                    long slot = slotOfEntry[entry];
                    if (writeValue(address + 16 * slot, value++)) {
                        VectorWrites.setValid(validity, slot);
                    }
                }
            }
        }
        fixed.setValueCount(slots);
    }

    /**
     * Writes value {@code index} at the requested scale to {@code at}; false where it reads as
     * null (too many digits for a precision).
     */
    private boolean writeValue(long at, int index)
    {
        long unscaled = small[index];
        long scale = valueScales[index];
        boolean isLarge = largeValues > 0 && large[index] != null;
        if (!isLarge) {
            if (scale == targetScale && fileScale == targetScale && fitsLong(unscaled)) {
                MemoryUtil.putLong(at, unscaled);
                MemoryUtil.putLong(at + 8, unscaled >> 63);
                return true;
            }
            if (scale >= 0 && scale <= fileScale && targetScale - scale < LONG_POWERS.length) {
                // scaled up (ORC's writer drops trailing zeros): exact in long arithmetic unless it overflows
                long factor = LONG_POWERS[(int) (targetScale - scale)];
                long scaled = unscaled * factor;
                if (Math.multiplyHigh(unscaled, factor) == scaled >> 63) {
                    if (!withinPrecisions(scaled)) {
                        return false;
                    }
                    MemoryUtil.putLong(at, scaled);
                    MemoryUtil.putLong(at + 8, scaled >> 63);
                    return true;
                }
            }
        }
        BigInteger rescaled = rescale(isLarge ? large[index] : BigInteger.valueOf(unscaled), scale);
        if (rescaled == null) {
            return false;
        }
        MemoryUtil.putLong(at, rescaled.longValue());
        MemoryUtil.putLong(at + 8, rescaled.shiftRight(64).longValue());
        return true;
    }

    private boolean fitsLong(long unscaled)
    {
        // within both precisions: a value beyond one reads as null, decided on the slow path
        int digits = fitDigits;
        return digits >= 19 || (unscaled != Long.MIN_VALUE && Math.abs(unscaled) < LONG_POWERS[digits]);
    }

    /**
     * Whether a value exactly scaled to the requested scale has at most the digits both the
     * file's type (its integer digits) and the requested type allow; it reads as null otherwise,
     * as on the slow path.
     */
    private boolean withinPrecisions(long unscaledAtTarget)
    {
        int digits = scaledDigits;
        return digits >= 19 || (unscaledAtTarget != Long.MIN_VALUE && Math.abs(unscaledAtTarget) < LONG_POWERS[digits]);
    }

    /**
     * The unscaled value at the requested scale, or null where ORC's reader or Paimon's cast
     * gives null (too many digits for the precision).
     */
    private BigInteger rescale(BigInteger unscaled, long scale)
    {
        if (scale < -76 || scale > 76) {
            throw new CorruptDataException("Decimal column " + name + " has a value of scale " + scale);
        }
        BigDecimal decimal = new BigDecimal(unscaled, (int) scale).setScale(fileScale, RoundingMode.HALF_UP);
        if (decimal.precision() - decimal.scale() > filePrecision - fileScale) {
            return null;
        }
        decimal = decimal.setScale(targetScale, RoundingMode.UNNECESSARY);
        if (decimal.unscaledValue().abs().compareTo(POWERS[targetPrecision]) >= 0) {
            return null;
        }
        return decimal.unscaledValue();
    }
}
