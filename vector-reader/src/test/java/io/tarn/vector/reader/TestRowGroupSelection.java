package io.tarn.vector.reader;

import org.roaringbitmap.RoaringBitmap;
import org.testng.annotations.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestRowGroupSelection
{
    // three containers of 65,536 rows, so that windows cross container boundaries
    private static final int ROWS = 3 * 65_536 + 1_000;

    @Test
    public void testWindowMasksMatchTheSelection()
    {
        long seed = System.nanoTime();
        System.out.println("TestRowGroupSelection seed " + seed);
        Random random = new Random(seed);
        RoaringBitmap rows = randomSelection(random);
        RowGroupSelection selection = new RowGroupSelection();
        selection.reset(rows);
        long position = 0;
        while (position < ROWS) {
            int window = (int) Math.min(1 + random.nextInt(3000), ROWS - position);
            int selected = selection.select(position, window, 1024);
            long[] mask = selection.mask();
            int expectedSelected = 0;
            int expectedRuns = 0;
            for (int row = 0; row < window; row++) {
                boolean in = rows.contains((int) (position + row));
                assertThat((mask[row >>> 6] >>> row & 1) == 1).as("row %s of the window at %s", row, position).isEqualTo(in);
                if (in) {
                    expectedSelected++;
                    if (row == 0 || !rows.contains((int) (position + row - 1))) {
                        expectedRuns++;
                    }
                }
            }
            // bits past the window are clear
            if ((window & 63) != 0) {
                assertThat(mask[(window - 1) >>> 6] >>> (window & 63)).isZero();
            }
            assertThat(selected).isEqualTo(expectedSelected);
            assertThat(selection.selectedRuns()).isEqualTo(expectedRuns);
            position += window;
        }
    }

    @Test
    public void testWindowsMayMoveBack()
    {
        RoaringBitmap rows = RoaringBitmap.bitmapOf(5, 70_000, 140_000);
        RowGroupSelection selection = new RowGroupSelection();
        selection.reset(rows);
        assertThat(selection.select(139_990, 20, 20)).isEqualTo(1);
        // an earlier container after a later one: the containers are walked again from the start
        assertThat(selection.select(0, 10, 10)).isEqualTo(1);
        assertThat(selection.mask()[0]).isEqualTo(1L << 5);
        // a new row group's selection replaces the old one
        selection.reset(RoaringBitmap.bitmapOf(1));
        assertThat(selection.select(0, 10, 10)).isEqualTo(1);
        assertThat(selection.mask()[0]).isEqualTo(1L << 1);
    }

    @Test
    public void testPositions()
    {
        long seed = System.nanoTime();
        System.out.println("TestRowGroupSelection seed " + seed);
        Random random = new Random(seed);
        RoaringBitmap rows = randomSelection(random);
        RowGroupSelection selection = new RowGroupSelection();
        selection.reset(rows);
        int[] all = rows.toArray();
        int from = all[all.length / 3];
        int count = Math.min(1000, all.length - all.length / 3);
        int[] positions = new int[count];
        selection.positions(from, count, 1_000_000, positions, "f.parquet");
        for (int i = 0; i < count; i++) {
            assertThat(positions[i]).isEqualTo(1_000_000 + all[all.length / 3 + i]);
        }
        assertThatThrownBy(() -> selection.positions(all[all.length - 1], 2, 0, new int[2], "f.parquet"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("f.parquet");
    }

    private static RoaringBitmap randomSelection(Random random)
    {
        RoaringBitmap rows = new RoaringBitmap();
        int row = 0;
        while (row < ROWS) {
            // runs and gaps of varied lengths: dense stretches, single rows and empty stretches
            int run = 1 + random.nextInt(random.nextBoolean() ? 4 : 400);
            rows.add((long) row, (long) Math.min(ROWS, row + run));
            row += run + random.nextInt(random.nextBoolean() ? 3 : 70_000);
        }
        return rows;
    }
}
