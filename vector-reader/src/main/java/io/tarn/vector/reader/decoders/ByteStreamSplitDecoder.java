package io.tarn.vector.reader.decoders;

import io.tarn.vector.CorruptDataException;
import org.apache.parquet.format.Type;

/**
 * BYTE_STREAM_SPLIT: for N values of W bytes, W streams of N bytes, stream k holding byte k of
 * every value. N is the page data size divided by W.
 */
final class ByteStreamSplitDecoder
        implements ValuesDecoder
{
    private final byte[] data;
    private final int offset;
    private final int width;
    private final int valueCount;
    private final Type type;
    private int index;

    ByteStreamSplitDecoder(Type type, int typeLength, byte[] data, int offset, int end)
    {
        this.width = switch (type) {
            case INT32, FLOAT -> 4;
            case INT64, DOUBLE -> 8;
            case FIXED_LEN_BYTE_ARRAY -> typeLength;
            default -> throw new CorruptDataException("BYTE_STREAM_SPLIT is not defined for " + type);
        };
        if (width <= 0 || (end - offset) % width != 0) {
            throw new CorruptDataException("BYTE_STREAM_SPLIT data of " + (end - offset) + " bytes is not a multiple of the value width " + width);
        }
        this.type = type;
        this.data = data;
        this.offset = offset;
        this.valueCount = (end - offset) / width;
    }

    @Override
    public void read(ValueBuffer out, int count)
    {
        check(count);
        int base = out.count;
        switch (type) {
            case INT32, FLOAT -> {
                int[] target = out.ints(count);
                for (int i = 0; i < count; i++) {
                    int at = offset + index + i;
                    target[base + i] = (data[at] & 0xFF)
                            | (data[at + valueCount] & 0xFF) << 8
                            | (data[at + 2 * valueCount] & 0xFF) << 16
                            | (data[at + 3 * valueCount] & 0xFF) << 24;
                }
            }
            case INT64, DOUBLE -> {
                long[] target = out.longs(count);
                for (int i = 0; i < count; i++) {
                    int at = offset + index + i;
                    long value = 0;
                    for (int k = 0; k < 8; k++) {
                        value |= (long) (data[at + k * valueCount] & 0xFF) << (8 * k);
                    }
                    target[base + i] = value;
                }
            }
            default -> {
                int[] offsets = out.offsets(count);
                byte[] target = out.bytes(width * count);
                int write = offsets[base];
                for (int i = 0; i < count; i++) {
                    int at = offset + index + i;
                    for (int k = 0; k < width; k++) {
                        target[write + k] = data[at + k * valueCount];
                    }
                    write += width;
                    offsets[base + i + 1] = write;
                }
            }
        }
        index += count;
        out.count += count;
    }

    @Override
    public void readSelected(ValueBuffer out, int count, long[] selected)
    {
        int start = out.count;
        read(out, count);
        switch (type) {
            case INT32, FLOAT -> out.retainInts(start, count, selected);
            case INT64, DOUBLE -> out.retainLongs(start, count, selected);
            default -> out.retainBinary(start, count, selected);
        }
    }

    @Override
    public void skip(int count)
    {
        check(count);
        index += count;
    }

    private void check(int count)
    {
        if (count > valueCount - index) {
            throw new CorruptDataException("BYTE_STREAM_SPLIT data holds only " + valueCount + " values");
        }
    }
}
