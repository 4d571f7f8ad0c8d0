package io.tarn.vector.orc;

import io.tarn.vector.CorruptDataException;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static java.util.Objects.requireNonNull;

/**
 * BOOLEAN (a boolean stream), TINYINT (byte run-length), SMALLINT, INT, BIGINT and DATE (signed
 * integer run-length, version by the column's encoding) columns, and TIME, which Paimon writes as
 * an ORC INT of milliseconds. The values decode to longs and are written as the requested type:
 * the same or a wider integer, a floating-point number, a decimal, or text (Paimon's casts
 * after a column's type changed).
 */
final class LongColumnDecoder
        extends ColumnDecoder
{
    enum Source
    {
        BOOLEAN, BYTE, INTEGER
    }

    enum Target
    {
        BIT, INT8, INT16, INT32, INT64, FLOAT32, FLOAT64, DECIMAL, TEXT
    }

    private final Source source;
    private final Target target;
    // DECIMAL: the scale; TEXT: the length, negative for CHAR (padded)
    private final int parameter;
    private BooleanDecoder booleans;
    private ByteRleDecoder bytes;
    private IntegerDecoder integers;
    private long[] decoded = new long[0];
    private final byte[] scratch = new byte[1 << 12];

    LongColumnDecoder(int column, String name, Source source, Target target, int parameter)
    {
        super(column, name);
        this.source = requireNonNull(source, "source is null");
        this.target = requireNonNull(target, "target is null");
        this.parameter = parameter;
    }

    @Override
    void startValues(StripeStreams stripe)
    {
        DecompressedStream data = stripe.requiredStream(column, StripeFooter.Stream.DATA);
        booleans = null;
        bytes = null;
        integers = null;
        switch (source) {
            case BOOLEAN -> booleans = new BooleanDecoder(data);
            case BYTE -> bytes = new ByteRleDecoder(data);
            case INTEGER -> {
                StripeFooter.Encoding.Kind kind = stripe.encoding(column).kind();
                if (kind.isDictionary()) {
                    throw new CorruptDataException("Integer column " + name + " has dictionary encoding " + kind);
                }
                integers = IntegerDecoder.create(data, true, kind.isV2());
            }
        }
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
        switch (source) {
            case BOOLEAN -> {
                for (int i = 0; i < count; i++) {
                    decoded[values + i] = booleans.next() ? 1 : 0;
                }
            }
            case BYTE -> {
                int done = 0;
                while (done < count) {
                    int n = Math.min(count - done, scratch.length);
                    bytes.next(scratch, 0, n);
                    for (int i = 0; i < n; i++) {
                        decoded[values + done + i] = scratch[i];
                    }
                    done += n;
                }
            }
            case INTEGER -> integers.next(decoded, values, count);
        }
    }

    @Override
    void skipValues(long count)
    {
        switch (source) {
            case BOOLEAN -> booleans.skip(count);
            case BYTE -> bytes.skip(count);
            case INTEGER -> integers.skip(count);
        }
    }

    @Override
    void seekValues(PositionCursor positions, RowIndexes indexes, int group)
    {
        switch (source) {
            case BOOLEAN -> booleans.seek(positions);
            case BYTE -> bytes.seek(positions);
            case INTEGER -> integers.seek(positions);
        }
    }

    @Override
    long batchBytes()
    {
        return 8L * values + entries;
    }

    @Override
    void write(FieldVector vector, int slots, int[] slotOfEntry)
    {
        if (target == Target.TEXT) {
            writeText((BaseVariableWidthVector) vector, slots, slotOfEntry);
            return;
        }
        BaseFixedWidthVector fixed = (BaseFixedWidthVector) vector;
        if (target == Target.BIT) {
            VectorWrites.prepareBits(fixed, slots);
        }
        else {
            VectorWrites.prepareFixed(fixed, slots);
        }
        if (slotOfEntry == null && (target == Target.INT32 || target == Target.INT64)) {
            // entry e goes to slot e: the validity by whole bytes, the values in one tight loop
            if (hasNulls) {
                VectorWrites.setValidity(fixed.getValidityBuffer(), presence, entries);
            }
            else {
                VectorWrites.setAllValid(fixed.getValidityBuffer(), entries);
            }
            if (target == Target.INT64) {
                writeLongs(VectorWrites.dataAddress(fixed.getDataBuffer(), 8L * slots));
            }
            else {
                writeInts(VectorWrites.dataAddress(fixed.getDataBuffer(), 4L * slots));
            }
            fixed.setValueCount(slots);
            return;
        }
        long validity = VectorWrites.validityAddress(fixed.getValidityBuffer(), slots);
        ArrowBuf data = fixed.getDataBuffer();
        long address = data.memoryAddress();
        BigInteger scaleFactor = target == Target.DECIMAL ? BigInteger.TEN.pow(parameter) : null;
        int value = 0;
        for (int entry = 0; entry < entries; entry++) {
            if (!presence[entry]) {
                continue;
            }
            long slot = slot(slotOfEntry, entry);
            long v = decoded[value++];
            VectorWrites.setValid(validity, slot);
            switch (target) {
                case BIT -> {
                    if (v != 0) {
                        BitVectorHelper.setBit(data, slot);
                    }
                }
                case INT8 -> MemoryUtil.putByte(address + slot, (byte) checkRange(v, Byte.MIN_VALUE, Byte.MAX_VALUE));
                case INT16 -> MemoryUtil.putShort(address + 2 * slot, (short) checkRange(v, Short.MIN_VALUE, Short.MAX_VALUE));
                case INT32 -> MemoryUtil.putInt(address + 4 * slot, (int) checkRange(v, Integer.MIN_VALUE, Integer.MAX_VALUE));
                case INT64 -> MemoryUtil.putLong(address + 8 * slot, v);
                case FLOAT32 -> MemoryUtil.putInt(address + 4 * slot, Float.floatToRawIntBits((float) v));
                case FLOAT64 -> MemoryUtil.putLong(address + 8 * slot, Double.doubleToRawLongBits((double) v));
                case DECIMAL -> {
                    BigInteger unscaled = BigInteger.valueOf(v).multiply(scaleFactor);
                    MemoryUtil.putLong(address + 16 * slot, unscaled.longValue());
                    MemoryUtil.putLong(address + 16 * slot + 8, unscaled.shiftRight(64).longValue());
                }
                default -> throw new IllegalStateException("Unexpected target " + target);
            }
        }
        fixed.setValueCount(slots);
    }

    private void writeLongs(long address)
    {
        if (!hasNulls) {
            for (int i = 0; i < values; i++) {
                MemoryUtil.putLong(address + 8L * i, decoded[i]);
            }
            return;
        }
        int value = 0;
        for (int entry = 0; entry < entries; entry++) {
            if (presence[entry]) {
                MemoryUtil.putLong(address + 8L * entry, decoded[value++]);
            }
        }
    }

    private void writeInts(long address)
    {
        if (!hasNulls) {
            for (int i = 0; i < values; i++) {
                long v = decoded[i];
                if (v != (int) v) {
                    checkRange(v, Integer.MIN_VALUE, Integer.MAX_VALUE);
                }
                MemoryUtil.putInt(address + 4L * i, (int) v);
            }
            return;
        }
        int value = 0;
        for (int entry = 0; entry < entries; entry++) {
            if (presence[entry]) {
                long v = decoded[value++];
                if (v != (int) v) {
                    checkRange(v, Integer.MIN_VALUE, Integer.MAX_VALUE);
                }
                MemoryUtil.putInt(address + 4L * entry, (int) v);
            }
        }
    }

    private long checkRange(long value, long min, long max)
    {
        // the file's type is never wider than the requested one, so only a broken file gets here
        if (value < min || value > max) {
            throw new CorruptDataException("Column " + name + " holds " + value + ", outside its type");
        }
        return value;
    }

    private void writeText(BaseVariableWidthVector vector, int slots, int[] slotOfEntry)
    {
        int length = Math.abs(parameter);
        boolean pad = parameter < 0;
        byte[][] texts = new byte[values][];
        long bytes = 0;
        for (int i = 0; i < values; i++) {
            String text = Long.toString(decoded[i]);
            if (text.length() > length) {
                text = text.substring(0, length);
            }
            byte[] encoded = text.getBytes(StandardCharsets.US_ASCII);
            if (pad && encoded.length < length) {
                byte[] padded = Arrays.copyOf(encoded, length);
                Arrays.fill(padded, encoded.length, length, (byte) ' ');
                encoded = padded;
            }
            texts[i] = encoded;
            bytes += encoded.length;
        }
        TextWrites.write(vector, slots, slotOfEntry, entries, presence, texts, bytes);
    }
}
