package io.tarn.vector.orc;

import org.apache.arrow.vector.FieldVector;

import java.io.IOException;
import java.util.Arrays;
import java.util.Set;

/**
 * Decodes one ORC column (a node of the type tree, with its children) into one output vector.
 * <p>
 * A batch is built in two steps: {@link #read} and {@link #skip} walk the column's streams
 * through the batch's rows (skipping the rows a selection or pruning leaves out), collecting the
 * read rows' presence and values on the heap; then {@link #write} fills the vector. A column
 * holds an entry for every row of its parent that is present (a struct's children have no
 * entries for null structs, a list's child one per element of its present lists), so nested
 * decoders read and skip their children by the counts their own streams give.
 * <p>
 * A column's streams are opened per stripe by {@link #startStripe}; reading past a stream's end
 * and values outside the format are {@link io.tarn.vector.CorruptDataException}s, which the reader
 * turns into the file's corruption error.
 */
abstract class ColumnDecoder
{
    // the most entries a column collects for one batch (nested columns collect all elements of the batch's rows)
    static final int MAX_BATCH_ENTRIES = 1 << 24;
    private static final int PIECE = 1 << 16;

    final int column;
    final String name;
    private BooleanDecoder present;
    // by entry of the batch: whether the value is present; valid up to entries
    boolean[] presence = new boolean[0];
    int entries;
    // the present entries of the batch: how many values the subclass collected
    int values;
    boolean hasNulls;

    ColumnDecoder(int column, String name)
    {
        this.column = column;
        this.name = name;
    }

    /**
     * Opens the column's streams in a new stripe; a column without a PRESENT stream has no nulls
     * in it.
     */
    void startStripe(StripeStreams stripe)
            throws IOException
    {
        DecompressedStream stream = stripe.stream(column, StripeFooter.Stream.PRESENT);
        present = stream == null ? null : new BooleanDecoder(stream);
        startValues(stripe);
    }

    /**
     * Opens the streams of the values (and the children).
     */
    abstract void startValues(StripeStreams stripe)
            throws IOException;

    /**
     * Forgets the entries of the last batch.
     */
    void startBatch()
    {
        entries = 0;
        values = 0;
        hasNulls = false;
        clearValues();
    }

    abstract void clearValues();

    /**
     * Reads the next {@code rows} entries of the column into the batch: a piece at a time, so
     * that what a batch holds grows only as its values decode (counts from a broken file cannot
     * make it allocate ahead of its data).
     */
    final void read(int rows)
    {
        if (rows > MAX_BATCH_ENTRIES - entries) {
            throw new OrcLimitException("Column " + name + " has more than " + MAX_BATCH_ENTRIES + " values in one batch");
        }
        while (rows > 0) {
            int piece = Math.min(rows, PIECE);
            readPiece(piece);
            rows -= piece;
        }
    }

    private void readPiece(int rows)
    {
        if (presence.length < entries + rows) {
            presence = Arrays.copyOf(presence, grow(presence.length, entries + rows));
        }
        int present;
        if (this.present == null) {
            Arrays.fill(presence, entries, entries + rows, true);
            present = rows;
        }
        else {
            present = this.present.next(presence, entries, rows);
            hasNulls |= present != rows;
        }
        entries += rows;
        readValues(present);
        values += present;
    }

    /**
     * Passes over the next {@code rows} entries of the column.
     */
    final void skip(long rows)
    {
        long present = this.present == null ? rows : this.present.skip(rows);
        skipValues(present);
    }

    /**
     * Moves the column (and its children) to the first row of row group {@code group}: the
     * positions of its row index entry, PRESENT first when the stripe has that stream (ORC's
     * writer drops its positions when it drops the stream), then its other streams in the order
     * of the ORC specification's column encodings.
     */
    void seek(RowIndexes indexes, int group)
    {
        PositionCursor positions = indexes.positions(column, group);
        if (present != null) {
            present.seek(positions);
        }
        seekValues(positions, indexes, group);
    }

    abstract void seekValues(PositionCursor positions, RowIndexes indexes, int group);

    /**
     * Appends the next {@code count} values (of present entries) to the batch's values.
     */
    abstract void readValues(int count);

    abstract void skipValues(long count);

    /**
     * Fills {@code vector} with {@code slots} slots: the batch's entry {@code e} goes to slot
     * {@code slotOfEntry[e]} (ascending), or to slot {@code e} when {@code slotOfEntry} is null
     * (then there are as many entries as slots); slots no entry goes to are null.
     */
    abstract void write(FieldVector vector, int slots, int[] slotOfEntry);

    /**
     * The heap bytes the batch's values take, to size the next batch.
     */
    abstract long batchBytes();

    /**
     * Adds the type ids of the columns this decoder reads (itself and the children it reads).
     */
    void collectColumns(Set<Integer> columns)
    {
        if (column >= 0) {
            columns.add(column);
        }
    }

    static int grow(int current, int needed)
    {
        long size = Math.max(needed, Math.max(16, current + (current >> 1)));
        return (int) Math.min(size, Integer.MAX_VALUE - 16);
    }

    /**
     * The slot of entry {@code entry}.
     */
    static int slot(int[] slotOfEntry, int entry)
    {
        return slotOfEntry == null ? entry : slotOfEntry[entry];
    }
}
