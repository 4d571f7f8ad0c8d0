package io.tarn.vector.reader;

import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.pojo.Field;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BiConsumer;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The values a filter pass carries over to the read of the kept rows come back exactly: every
 * width, with and without nulls, across the chunks the column keeps them in.
 */
public class TestCarriedColumn
{
    private final RootAllocator allocator = new RootAllocator();

    @AfterMethod(alwaysRun = true)
    public void checkMemory()
    {
        assertThat(allocator.getAllocatedMemory()).as("Arrow memory leaked").isZero();
    }

    @DataProvider
    public Object[][] widths()
    {
        return new Object[][] {
                {vectorOf(name -> new TinyIntVector(name, allocator), (vector, row) -> ((TinyIntVector) vector).setSafe(row, (byte) (row * 7)))},
                {vectorOf(name -> new SmallIntVector(name, allocator), (vector, row) -> ((SmallIntVector) vector).setSafe(row, (short) (row * 31)))},
                {vectorOf(name -> new IntVector(name, allocator), (vector, row) -> ((IntVector) vector).setSafe(row, row * 1_000_003))},
                {vectorOf(name -> new BigIntVector(name, allocator), (vector, row) -> ((BigIntVector) vector).setSafe(row, row * 1_000_000_007L))},
                {vectorOf(name -> new DecimalVector(name, allocator, 30, 6), (vector, row) -> ((DecimalVector) vector).setSafe(row, BigDecimal.valueOf(row * 123_456_789L, 6)))},
        };
    }

    /**
     * Batches of random kept rows, some with nulls and some without, appended until the column
     * spans more than two chunks, read back in runs that start and end anywhere.
     */
    @Test(dataProvider = "widths")
    public void testValuesComeBackInOrder(VectorFactory factory)
    {
        Random random = new Random(7);
        List<Object> expected = new ArrayList<>();
        int offset = 0;
        try (FieldVector probe = factory.create(0, false);
                CarriedColumn column = new CarriedColumn(probe.getField(), allocator)) {
            while (expected.size() < 2 * CarriedColumn.CHUNK_ROWS + 1000) {
                int batchRows = 1 + random.nextInt(5000);
                boolean nulls = random.nextBoolean();
                try (FieldVector batch = factory.create(offset, nulls)) {
                    int[] selected = new int[batchRows];
                    int count = 0;
                    for (int row = 0; row < batchRows; row++) {
                        if (random.nextInt(3) != 0) {
                            selected[count++] = row;
                            expected.add(batch.getObject(row));
                        }
                    }
                    column.append(batch, selected, count);
                }
                offset += 1_000_000;
            }
            assertThat(column.rowCount()).isEqualTo(expected.size());
            try (FieldVector target = factory.create(0, false)) {
                int from = 0;
                while (from < expected.size()) {
                    int count = Math.min(expected.size() - from, random.nextInt(CarriedColumn.CHUNK_ROWS + 500));
                    column.copyTo(target, from, count);
                    assertThat(target.getValueCount()).isEqualTo(count);
                    for (int i = 0; i < count; i++) {
                        assertThat(target.getObject(i)).as("row %d", from + i).isEqualTo(expected.get(from + i));
                    }
                    from += count;
                }
            }
        }
    }

    @Test
    public void testRowsOutsideTheBatchAreRefused()
    {
        try (IntVector batch = new IntVector("x", allocator);
                CarriedColumn column = new CarriedColumn(batch.getField(), allocator)) {
            batch.allocateNew(4);
            batch.setValueCount(4);
            assertThatThrownBy(() -> column.append(batch, new int[] {1, 4}, 2))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("Row 4 of a batch of 4");
            assertThatThrownBy(() -> column.copyTo(batch, 0, 1))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("Rows 0 to 1 of a carried column of 0");
        }
    }

    @Test
    public void testVariableWidthColumnsCannotBeCarried()
    {
        Field field = Field.nullable("s", org.apache.arrow.vector.types.pojo.ArrowType.Utf8.INSTANCE);
        try (VarCharVector vector = new VarCharVector(field, allocator)) {
            assertThat(CarriedColumn.canCarry(vector)).isFalse();
        }
        assertThatThrownBy(() -> new CarriedColumn(field, allocator))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is not fixed-width");
    }

    private VectorFactory vectorOf(Function<String, BaseFixedWidthVector> constructor, BiConsumer<BaseFixedWidthVector, Integer> setter)
    {
        return new VectorFactory(constructor, setter);
    }

    /**
     * Makes batches of 5,000 rows whose values depend on the row and on {@code offset}, every
     * fifth row null when asked.
     */
    record VectorFactory(Function<String, BaseFixedWidthVector> constructor, BiConsumer<BaseFixedWidthVector, Integer> setter)
    {
        FieldVector create(int offset, boolean nulls)
        {
            BaseFixedWidthVector vector = constructor.apply("x");
            vector.allocateNew(5000);
            for (int row = 0; row < 5000; row++) {
                if (nulls && row % 5 == 0) {
                    vector.setNull(row);
                }
                else {
                    setter.accept(vector, (row + offset) % 100_000);
                }
            }
            vector.setValueCount(5000);
            return vector;
        }

        @Override
        public String toString()
        {
            try (BaseFixedWidthVector vector = constructor.apply("x")) {
                return vector.getClass().getSimpleName();
            }
        }
    }
}
