package io.tarn.vector.orc;

import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * FLOAT and DOUBLE columns: IEEE 754 values, 4 or 8 bytes little-endian each, written as FLOAT,
 * DOUBLE or text (Java's {@code toString}, as Paimon casts). The bits are kept as they are, so NaN
 * payloads and the sign of zero survive.
 */
final class DoubleColumnDecoder
        extends ColumnDecoder
{
    enum Target
    {
        FLOAT32, FLOAT64, TEXT
    }

    private final boolean single;
    private final Target target;
    // TEXT: the length, negative for CHAR (padded)
    private final int length;
    private DecompressedStream data;
    // the raw bits: float bits for FLOAT columns, double bits for DOUBLE columns
    private long[] decoded = new long[0];
    private final byte[] scratch = new byte[8 * 1024];

    DoubleColumnDecoder(int column, String name, boolean single, Target target, int length)
    {
        super(column, name);
        this.single = single;
        this.target = target;
        this.length = length;
    }

    @Override
    void startValues(StripeStreams stripe)
    {
        data = stripe.requiredStream(column, StripeFooter.Stream.DATA);
    }

    @Override
    void clearValues()
    {
    }

    @Override
    void readValues(int count)
    {
        if (decoded.length < values + count) {
            decoded = Arrays.copyOf(decoded, grow(decoded.length, values + count));
        }
        int width = single ? 4 : 8;
        int perRead = scratch.length / width;
        int done = 0;
        while (done < count) {
            int n = Math.min(count - done, perRead);
            data.readFully(scratch, 0, n * width);
            for (int i = 0; i < n; i++) {
                long bits = 0;
                for (int b = width - 1; b >= 0; b--) {
                    bits = (bits << 8) | (scratch[i * width + b] & 0xFF);
                }
                decoded[values + done + i] = bits;
            }
            done += n;
        }
    }

    @Override
    void skipValues(long count)
    {
        data.skip(Math.multiplyExact(count, single ? 4L : 8L));
    }

    @Override
    void seekValues(PositionCursor positions, RowIndexes indexes, int group)
    {
        positions.seek(data);
    }

    @Override
    long batchBytes()
    {
        return 8L * values + entries;
    }

    private double doubleValue(long bits)
    {
        return single ? Float.intBitsToFloat((int) bits) : Double.longBitsToDouble(bits);
    }

    @Override
    void write(FieldVector vector, int slots, int[] slotOfEntry)
    {
        if (target == Target.TEXT) {
            writeText((BaseVariableWidthVector) vector, slots, slotOfEntry);
            return;
        }
        BaseFixedWidthVector fixed = (BaseFixedWidthVector) vector;
        VectorWrites.prepareFixed(fixed, slots);
        long validity = VectorWrites.validityAddress(fixed.getValidityBuffer(), slots);
        long address = fixed.getDataBuffer().memoryAddress();
        int value = 0;
        for (int entry = 0; entry < entries; entry++) {
            if (!presence[entry]) {
                continue;
            }
            long slot = slot(slotOfEntry, entry);
            long bits = decoded[value++];
            VectorWrites.setValid(validity, slot);
            if (target == Target.FLOAT32) {
                // only FLOAT columns are read as FLOAT
                MemoryUtil.putInt(address + 4 * slot, (int) bits);
            }
            else {
                MemoryUtil.putLong(address + 8 * slot, single ? Double.doubleToRawLongBits(Float.intBitsToFloat((int) bits)) : bits);
            }
        }
        fixed.setValueCount(slots);
    }

    private void writeText(BaseVariableWidthVector vector, int slots, int[] slotOfEntry)
    {
        int maxLength = Math.abs(length);
        boolean pad = length < 0;
        byte[][] texts = new byte[values][];
        long total = 0;
        for (int i = 0; i < values; i++) {
            String text = single ? Float.toString((float) doubleValue(decoded[i])) : Double.toString(doubleValue(decoded[i]));
            if (text.length() > maxLength) {
                text = text.substring(0, maxLength);
            }
            byte[] encoded = text.getBytes(StandardCharsets.US_ASCII);
            if (pad && encoded.length < maxLength) {
                byte[] padded = Arrays.copyOf(encoded, maxLength);
                Arrays.fill(padded, encoded.length, maxLength, (byte) ' ');
                encoded = padded;
            }
            texts[i] = encoded;
            total += encoded.length;
        }
        TextWrites.write(vector, slots, slotOfEntry, entries, presence, texts, total);
    }
}
