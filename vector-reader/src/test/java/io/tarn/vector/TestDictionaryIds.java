package io.tarn.vector;

import io.tarn.types.DataField;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.roaringbitmap.RoaringBitmap;
import org.testng.annotations.AfterClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ParquetReader#dictionaryIds(int)} on files Apache Paimon wrote: the ids of a
 * low-cardinality column with nulls give back every value of every batch, with and without row
 * selections, and a column whose dictionary overflows into plain pages has none for the batches
 * that hold plain values.
 */
public class TestDictionaryIds
{
    private static final int ROWS = 5000;
    private static final RowType ROW_TYPE = new RowType(List.of(
            new org.apache.paimon.types.DataField(0, "id", DataTypes.BIGINT().notNull()),
            new org.apache.paimon.types.DataField(1, "flag", DataTypes.STRING()),
            new org.apache.paimon.types.DataField(2, "token", DataTypes.STRING())));

    private final RootAllocator allocator = new RootAllocator();
    private final List<DataField> fields = ParquetTestFiles.tarnFields(ROW_TYPE);

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        assertThat(allocator.getAllocatedMemory()).isEqualTo(0);
        allocator.close();
    }

    @Test
    public void testIdsGiveBackTheValues()
            throws IOException
    {
        List<GenericRow> rows = new ArrayList<>();
        for (int row = 0; row < ROWS; row++) {
            String flag = row % 9 == 4 ? null : "flag-" + (row * 7) % 5;
            // stretches of few values, where the writer starts a dictionary, then unique values that overflow it
            String token = row % 600 < 300 ? "few-" + row % 10 : "unique-" + row * 7919L;
            rows.add(GenericRow.of((long) row, flag == null ? null : BinaryString.fromString(flag), BinaryString.fromString(token)));
        }
        // a small dictionary page: the token column falls back to plain pages within a row group
        byte[] file = ParquetTestFiles.write(ROW_TYPE, rows, Map.of("parquet.page.size", "2048", "parquet.dictionary.page.size", "4096", "parquet.block.size", "8000"), "zstd");
        RoaringBitmap sparse = new RoaringBitmap();
        RoaringBitmap dense = new RoaringBitmap();
        for (int row = 0; row < ROWS; row++) {
            if (row % 113 < 7) {
                sparse.add(row);
            }
            if (row % 10 != 3) {
                dense.add(row);
            }
        }
        for (RoaringBitmap selection : Arrays.asList(null, sparse, dense)) {
            ParquetReadOptions options = ParquetReadOptions.of(fields).withBatchSize(100).withDictionaryIds();
            if (selection != null) {
                options = options.withRowSelection(selection);
            }
            int batches = 0;
            int flagBatchesWithIds = 0;
            int tokenBatchesWithIds = 0;
            try (ParquetReader reader = ParquetReader.open(ParquetInput.of("test.parquet", file), options, allocator)) {
                while (reader.nextBatch()) {
                    batches++;
                    assertThat(reader.dictionaryIds(0)).as("a BIGINT column").isEmpty();
                    if (check(reader, 1)) {
                        flagBatchesWithIds++;
                    }
                    if (check(reader, 2)) {
                        tokenBatchesWithIds++;
                    }
                }
                assertThat(reader.metrics().rowGroups()).as("row groups").isGreaterThan(1);
            }
            String description = selection == null ? "no selection" : selection.getCardinality() + " rows selected";
            assertThat(flagBatchesWithIds).as(description).isEqualTo(batches);
            assertThat(tokenBatchesWithIds).as(description).isBetween(1, batches - 1);
        }

        // not asked for: none
        try (ParquetReader reader = ParquetReader.open(ParquetInput.of("test.parquet", file), ParquetReadOptions.of(fields), allocator)) {
            assertThat(reader.nextBatch()).isTrue();
            assertThat(reader.dictionaryIds(1)).isEmpty();
        }
    }

    /**
     * Checks the ids of a column against its decoded values; false when the batch has none.
     */
    private static boolean check(ParquetReader reader, int column)
    {
        Optional<DictionaryIds> found = reader.dictionaryIds(column);
        if (found.isEmpty()) {
            return false;
        }
        DictionaryIds ids = found.get();
        VarCharVector vector = (VarCharVector) reader.root().getVector(column);
        assertThat(ids.rows()).isEqualTo(reader.root().getRowCount());
        for (int row = 0; row < ids.rows(); row++) {
            int id = ids.ids()[row];
            if (vector.isNull(row)) {
                assertThat(id).isEqualTo(-1);
                continue;
            }
            assertThat(id).isBetween(0, ids.dictionarySize() - 1);
            int start = ids.dictionaryOffsets()[id];
            String value = new String(ids.dictionaryBytes(), start, ids.dictionaryOffsets()[id + 1] - start, StandardCharsets.UTF_8);
            assertThat(value).isEqualTo(new String(vector.get(row), StandardCharsets.UTF_8));
        }
        return true;
    }
}
