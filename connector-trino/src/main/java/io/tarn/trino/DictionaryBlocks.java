package io.tarn.trino;

import io.airlift.slice.Slices;
import io.tarn.vector.reader.DictionaryIds;
import io.trino.spi.block.Bitmap;
import io.trino.spi.block.Block;
import io.trino.spi.block.DictionaryBlock;
import io.trino.spi.block.VariableWidthBlock;

import java.util.Arrays;
import java.util.Optional;

/**
 * Hands a string or binary column whose batch was decoded from one Parquet dictionary to Trino
 * as a {@link DictionaryBlock}: the dictionary becomes one block per row group, with a null entry
 * at its end, and each batch only an int per row. Trino's group-by then works on the few
 * dictionary values (TPC-H Q1's GROUP BY of two flags hashes six combinations per page instead
 * of every row), and no string bytes are copied per batch. One instance serves one page source.
 */
final class DictionaryBlocks
{
    private byte[] lastBytes;
    private int[] lastOffsets;
    private Block lastDictionary;

    /**
     * The batch's values: a dictionary block, or, when its dictionary has more values than the
     * batch has rows (a large dictionary would cost Trino more to carry than the values), a
     * block of the values the ids name.
     */
    Block toBlock(DictionaryIds ids)
    {
        int rows = ids.rows();
        if (ids.dictionarySize() > rows) {
            return valuesBlock(ids);
        }
        Block dictionary = dictionary(ids);
        int nullId = ids.dictionarySize();
        int[] source = ids.ids();
        int[] positions = new int[rows];
        for (int row = 0; row < rows; row++) {
            int id = source[row];
            positions[row] = id < 0 ? nullId : id;
        }
        return DictionaryBlock.create(rows, dictionary, positions);
    }

    private static Block valuesBlock(DictionaryIds ids)
    {
        int rows = ids.rows();
        int[] source = ids.ids();
        int[] dictionaryOffsets = ids.dictionaryOffsets();
        int[] offsets = new int[rows + 1];
        long[] valid = Bitmap.allocateWords(rows, false);
        boolean anyNull = false;
        for (int row = 0; row < rows; row++) {
            int id = source[row];
            int length = 0;
            if (id < 0) {
                anyNull = true;
            }
            else {
                length = dictionaryOffsets[id + 1] - dictionaryOffsets[id];
                Bitmap.set(valid, 0, row);
            }
            offsets[row + 1] = offsets[row] + length;
        }
        byte[] bytes = new byte[offsets[rows]];
        for (int row = 0; row < rows; row++) {
            int id = source[row];
            if (id >= 0) {
                System.arraycopy(ids.dictionaryBytes(), dictionaryOffsets[id], bytes, offsets[row], offsets[row + 1] - offsets[row]);
            }
        }
        return new VariableWidthBlock(rows, Slices.wrappedBuffer(bytes), offsets, anyNull ? Optional.of(valid) : Optional.empty());
    }

    private Block dictionary(DictionaryIds ids)
    {
        // the reader keeps a row group's dictionary arrays unchanged for all its batches
        if (ids.dictionaryBytes() != lastBytes || ids.dictionaryOffsets() != lastOffsets) {
            int size = ids.dictionarySize();
            int[] offsets = Arrays.copyOf(ids.dictionaryOffsets(), size + 2);
            offsets[size + 1] = offsets[size];
            byte[] bytes = Arrays.copyOf(ids.dictionaryBytes(), offsets[size]);
            // every entry valid but the last
            long[] valid = Bitmap.allocateWords(size + 1, false);
            Bitmap.setBits(valid, 0, 0, size);
            lastDictionary = new VariableWidthBlock(size + 1, Slices.wrappedBuffer(bytes), offsets, Optional.of(valid));
            lastBytes = ids.dictionaryBytes();
            lastOffsets = ids.dictionaryOffsets();
        }
        return lastDictionary;
    }
}
