package io.tarn.vector.reader.decoders;

import io.tarn.vector.CorruptDataException;
import org.apache.parquet.format.Type;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * PLAIN decoders, one per physical type: fixed-width little-endian values back to back,
 * BOOLEAN bit-packed LSB first, BYTE_ARRAY as int32 length + bytes, INT96 as 8-byte nanos of day
 * + 4-byte Julian day (converted to epoch nanoseconds).
 */
final class PlainDecoders
{
    static final long JULIAN_EPOCH_DAY = 2_440_588;
    static final long NANOS_PER_DAY = 86_400_000_000_000L;
    // from this many values on, fixed-width values are copied through a buffer view in bulk
    private static final int BULK = 32;

    private PlainDecoders() {}

    static ValuesDecoder create(Type type, int typeLength, byte[] data, int offset, int end)
    {
        return switch (type) {
            case BOOLEAN -> new BooleanDecoder(data, offset, end);
            case INT32, FLOAT -> new IntDecoder(data, offset, end);
            case INT64, DOUBLE -> new LongDecoder(data, offset, end);
            case INT96 -> new Int96Decoder(data, offset, end);
            case BYTE_ARRAY -> new BinaryDecoder(data, offset, end);
            case FIXED_LEN_BYTE_ARRAY -> new FixedDecoder(data, offset, end, typeLength);
        };
    }

    static long int96ToEpochNanos(byte[] data, int offset)
    {
        long nanosOfDay = ByteArrays.longLE(data, offset);
        long julianDay = Integer.toUnsignedLong(ByteArrays.intLE(data, offset + 8));
        long epochDay = julianDay - JULIAN_EPOCH_DAY;
        try {
            // before 1970 count from the next day down: the first day of the range (1677-09-21)
            // overflows at its midnight, though its later nanoseconds fit
            return epochDay < 0
                    ? Math.addExact(Math.multiplyExact(epochDay + 1, NANOS_PER_DAY), nanosOfDay - NANOS_PER_DAY)
                    : Math.addExact(Math.multiplyExact(epochDay, NANOS_PER_DAY), nanosOfDay);
        }
        catch (ArithmeticException e) {
            throw new CorruptDataException("INT96 timestamp (Julian day " + julianDay + ") is outside the range of epoch nanoseconds");
        }
    }

    private static void checkAvailable(int position, int end, long needed)
    {
        if (needed > end - position) {
            throw new CorruptDataException("PLAIN data ends early: " + needed + " bytes needed, " + (end - position) + " left");
        }
    }

    private static final class IntDecoder
            implements ValuesDecoder
    {
        private final byte[] data;
        private final int end;
        private int position;

        IntDecoder(byte[] data, int offset, int end)
        {
            this.data = data;
            this.position = offset;
            this.end = end;
        }

        @Override
        public void read(ValueBuffer out, int count)
        {
            checkAvailable(position, end, 4L * count);
            int[] target = out.ints(count);
            int base = out.count;
            int pos = position;
            if (count >= BULK) {
                ByteBuffer.wrap(data, pos, 4 * count).slice().order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(target, base, count);
                pos += 4 * count;
            }
            else {
                for (int i = 0; i < count; i++) {
                    target[base + i] = ByteArrays.intLE(data, pos);
                    pos += 4;
                }
            }
            position = pos;
            out.count += count;
        }

        @Override
        public void readSelected(ValueBuffer out, int count, long[] selected)
        {
            checkAvailable(position, end, 4L * count);
            int[] target = out.ints(count);
            int write = out.count;
            int pos = position;
            // every value is copied, the write position advancing by its bit (see SelectionMasks.compact)
            for (int first = 0; first < count; first += 64) {
                long word = selected[first >>> 6];
                int n = Math.min(64, count - first);
                int at = pos + 4 * first;
                for (int i = 0; i < n; i++) {
                    target[write] = ByteArrays.intLE(data, at + 4 * i);
                    write += (int) (word >>> i) & 1;
                }
            }
            position = pos + 4 * count;
            out.count = write;
        }

        @Override
        public void skip(int count)
        {
            checkAvailable(position, end, 4L * count);
            position += 4 * count;
        }
    }

