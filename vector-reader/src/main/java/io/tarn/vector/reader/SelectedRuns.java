package io.tarn.vector.reader;

import org.roaringbitmap.RoaringBitmap;

import java.util.Arrays;

import static java.util.Objects.requireNonNull;

/**
 * The runs of selected rows of a sparse batch, each after a gap of rows to skip. They are found
 * once per batch, before any column is read, so that each column then walks all of them in one
 * go (skip the gap, read the run), which keeps one decoder hot at a time. The arrays grow as
 * needed and are reused from batch to batch.
 */
final class SelectedRuns
{
    private final ReaderMetrics.Accumulator metrics;
    // skip gaps[k] rows, then read rows[k] rows
    private long[] gaps = new long[16];
    private int[] rows = new int[16];
    private int runs;
    private long end;

    SelectedRuns(ReaderMetrics.Accumulator metrics)
    {
        this.metrics = requireNonNull(metrics, "metrics is null");
    }

    /**
     * Finds the runs of the next at most {@code batchSize} rows of {@code selection} from row
     * {@code position} of a row group of {@code rowGroupRows} rows, and returns how many rows
     * they hold; the rows skipped count as skipped by the selection.
     */
    int find(RoaringBitmap selection, long position, long rowGroupRows, int batchSize)
    {
        int runs = 0;
        int out = 0;
        long cursor = position;
        while (out < batchSize && cursor < rowGroupRows) {
            long next = selection.nextValue((int) cursor);
            if (next < 0 || next >= rowGroupRows) {
                metrics.rowsSkippedBySelection += rowGroupRows - cursor;
                cursor = rowGroupRows;
                break;
            }
            long runEnd = Math.min(selection.nextAbsentValue((int) next), rowGroupRows);
            int rows = (int) Math.min(runEnd - next, batchSize - out);
            if (runs == gaps.length) {
                gaps = Arrays.copyOf(gaps, runs * 2);
                this.rows = Arrays.copyOf(this.rows, runs * 2);
            }
            gaps[runs] = next - cursor;
            this.rows[runs] = rows;
            runs++;
            metrics.rowsSkippedBySelection += next - cursor;
            cursor = next + rows;
            out += rows;
        }
        this.runs = runs;
        this.end = cursor;
        return out;
    }

    /**
     * Where the next batch begins: the row after the last run of the last {@link #find}, or the
     * row group's end when its selection has no row left.
     */
    long end()
    {
        return end;
    }

    /**
     * Reads the runs of the last {@link #find} from {@code reader}, skipping the gaps.
     */
    void read(ColumnReader reader)
    {
        for (int run = 0; run < runs; run++) {
            if (gaps[run] > 0) {
                reader.skipRows(gaps[run]);
            }
            reader.readRows(rows[run]);
        }
    }
}
