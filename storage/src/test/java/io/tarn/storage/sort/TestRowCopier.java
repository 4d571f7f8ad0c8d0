package io.tarn.storage.sort;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link RowCopier} against Arrow's own {@code copyFromSafe}: for every vector width and for the
 * columns it hands to Arrow, gathered rows, whole copies and nulls come out the same.
 */
public class TestRowCopier
{
    private static final long SEED = 20261130L;
    // more than Arrow's initial allocation, so targets must grow, and not a multiple of 8
    private static final int ROWS = 5_003;

    private BufferAllocator allocator;

    @BeforeClass
    public void setUp()
    {
        allocator = new RootAllocator();
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        assertThat(allocator.getAllocatedMemory()).as("Arrow memory leaked").isZero();
        allocator.close();
    }

    @DataProvider
    public Object[][] vectors()
    {
        List<Function<BufferAllocator, FieldVector>> factories = List.of(
                allocator -> fill(new TinyIntVector("tinyint", allocator), (vector, row, random) -> vector.set(row, (byte) random.nextInt())),
                allocator -> fill(new SmallIntVector("smallint", allocator), (vector, row, random) -> vector.set(row, (short) random.nextInt())),
                allocator -> fill(new IntVector("int", allocator), (vector, row, random) -> vector.set(row, random.nextInt())),
                allocator -> fill(new BigIntVector("bigint", allocator), (vector, row, random) -> vector.set(row, random.nextLong())),
                allocator -> fill(new Float8Vector("double", allocator), (vector, row, random) -> vector.set(row, random.nextDouble())),
                allocator -> fill(new TimeStampMicroVector("timestamp", allocator), (vector, row, random) -> vector.set(row, random.nextLong())),
                allocator -> fill(new DecimalVector("decimal", allocator, 38, 10), (vector, row, random) -> vector.set(row, new BigDecimal(random.nextLong()).movePointLeft(10))),
                allocator -> fill(new BitVector("boolean", allocator), (vector, row, random) -> vector.set(row, random.nextBoolean() ? 1 : 0)),
                allocator -> fill(new VarCharVector("string", allocator), (vector, row, random) -> vector.setSafe(row, ("v" + random.nextInt(1000)).getBytes(StandardCharsets.UTF_8))));
        return factories.stream().map(factory -> new Object[] {factory}).toArray(Object[][]::new);
    }

    @Test(dataProvider = "vectors")
    public void testGatherEqualsArrowsCopy(Function<BufferAllocator, FieldVector> factory)
    {
        List<Integer> order = new ArrayList<>();
        for (int row = 0; row < ROWS; row++) {
            order.add(row);
        }
        Collections.shuffle(order, new Random(SEED));
        try (FieldVector source = factory.apply(allocator);
                FieldVector copied = source.getField().createVector(allocator);
                FieldVector expected = source.getField().createVector(allocator)) {
            copied.allocateNew();
            expected.allocateNew();
            RowCopier.ensureCapacity(copied, ROWS);
            for (int target = 0; target < ROWS; target++) {
                RowCopier.copy(source, order.get(target), copied, target);
                expected.copyFromSafe(order.get(target), target, source);
            }
            copied.setValueCount(ROWS);
            expected.setValueCount(ROWS);
            assertSameValues(copied, expected);
            assertThat(copied.getNullCount()).isPositive();

            // a reused target: nulls written over values and values over nulls
            for (int target = 0; target < ROWS; target++) {
                RowCopier.copy(source, ROWS - 1 - order.get(target), copied, target);
                expected.copyFromSafe(ROWS - 1 - order.get(target), target, source);
            }
            assertSameValues(copied, expected);
        }
    }

    @Test(dataProvider = "vectors")
    public void testCopyAllEqualsArrowsCopy(Function<BufferAllocator, FieldVector> factory)
    {
        try (FieldVector source = factory.apply(allocator)) {
            for (int rows : new int[] {0, 1, 7, 8, 9, ROWS}) {
                try (FieldVector copied = source.getField().createVector(allocator)) {
                    copied.allocateNew();
                    RowCopier.copyAll(source, copied, rows);
                    copied.setValueCount(rows);
                    assertThat(copied.getValueCount()).isEqualTo(rows);
                    for (int row = 0; row < rows; row++) {
                        assertThat(copied.getObject(row)).as("%s row %s of %s", source.getName(), row, rows).isEqualTo(source.getObject(row));
                    }
                    // the bits past the copied rows are clear: appending a row keeps its own null
                    copied.setValueCount(rows + 1);
                    assertThat(copied.isNull(rows)).isTrue();
                }
            }
        }
    }

    @Test
    public void testRowsOutsideTheVectorsAreRefused()
    {
        try (IntVector source = fill(new IntVector("int", allocator), (vector, row, random) -> vector.set(row, row));
                IntVector target = new IntVector("int", allocator)) {
            target.allocateNew(8);
            assertThatThrownBy(() -> RowCopier.copy(source, ROWS, target, 0)).isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> RowCopier.copy(source, 0, target, target.getValueCapacity())).isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> RowCopier.copyAll(source, target, ROWS + 1)).isInstanceOf(IndexOutOfBoundsException.class);
        }
    }

    private static void assertSameValues(FieldVector actual, FieldVector expected)
    {
        for (int row = 0; row < expected.getValueCount(); row++) {
            assertThat(actual.isNull(row)).as("%s row %s null", expected.getName(), row).isEqualTo(expected.isNull(row));
            assertThat(actual.getObject(row)).as("%s row %s", expected.getName(), row).isEqualTo(expected.getObject(row));
        }
    }

    private interface Setter<V extends FieldVector>
    {
        void set(V vector, int row, Random random);
    }

    // ROWS values, one in five null, from a fixed seed
    private static <V extends FieldVector> V fill(V vector, Setter<V> setter)
    {
        Random random = new Random(SEED ^ vector.getName().hashCode());
        vector.allocateNew();
        while (vector.getValueCapacity() < ROWS) {
            vector.reAlloc();
        }
        for (int row = 0; row < ROWS; row++) {
            if (random.nextInt(5) == 0) {
                vector.setNull(row);
            }
            else {
                setter.set(vector, row, random);
            }
        }
        vector.setValueCount(ROWS);
        return vector;
    }
}