    private static final class LongDecoder
            implements ValuesDecoder
    {
        private final byte[] data;
        private final int end;
        private int position;

        LongDecoder(byte[] data, int offset, int end)
        {
            this.data = data;
            this.position = offset;
            this.end = end;
        }

        @Override
        public void read(ValueBuffer out, int count)
        {
            checkAvailable(position, end, 8L * count);
            long[] target = out.longs(count);
            int base = out.count;
            int pos = position;
            if (count >= BULK) {
                ByteBuffer.wrap(data, pos, 8 * count).slice().order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(target, base, count);
                pos += 8 * count;
            }
            else {
                for (int i = 0; i < count; i++) {
                    target[base + i] = ByteArrays.longLE(data, pos);
                    pos += 8;
                }
            }
            position = pos;
            out.count += count;
        }

        @Override
        public void readSelected(ValueBuffer out, int count, long[] selected)
        {
            checkAvailable(position, end, 8L * count);
            long[] target = out.longs(count);
            int write = out.count;
            int pos = position;
            for (int first = 0; first < count; first += 64) {
                long word = selected[first >>> 6];
                int n = Math.min(64, count - first);
                int at = pos + 8 * first;
                for (int i = 0; i < n; i++) {
                    target[write] = ByteArrays.longLE(data, at + 8 * i);
                    write += (int) (word >>> i) & 1;
                }
            }
            position = pos + 8 * count;
            out.count = write;
        }

        @Override
        public void skip(int count)
        {
            checkAvailable(position, end, 8L * count);
            position += 8 * count;
        }
    }

    private static final class Int96Decoder
            implements ValuesDecoder
    {
        private final byte[] data;
        private final int end;
        private int position;

        Int96Decoder(byte[] data, int offset, int end)
        {
            this.data = data;
            this.position = offset;
            this.end = end;
        }

        @Override
        public void read(ValueBuffer out, int count)
        {
            checkAvailable(position, end, 12L * count);
            long[] target = out.longs(count);
            int base = out.count;
            for (int i = 0; i < count; i++) {
                target[base + i] = int96ToEpochNanos(data, position);
                position += 12;
            }
            out.count += count;
        }

        @Override
        public void readSelected(ValueBuffer out, int count, long[] selected)
        {
            int start = out.count;
            read(out, count);
            out.retainLongs(start, count, selected);
        }

        @Override
        public void skip(int count)
        {
            checkAvailable(position, end, 12L * count);
            position += 12 * count;
        }
    }

    private static final class BooleanDecoder
            implements ValuesDecoder
    {
        private final byte[] data;
        private final int start;
        private final long bitEnd;
        private long bit;

        BooleanDecoder(byte[] data, int offset, int end)
        {
            this.data = data;
            this.start = offset;
            this.bitEnd = (long) (end - offset) * 8;
        }

        @Override
        public void read(ValueBuffer out, int count)
        {
            if (count > bitEnd - bit) {
                throw new CorruptDataException("PLAIN booleans end early");
            }
            int[] target = out.ints(count);
            int base = out.count;
            for (int i = 0; i < count; i++) {
                long b = bit + i;
                target[base + i] = (data[start + (int) (b >>> 3)] >>> (b & 7)) & 1;
            }
            bit += count;
            out.count += count;
        }

        @Override
        public void readSelected(ValueBuffer out, int count, long[] selected)
        {
            int start = out.count;
            read(out, count);
            out.retainInts(start, count, selected);
        }

        @Override
        public void skip(int count)
        {
            if (count > bitEnd - bit) {
                throw new CorruptDataException("PLAIN booleans end early");
            }
            bit += count;
        }
    }

