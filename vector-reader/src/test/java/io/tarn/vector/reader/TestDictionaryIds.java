package io.tarn.vector.reader;

import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.Predicates;
import io.tarn.types.DataField;
import io.tarn.vector.io.DataFileInput;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
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
import java.util.Set;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ParquetReader#dictionaryIds(int)} on files Apache Paimon wrote: the ids of a
 * low-cardinality column with nulls give back every value of every batch, with and without row
 * selections, and a column whose dictionary overflows into plain pages has none for the batches
 * that hold plain values. Columns whose values are left as ids hold them only there, and are
 * decoded where a batch meets a plain page or a filter tests them.
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
        byte[] file = fileOfFlagsAndTokens();
        RoaringBitmap sparse = selection(row -> row % 113 < 7);
        RoaringBitmap dense = selection(row -> row % 10 != 3);
        for (RoaringBitmap selection : Arrays.asList(null, sparse, dense)) {
            ReadOptions options = ReadOptions.of(fields).withBatchSize(100).withDictionaryIds();
            if (selection != null) {
                options = options.withRowSelection(selection);
            }
            int batches = 0;
            int flagBatchesWithIds = 0;
            int tokenBatchesWithIds = 0;
            try (ParquetReader reader = ParquetReader.open(DataFileInput.of("test.parquet", file), options, allocator)) {
                int[] positions = new int[options.batchSize()];
                while (reader.nextBatch()) {
                    batches++;
                    reader.batchPositions(positions);
                    assertThat(reader.dictionaryIds(0)).as("a BIGINT column").isEmpty();
                    // the vectors hold the values too, gathered by whole words (flags) or byte-wise (tokens)
                    checkValues(reader.root().getVector(1), positions, TestDictionaryIds::flag);
                    checkValues(reader.root().getVector(2), positions, TestDictionaryIds::token);
                    if (check(reader.dictionaryIds(1), reader.root().getRowCount(), positions, TestDictionaryIds::flag)) {
                        flagBatchesWithIds++;
                    }
                    if (check(reader.dictionaryIds(2), reader.root().getRowCount(), positions, TestDictionaryIds::token)) {
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
        try (ParquetReader reader = ParquetReader.open(DataFileInput.of("test.parquet", file), ReadOptions.of(fields), allocator)) {
            assertThat(reader.nextBatch()).isTrue();
            assertThat(reader.dictionaryIds(1)).isEmpty();
        }
    }

    @Test
    public void testValuesLeftAsIds()
            throws IOException
    {
        byte[] file = fileOfFlagsAndTokens();
        Set<Integer> bothStrings = Set.of(fields.get(1).id(), fields.get(2).id());
        // a filter on the tokens: they are tested on their values, which must be there
        Predicate tokenFilter = Predicates.notEqual(FieldRef.of(fields.get(2)), "none");
        for (int batchSize : new int[] {100, 37}) {
            for (RoaringBitmap selection : Arrays.asList(null, selection(row -> row % 113 < 7), selection(row -> row % 10 != 3))) {
                for (boolean filtered : new boolean[] {false, true}) {
                    ReadOptions options = ReadOptions.of(fields).withBatchSize(batchSize).withValuesAsDictionaryIds(bothStrings);
                    if (selection != null) {
                        options = options.withRowSelection(selection);
                    }
                    if (filtered) {
                        options = options.withFilter(tokenFilter);
                    }
                    String description = "batches of %s, %s, %s".formatted(batchSize, selection == null ? "every row" : selection.getCardinality() + " rows selected",
                            filtered ? "tokens filtered" : "no filter");
                    int batches = 0;
                    int flagsLeftAsIds = 0;
                    int tokensLeftAsIds = 0;
                    int tokensDecoded = 0;
                    try (ParquetReader reader = ParquetReader.open(DataFileInput.of("test.parquet", file), options, allocator)) {
                        int[] positions = new int[options.batchSize()];
                        while (reader.nextBatch()) {
                            batches++;
                            reader.batchPositions(positions);
                            int rows = reader.root().getRowCount();
                            flagsLeftAsIds += valuesLeftAsIds(reader.root().getVector(1), reader.dictionaryIds(1), rows, positions, TestDictionaryIds::flag) ? 1 : 0;
                            boolean tokensAsIds = valuesLeftAsIds(reader.root().getVector(2), reader.dictionaryIds(2), rows, positions, TestDictionaryIds::token);
                            tokensLeftAsIds += tokensAsIds ? 1 : 0;
                            tokensDecoded += tokensAsIds ? 0 : 1;
                        }
                    }
                    assertThat(flagsLeftAsIds).as(description).isEqualTo(batches);
                    if (filtered) {
                        assertThat(tokensLeftAsIds).as(description).isZero();
                    }
                    else {
                        // the batches of the plain pages, and the one where the dictionary's pages end
                        assertThat(tokensLeftAsIds).as(description).isBetween(1, batches - 1);
                        assertThat(tokensDecoded).as(description).isPositive();
                    }
                }
            }
        }
    }

    private static byte[] fileOfFlagsAndTokens()
            throws IOException
    {
        List<GenericRow> rows = new ArrayList<>();
        for (int row = 0; row < ROWS; row++) {
            String flag = flag(row);
            rows.add(GenericRow.of((long) row, flag == null ? null : BinaryString.fromString(flag), BinaryString.fromString(token(row))));
        }
        // a small dictionary page: the token column falls back to plain pages within a row group
        return ParquetTestFiles.write(ROW_TYPE, rows, Map.of("parquet.page.size", "2048", "parquet.dictionary.page.size", "4096", "parquet.block.size", "8000"), "zstd");
    }

    /**
     * Checks one batch of a column whose values may be left as ids: either the ids give the
     * values written and the vector holds only nulls (returns true), or the vector holds them.
     */
    private static boolean valuesLeftAsIds(FieldVector vector, Optional<DictionaryIds> ids, int rows, int[] positions, IntFunction<String> written)
    {
        if (vector.getNullCount() == rows && ids.isPresent()) {
            check(ids, rows, positions, written);
            return true;
        }
        checkValues(vector, positions, written);
        ids.ifPresent(present -> check(Optional.of(present), rows, positions, written));
        return false;
    }

    private static RoaringBitmap selection(IntPredicate selected)
    {
        RoaringBitmap selection = new RoaringBitmap();
        for (int row = 0; row < ROWS; row++) {
            if (selected.test(row)) {
                selection.add(row);
            }
        }
        return selection;
    }

    private static String flag(int row)
    {
        return row % 9 == 4 ? null : "flag-" + (row * 7) % 5;
    }

    /**
     * Stretches of few values, where the writer starts a dictionary, then unique values that
     * overflow it. The few are longer than the values the decoder gathers by whole words.
     */
    private static String token(int row)
    {
        return row % 600 < 300 ? "few-" + row % 10 + "-" + "x".repeat(40) : "unique-" + row * 7919L;
    }

    private static void checkValues(FieldVector vector, int[] positions, IntFunction<String> written)
    {
        for (int row = 0; row < vector.getValueCount(); row++) {
            Object value = vector.getObject(row);
            assertThat(value == null ? null : value.toString()).as("%s at %s", vector.getName(), positions[row]).isEqualTo(written.apply(positions[row]));
        }
    }

    /**
     * Checks the ids of a batch against the values written at its file positions; false when the
     * batch has none.
     */
    private static boolean check(Optional<DictionaryIds> found, int rows, int[] positions, IntFunction<String> written)
    {
        if (found.isEmpty()) {
            return false;
        }
        DictionaryIds ids = found.get();
        assertThat(ids.rows()).isEqualTo(rows);
        for (int row = 0; row < ids.rows(); row++) {
            int id = ids.ids()[row];
            String expected = written.apply(positions[row]);
            if (expected == null) {
                assertThat(id).as("row at %s", positions[row]).isEqualTo(-1);
                continue;
            }
            assertThat(id).isBetween(0, ids.dictionarySize() - 1);
            int start = ids.dictionaryOffsets()[id];
            String value = new String(ids.dictionaryBytes(), start, ids.dictionaryOffsets()[id + 1] - start, StandardCharsets.UTF_8);
            assertThat(value).as("row at %s", positions[row]).isEqualTo(expected);
        }
        return true;
    }
}
