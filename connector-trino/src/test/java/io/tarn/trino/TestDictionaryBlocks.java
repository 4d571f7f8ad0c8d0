package io.tarn.trino;

import io.tarn.vector.reader.DictionaryIds;
import io.trino.spi.block.Block;
import io.trino.spi.block.DictionaryBlock;
import org.testng.annotations.Test;

import java.nio.charset.StandardCharsets;

import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link DictionaryBlocks}: every row reads back its dictionary value or null, one dictionary
 * block serves every batch of a row group, and a batch with a dictionary larger than itself
 * becomes a block of its values.
 */
public class TestDictionaryBlocks
{
    private static final byte[] BYTES = "AFNOR".getBytes(StandardCharsets.UTF_8);
    // "A", "F", "NO", "R", and a slack offset past the dictionary, as a reader's buffers have
    private static final int[] OFFSETS = {0, 1, 2, 4, 5, 99};

    @Test
    public void testRowsReadBackTheirValues()
    {
        DictionaryBlocks blocks = new DictionaryBlocks();
        int[] ids = {2, -1, 0, 3, 3, 1, -1, 7};
        Block block = blocks.toBlock(new DictionaryIds(BYTES, OFFSETS, 4, ids, 7));
        assertThat(block).isInstanceOf(DictionaryBlock.class);
        checkValues(block, "NO", null, "A", "R", "R", "F", null);
    }

    @Test
    public void testLargeDictionaryGivesTheValues()
    {
        // more dictionary values than rows: the values themselves, with and without nulls
        Block block = new DictionaryBlocks().toBlock(new DictionaryIds(BYTES, OFFSETS, 4, new int[] {2, -1, 3}, 3));
        assertThat(block).isNotInstanceOf(DictionaryBlock.class);
        checkValues(block, "NO", null, "R");
        Block noNulls = new DictionaryBlocks().toBlock(new DictionaryIds(BYTES, OFFSETS, 4, new int[] {1, 2, 0}, 3));
        assertThat(noNulls.mayHaveNull()).isFalse();
        checkValues(noNulls, "F", "NO", "A");
    }

    @Test
    public void testOneDictionaryPerRowGroup()
    {
        DictionaryBlocks blocks = new DictionaryBlocks();
        DictionaryBlock first = (DictionaryBlock) blocks.toBlock(new DictionaryIds(BYTES, OFFSETS, 4, new int[] {0, 1, 2, 3}, 4));
        DictionaryBlock second = (DictionaryBlock) blocks.toBlock(new DictionaryIds(BYTES, OFFSETS, 4, new int[] {3, 3, 3, 3, 3}, 5));
        assertThat(second.getDictionary()).isSameAs(first.getDictionary());
        // the next row group's dictionary arrays
        byte[] otherBytes = "xy".getBytes(StandardCharsets.UTF_8);
        DictionaryBlock third = (DictionaryBlock) blocks.toBlock(new DictionaryIds(otherBytes, new int[] {0, 1, 2}, 2, new int[] {1, 0}, 2));
        assertThat(third.getDictionary()).isNotSameAs(first.getDictionary());
        assertThat(VARCHAR.getSlice(third, 0).toStringUtf8()).isEqualTo("y");
    }

    private static void checkValues(Block block, String... expected)
    {
        assertThat(block.getPositionCount()).isEqualTo(expected.length);
        for (int row = 0; row < expected.length; row++) {
            if (expected[row] == null) {
                assertThat(block.isNull(row)).as("row %s", row).isTrue();
            }
            else {
                assertThat(block.isNull(row)).as("row %s", row).isFalse();
                assertThat(VARCHAR.getSlice(block, row).toStringUtf8()).as("row %s", row).isEqualTo(expected[row]);
            }
        }
    }
}
