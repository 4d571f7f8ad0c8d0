package io.tarn.vector.filter;

import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.impl.UnionListWriter;
import org.testng.annotations.AfterClass;
import org.testng.annotations.Test;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link BatchFilter#copyRows}: for flat vectors of every width (through their buffers) and for
 * bits and lists (value by value), the target holds exactly the selected rows' values and nulls,
 * read back through Arrow's own accessors, also when the same target is filled again with fewer
 * or more rows; a row outside the source is refused.
 */
public class TestCopyRows
{
    private static final int ROWS = 1000;

    private final RootAllocator allocator = new RootAllocator();

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    @Test
    public void testSelectedRowsAreCopied()
    {
        Random random = new Random(7);
        for (boolean nulls : new boolean[] {false, true}) {
            List<Supplier<FieldVector>> sources = List.of(
                    () -> fill(new BigIntVector("l", allocator), nulls, (v, row) -> v.set(row, row * 1_000_003L - 7)),
                    () -> fill(new IntVector("i", allocator), nulls, (v, row) -> v.set(row, row * 31 - 500)),
                    () -> fill(new SmallIntVector("s", allocator), nulls, (v, row) -> v.set(row, (short) (row * 7))),
                    () -> fill(new TinyIntVector("t", allocator), nulls, (v, row) -> v.set(row, (byte) row)),
                    () -> fill(new DecimalVector("d", allocator, 30, 2), nulls, (v, row) -> v.set(row, new BigDecimal(row + "123456789012345678.25"))),
                    () -> fill(new VarCharVector("v", allocator), nulls, (v, row) -> v.setSafe(row, ("value-" + "x".repeat(row % 13) + row).getBytes(StandardCharsets.UTF_8))),
                    () -> fill(new VarBinaryVector("b", allocator), nulls, (v, row) -> v.setSafe(row, new byte[row % 5])),
                    () -> fill(new BitVector("bits", allocator), nulls, (v, row) -> v.set(row, row % 3 == 0 ? 1 : 0)),
                    () -> list(nulls));
            for (Supplier<FieldVector> make : sources) {
                try (FieldVector source = make.get(); FieldVector target = source.getField().createVector(allocator)) {
                    // the same target filled three times: a few rows, many rows, none
                    for (double share : new double[] {0.05, 0.9, 0.0}) {
                        int[] selected = IntStream.range(0, ROWS).filter(row -> random.nextDouble() < share).toArray();
                        BatchFilter.copyRows(source, selected, target);
                        assertThat(target.getValueCount()).as("%s, %s rows", source.getName(), selected.length).isEqualTo(selected.length);
                        for (int i = 0; i < selected.length; i++) {
                            assertThat(target.getObject(i)).as("%s row %s (source row %s), nulls %s", source.getName(), i, selected[i], nulls)
                                    .isEqualTo(source.getObject(selected[i]));
                        }
                    }
                }
            }
        }
    }

    @Test
    public void testRowOutsideTheSourceIsRefused()
    {
        try (IntVector source = fill(new IntVector("i", allocator), false, (v, row) -> v.set(row, row)); IntVector target = new IntVector("i", allocator)) {
            assertThatThrownBy(() -> BatchFilter.copyRows(source, new int[] {3, ROWS}, target))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("Row " + ROWS);
        }
    }

    private interface Setter<V>
    {
        void set(V vector, int row);
    }

    private static <V extends FieldVector> V fill(V vector, boolean nulls, Setter<V> setter)
    {
        vector.setInitialCapacity(ROWS);
        vector.allocateNew();
        for (int row = 0; row < ROWS; row++) {
            if (nulls && row % 4 == 1) {
                vector.setNull(row);
            }
            else {
                setter.set(vector, row);
            }
        }
        vector.setValueCount(ROWS);
        return vector;
    }

    private FieldVector list(boolean nulls)
    {
        ListVector list = ListVector.empty("list", allocator);
        UnionListWriter writer = list.getWriter();
        for (int row = 0; row < ROWS; row++) {
            writer.setPosition(row);
            if (nulls && row % 4 == 1) {
                writer.writeNull();
                continue;
            }
            writer.startList();
            List<Integer> values = new ArrayList<>();
            for (int i = 0; i < row % 4; i++) {
                values.add(row + i);
            }
            values.forEach(writer::writeInt);
            writer.endList();
        }
        list.setValueCount(ROWS);
        return list;
    }
}
