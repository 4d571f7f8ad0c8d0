package io.tarn.vector;

import org.apache.parquet.format.Type;

/**
 * RLE_DICTIONARY / PLAIN_DICTIONARY data: one byte bit width, then RLE / bit-packed dictionary
 * ids. Ids are decoded in bulk and then gathered from the decoded dictionary.
 */
final class DictionaryDecoder
        implements ValuesDecoder
{
    private final ValueBuffer dictionary;
    private final Type type;
    private final RleBitPackedDecoder ids;
    private int[] scratch = new int[0];

    DictionaryDecoder(ValueBuffer dictionary, Type type, byte[] data, int offset, int end)
    {
        if (end <= offset) {
            throw new CorruptDataException("Dictionary-encoded page has no bit width");
        }
        this.dictionary = dictionary;
        this.type = type;
        this.ids = new RleBitPackedDecoder(data, offset + 1, end - offset - 1, data[offset] & 0xFF);
    }

    @Override
    public void read(ValueBuffer out, int count)
    {
        if (scratch.length < count) {
            scratch = new int[ValueBuffer.grow(scratch.length, count)];
        }
        int[] idArray = scratch;
        ids.read(idArray, 0, count);
        int size = dictionary.count;
        for (int i = 0; i < count; i++) {
            if (Integer.compareUnsigned(idArray[i], size) >= 0) {
                throw new CorruptDataException("Dictionary id " + idArray[i] + " is outside the dictionary of " + size + " values");
            }
        }
        int base = out.count;
        switch (type) {
            case BOOLEAN, INT32, FLOAT -> {
                int[] target = out.ints(count);
                int[] values = dictionary.ints;
                for (int i = 0; i < count; i++) {
                    target[base + i] = values[idArray[i]];
                }
            }
            case INT64, DOUBLE, INT96 -> {
                long[] target = out.longs(count);
                long[] values = dictionary.longs;
                for (int i = 0; i < count; i++) {
                    target[base + i] = values[idArray[i]];
                }
            }
            case BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY -> {
                int[] dictionaryOffsets = dictionary.offsets;
                long total = 0;
                for (int i = 0; i < count; i++) {
                    total += dictionaryOffsets[idArray[i] + 1] - dictionaryOffsets[idArray[i]];
                }
                if (total > Integer.MAX_VALUE - 16) {
                    throw new CorruptDataException("Decoded binary values exceed 2 GB in one batch");
                }
                int[] offsets = out.offsets(count);
                byte[] target = out.bytes((int) total);
                byte[] source = dictionary.bytes;
                int write = offsets[base];
                for (int i = 0; i < count; i++) {
                    int start = dictionaryOffsets[idArray[i]];
                    int length = dictionaryOffsets[idArray[i] + 1] - start;
                    System.arraycopy(source, start, target, write, length);
                    write += length;
                    offsets[base + i + 1] = write;
                }
            }
        }
        out.count += count;
    }

    @Override
    public void skip(int count)
    {
        ids.skip(count);
    }
}
