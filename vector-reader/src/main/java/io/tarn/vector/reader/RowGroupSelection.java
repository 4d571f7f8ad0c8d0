package io.tarn.vector.reader;

import io.tarn.vector.reader.decoders.SelectionMasks;
import org.roaringbitmap.BatchIterator;
import org.roaringbitmap.Container;
import org.roaringbitmap.ContainerPointer;
import org.roaringbitmap.RoaringBitmap;

import java.util.Arrays;

import static java.util.Objects.requireNonNull;

/**
 * The selected rows of a row group, as the reader walks them: windows cut into
 * {@link SelectionMasks masks}, for the dense windows that the column readers read in one pass
 * copying only the selected rows, and the positions of a batch's rows. The mask of a window is
 * cut from the words of the selection's containers (65,536 rows each), loaded one at a time as
 * the windows move forward.
 */
final class RowGroupSelection
{
    private static final int POSITION_CHUNK = 256;
    private static final int CONTAINER_WORDS = 1 << 10;

    private RoaringBitmap selection;
    private ContainerPointer containers;
    private int loadedContainer = -1;
    private final long[] containerWords = new long[CONTAINER_WORDS];
    private long[] mask;
    private int selectedRuns;
    private int[] positionChunk;

    /**
     * From now on, walks {@code selection}, the selected rows of a new row group.
     */
    void reset(RoaringBitmap selection)
    {
        this.selection = requireNonNull(selection, "selection is null");
        containers = null;
        loadedContainer = -1;
    }

    /**
     * The selection of the last window, as a {@link SelectionMasks mask}.
     */
    long[] mask()
    {
        return mask;
    }

    /**
     * The runs of selected rows in the last window.
     */
    int selectedRuns()
    {
        return selectedRuns;
    }

    /**
     * Fills {@link #mask()} with the selection of the {@code window} rows from row
     * {@code position}, {@link #selectedRuns()} with its number of runs, and returns how many
     * rows it selects. The mask has room for at least {@code batchSize} rows.
     */
    int select(long position, int window, int batchSize)
    {
        int words = SelectionMasks.words(window);
        if (mask == null || mask.length < words) {
            mask = new long[SelectionMasks.words(Math.max(window, batchSize))];
        }
        int first = (int) (position >>> 6);
        int shift = (int) (position & 63);
        int selected = 0;
        int runs = 0;
        long previousTop = 0;
        for (int w = 0; w < words; w++) {
            long word = selectionWord(first + w) >>> shift;
            if (shift != 0) {
                word |= selectionWord(first + w + 1) << (64 - shift);
            }
            if (w == words - 1 && (window & 63) != 0) {
                word &= (1L << window) - 1;
            }
            mask[w] = word;
            selected += Long.bitCount(word);
            // a run starts at each selected row whose predecessor is not selected
            runs += Long.bitCount(word & ~((word << 1) | previousTop));
            previousTop = word >>> 63;
        }
        selectedRuns = runs;
        return selected;
    }

    /**
     * Word {@code index} of the row group's selection (rows {@code 64 * index} on).
     */
    private long selectionWord(int index)
    {
        int container = index >>> 10;
        if (container != loadedContainer) {
            loadContainer(container);
        }
        return containerWords[index & (CONTAINER_WORDS - 1)];
    }

    private void loadContainer(int container)
    {
        if (containers == null || container < loadedContainer) {
            containers = selection.getContainerPointer();
        }
        while (containers.getContainer() != null && containers.key() < container) {
            containers.advance();
        }
        Container found = containers.getContainer();
        if (found != null && containers.key() == container) {
            found.toBitmapContainer().copyBitmapTo(containerWords, 0);
        }
        else {
            Arrays.fill(containerWords, 0L);
        }
        loadedContainer = container;
    }

    /**
     * Writes the first {@code rows} selected rows from row {@code from} on, plus {@code offset},
     * into {@code positions}; {@code file} names the file when the selection has fewer.
     */
    void positions(int from, int rows, int offset, int[] positions, String file)
    {
        // a batch iterator hands out runs of positions far faster than one value at a time
        BatchIterator selected = selection.getBatchIterator();
        selected.advanceIfNeeded(from);
        if (positionChunk == null) {
            positionChunk = new int[POSITION_CHUNK];
        }
        int filled = 0;
        while (filled < rows) {
            int count = selected.nextBatch(positionChunk);
            if (count == 0) {
                throw new IllegalStateException("The row selection of " + file + " ends before the batch's " + rows + " rows");
            }
            int take = Math.min(count, rows - filled);
            for (int i = 0; i < take; i++) {
                positions[filled + i] = offset + positionChunk[i];
            }
            filled += take;
        }
    }
}
