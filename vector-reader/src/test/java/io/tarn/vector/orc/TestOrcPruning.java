package io.tarn.vector.orc;

import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.Predicates;
import io.tarn.types.DataField;
import io.tarn.vector.io.DataFileInput;
import io.tarn.vector.reader.ParquetTestFiles;
import io.tarn.vector.reader.ReadOptions;
import io.tarn.vector.reader.ReaderMetrics;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.roaringbitmap.RoaringBitmap;
import org.testng.annotations.AfterClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the filter prunes in an ORC file: whole stripes by the metadata's stripe statistics, then
 * 1,000-row groups by the row index, counted in the reader's metrics; rows of kept groups are all
 * returned (the filter never removes single rows), with their file positions.
 */
public class TestOrcPruning
{
    private static final int ROWS = 5000;
    private static final RowType ROW_TYPE = RowType.of(
            new org.apache.paimon.types.DataField(0, "id", DataTypes.INT().notNull()),
            new org.apache.paimon.types.DataField(1, "d", DataTypes.DOUBLE()),
            new org.apache.paimon.types.DataField(2, "s", DataTypes.STRING()));
    private static final List<DataField> FIELDS = ParquetTestFiles.tarnFields(ROW_TYPE);

    private final RootAllocator allocator = new RootAllocator();
    private final byte[] file;

    public TestOrcPruning()
    {
        List<GenericRow> rows = new ArrayList<>();
        for (int id = 0; id < ROWS; id++) {
            // NaN in the second group only
            double d = id >= 1000 && id < 2000 && id % 100 == 0 ? Double.NaN : id;
            rows.add(GenericRow.of(id, d, BinaryString.fromString(String.format("k%05d", id))));
        }
        file = OrcTestFiles.write(ROW_TYPE, rows, Map.of(
                "orc.row.index.stride", "1000",
                "orc.stripe.size", "8000",
                "orc.rows.between.memory.checks", "100"), "zstd");
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        assertThat(allocator.getAllocatedMemory()).isEqualTo(0);
        allocator.close();
    }

    @Test
    public void testStripesAndRowGroupsSkipped()
            throws IOException
    {
        FieldRef id = FieldRef.of(FIELDS.get(0));
        Result result = read(Predicates.equal(id, 4321), null);
        assertThat(result.metrics().rowGroups()).as("stripes").isGreaterThan(2);
        assertThat(result.metrics().rowGroupsSkipped()).isEqualTo(result.metrics().rowGroups() - 1);
        // the rows of the one matching 1,000-row group within its stripe, or fewer when the stripe cuts it
        assertThat(result.ids()).contains(4321).allMatch(value -> value / 1000 == 4);
        assertThat(result.ids().size()).isBetween(1, 1000);

        Result strings = read(Predicates.greaterOrEqual(FieldRef.of(FIELDS.get(2)), "k04990"), null);
        assertThat(strings.ids()).contains(4990, 4999).allMatch(value -> value >= 4000);
        assertThat(strings.metrics().rowGroupsSkipped()).isPositive();
    }

    @Test
    public void testNaNKeepsItsGroupForNegations()
            throws IOException
    {
        FieldRef d = FieldRef.of(FIELDS.get(1));
        // NaN <> 1500.0 is TRUE: every group holds a match
        assertThat(read(Predicates.notEqual(d, 1500.0), null).ids()).hasSize(ROWS);
        // d > 4500: the NaN group's statistics (sum NaN) are not used, the others prune
        Result greater = read(Predicates.greaterThan(d, 4500.0), null);
        assertThat(greater.ids()).contains(4501, 4999).noneMatch(value -> value < 1000);
        // d = NaN matches nothing, but pruning may not remove rows: what is returned is the kept groups' rows
        Result nan = read(Predicates.equal(d, Double.NaN), null);
        assertThat(nan.ids()).allMatch(value -> value >= 0);
    }

    @Test
    public void testPruningWithRowSelection()
            throws IOException
    {
        FieldRef id = FieldRef.of(FIELDS.get(0));
        RoaringBitmap selection = RoaringBitmap.bitmapOf(5, 1500, 2500, 3999, 4000, 4321, 4999);
        Result result = read(Predicates.greaterOrEqual(id, 3500), selection);
        assertThat(result.ids()).containsSubsequence(3999, 4000, 4321, 4999).doesNotContain(5, 1500, 2500);
        assertThat(result.positions()).isEqualTo(result.ids());
    }

    private Result read(Predicate filter, RoaringBitmap selection)
            throws IOException
    {
        ReadOptions options = ReadOptions.of(FIELDS).withBatchSize(333).withFilter(filter);
        if (selection != null) {
            options = options.withRowSelection(selection);
        }
        List<Integer> ids = new ArrayList<>();
        List<Integer> positions = new ArrayList<>();
        try (OrcReader reader = OrcReader.open(DataFileInput.of("test.orc", file), options, FIELDS, allocator)) {
            int[] batchPositions = new int[333];
            while (reader.nextBatch()) {
                IntVector vector = (IntVector) reader.root().getVector(0);
                reader.batchPositions(batchPositions);
                for (int i = 0; i < reader.root().getRowCount(); i++) {
                    ids.add(vector.get(i));
                    positions.add(batchPositions[i]);
                }
            }
            return new Result(ids, positions, reader.metrics());
        }
    }

    private record Result(List<Integer> ids, List<Integer> positions, ReaderMetrics metrics) {}
}