    private static final class BinaryDecoder
            implements ValuesDecoder
    {
        private final byte[] data;
        private final int end;
        private int position;

        BinaryDecoder(byte[] data, int offset, int end)
        {
            this.data = data;
            this.position = offset;
            this.end = end;
        }

        @Override
        public void read(ValueBuffer out, int count)
        {
            // the values of the rest of the page fit in its remaining bytes: the target grows once
            int[] offsets = out.offsets(count);
            byte[] target = out.bytes(end - position + ByteArrays.COPY_SLACK);
            int base = out.count;
            int write = offsets[base];
            int pos = position;
            byte[] source = data;
            for (int i = 0; i < count; i++) {
                int length = nextLength(pos);
                pos += 4;
                ByteArrays.copy(source, pos, target, write, length);
                pos += length;
                write += length;
                offsets[base + i + 1] = write;
            }
            position = pos;
            out.count += count;
        }

        @Override
        public void match(ValueMatcher matcher, int count, MatchBits out)
        {
            // compared where they lie in the page: nothing is copied
            long[] verdicts = out.reserve(count);
            int bit = out.count;
            int pos = position;
            for (int i = 0; i < count; i++) {
                int length = nextLength(pos);
                if (matcher.matches(data, pos + 4, length)) {
                    verdicts[bit >>> 6] |= 1L << bit;
                }
                bit++;
                pos += 4 + length;
            }
            out.count = bit;
            position = pos;
        }

        @Override
        public void matchSelected(ValueMatcher matcher, int count, long[] selected, MatchBits out)
        {
            int pos = position;
            for (int i = 0; i < count; i++) {
                int length = nextLength(pos);
                if ((selected[i >>> 6] & (1L << i)) != 0) {
                    out.add(matcher.matches(data, pos + 4, length));
                }
                pos += 4 + length;
            }
            position = pos;
        }

        /**
         * The length of the value whose length prefix is at {@code pos}, checked against the page.
         */
        private int nextLength(int pos)
        {
            if (pos > end - 4) {
                throw new CorruptDataException("PLAIN data ends early: 4 bytes needed, " + (end - pos) + " left");
            }
            int length = ByteArrays.intLE(data, pos);
            if (length < 0 || length > end - pos - 4) {
                throw new CorruptDataException("PLAIN binary length " + length + " exceeds the page");
            }
            return length;
        }

        @Override
        public void readSelected(ValueBuffer out, int count, long[] selected)
        {
            // every length is read to find the next value; only the selected values' bytes are copied
            int[] offsets = out.offsets(count);
            byte[] target = out.bytes(end - position + ByteArrays.COPY_SLACK);
            int value = out.count;
            int write = offsets[value];
            int pos = position;
            byte[] source = data;
            for (int i = 0; i < count; i++) {
                int length = nextLength(pos);
                pos += 4;
                if ((selected[i >>> 6] & (1L << i)) != 0) {
                    ByteArrays.copy(source, pos, target, write, length);
                    write += length;
                    offsets[++value] = write;
                }
                pos += length;
            }
            position = pos;
            out.count = value;
        }

        @Override
        public void skip(int count)
        {
            // only the lengths are read
            int pos = position;
            for (int i = 0; i < count; i++) {
                pos += 4 + nextLength(pos);
            }
            position = pos;
        }
    }

    private static final class FixedDecoder
            implements ValuesDecoder
    {
        private final byte[] data;
        private final int end;
        private final int width;
        private int position;

        FixedDecoder(byte[] data, int offset, int end, int width)
        {
            if (width <= 0) {
                throw new CorruptDataException("Invalid FIXED_LEN_BYTE_ARRAY length " + width);
            }
            this.data = data;
            this.position = offset;
            this.end = end;
            this.width = width;
        }

        @Override
        public void read(ValueBuffer out, int count)
        {
            long total = (long) width * count;
            checkAvailable(position, end, total);
            int[] offsets = out.offsets(count);
            byte[] target = out.bytes((int) total);
            int base = out.count;
            int write = offsets[base];
            System.arraycopy(data, position, target, write, (int) total);
            for (int i = 0; i < count; i++) {
                write += width;
                offsets[base + i + 1] = write;
            }
            position += (int) total;
            out.count += count;
        }

        @Override
        public void readSelected(ValueBuffer out, int count, long[] selected)
        {
            long total = (long) width * count;
            checkAvailable(position, end, total);
            int[] offsets = out.offsets(count);
            byte[] target = out.bytes((int) total);
            int value = out.count;
            int write = offsets[value];
            for (int w = 0; w < SelectionMasks.words(count); w++) {
                long word = selected[w];
                int first = w << 6;
                while (word != 0) {
                    System.arraycopy(data, position + width * (first + Long.numberOfTrailingZeros(word)), target, write, width);
                    write += width;
                    offsets[++value] = write;
                    word &= word - 1;
                }
            }
            position += (int) total;
            out.count = value;
        }

        @Override
        public void skip(int count)
        {
            long total = (long) width * count;
            checkAvailable(position, end, total);
            position += (int) total;
        }
    }
}
