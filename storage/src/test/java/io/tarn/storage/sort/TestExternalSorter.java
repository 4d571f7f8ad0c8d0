package io.tarn.storage.sort;

import io.tarn.testing.TemporaryDirectories;
import io.tarn.types.DataField;
import io.tarn.types.DataTypes;
import io.tarn.vector.ArrowTypes;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The external sort on its own: with a budget so small that every batch becomes a run, more runs
 * than one merge reads at once are merged in several passes, and the output is every input row in
 * order (stable for equal keys), with no Arrow memory or spill file left behind.
 */
public class TestExternalSorter
{
    private static final long SEED = 77_1129L;

    private RootAllocator allocator;
    private Path spill;

    @BeforeClass
    public void setUp()
    {
        allocator = new RootAllocator();
        spill = TemporaryDirectories.create("tarn-external-sorter");
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        assertThat(allocator.getAllocatedMemory()).as("Arrow memory leaked").isZero();
        allocator.close();
        TemporaryDirectories.deleteRecursively(spill);
    }

    @Test
    public void testMergesMoreRunsThanTheFanIn()
            throws IOException
    {
        System.out.println("TestExternalSorter seed=" + SEED);
        List<DataField> fields = List.of(
                new DataField(0, "k", DataTypes.integer(), Optional.empty(), Optional.empty()),
                new DataField(1, "tag", DataTypes.string(), Optional.empty(), Optional.empty()));
        Schema schema = ArrowTypes.toArrowSchema(fields);
        Random random = new Random(SEED);
        int batches = ExternalSorter.MERGE_FAN_IN * 2 + 5;
        List<int[]> expected = new ArrayList<>();
        List<String> output = new ArrayList<>();
        RowKeys keys = new RowKeys(SortStrategy.ORDER, new int[] {0}, List.of(DataTypes.integer()), 8);
        try (ExternalSorter sorter = new ExternalSorter(schema, keys, 1, 7, SpillDirectory.open(spill), allocator)) {
            int sequence = 0;
            for (int batch = 0; batch < batches; batch++) {
                try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
                    root.allocateNew();
                    int rows = 1 + random.nextInt(12);
                    for (int row = 0; row < rows; row++) {
                        // few distinct keys, so stability is visible in the sequence numbers
                        int key = random.nextInt(40) - 20;
                        boolean isNull = random.nextInt(15) == 0;
                        if (isNull) {
                            ((IntVector) root.getVector(0)).setNull(row);
                        }
                        else {
                            ((IntVector) root.getVector(0)).set(row, key);
                        }
                        ((VarCharVector) root.getVector(1)).setSafe(row, Integer.toString(sequence).getBytes(StandardCharsets.UTF_8));
                        expected.add(new int[] {isNull ? Integer.MIN_VALUE : key, sequence, isNull ? 1 : 0});
                        sequence++;
                    }
                    root.setRowCount(rows);
                    sorter.add(root);
                }
            }
            sorter.finish(batch -> {
                assertThat(batch.getRowCount()).isBetween(1, 7);
                for (int row = 0; row < batch.getRowCount(); row++) {
                    IntVector key = (IntVector) batch.getVector(0);
                    output.add((key.isNull(row) ? "null" : Integer.toString(key.get(row))) + " " + batch.getVector(1).getObject(row));
                }
            });
            assertThat(sorter.spilledRuns()).isGreaterThan(batches);
        }
        // nulls first, then ascending keys; equal keys in input order
        expected.sort(Comparator.<int[]>comparingInt(row -> -row[2]).thenComparingInt(row -> row[0]).thenComparingInt(row -> row[1]));
        List<String> expectedLines = expected.stream().map(row -> (row[2] == 1 ? "null" : Integer.toString(row[0])) + " " + row[1]).toList();
        assertThat(output).isEqualTo(expectedLines);
        try (Stream<Path> left = Files.list(spill)) {
            assertThat(left.toList()).as("spill files deleted").isEmpty();
        }
    }
}
