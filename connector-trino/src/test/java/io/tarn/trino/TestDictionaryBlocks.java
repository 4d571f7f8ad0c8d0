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
 * block serves every batch of a row group, and a dictionary larger than the batch is left to the
 * flat copy.
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
        Block block = blocks.toBlock(new DictionaryIds(BYTES, OFFSETS, 4, ids, 7)).orElseThrow();
        assertThat(block).isInstanceOf(DictionaryBlock.class);
        assertThat(block.getPositionCount()).isEqualTo(7);
        String[] expected = {"NO", null, "A", "R", "R", "F", null};
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

    @Test
    public void testOneDictionaryPerRowGroup()
    {
        DictionaryBlocks blocks = new DictionaryBlocks();
        DictionaryBlock first = (DictionaryBlock) blocks.toBlock(new DictionaryIds(BYTES, OFFSETS, 4, new int[] {0, 1, 2, 3}, 4)).orElseThrow();
        DictionaryBlock second = (DictionaryBlock) blocks.toBlock(new DictionaryIds(BYTES, OFFSETS, 4, new int[] {3, 3, 3, 3, 3}, 5)).orElseThrow();
        assertThat(second.getDictionary()).isSameAs(first.getDictionary());
        // the next row group's dictionary arrays
        byte[] otherBytes = "xy".getBytes(StandardCharsets.UTF_8);
        DictionaryBlock third = (DictionaryBlock) blocks.toBlock(new DictionaryIds(otherBytes, new int[] {0, 1, 2}, 2, new int[] {1, 0}, 2)).orElseThrow();
        assertThat(third.getDictionary()).isNotSameAs(first.getDictionary());
        assertThat(VARCHAR.getSlice(third, 0).toStringUtf8()).isEqualTo("y");
    }

    @Test
    public void testLargeDictionaryIsLeftToTheFlatCopy()
    {
        assertThat(new DictionaryBlocks().toBlock(new DictionaryIds(BYTES, OFFSETS, 4, new int[] {0, 1, 2}, 3))).isEmpty();
    }
}
