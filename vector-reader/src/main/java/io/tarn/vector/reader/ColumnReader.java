package io.tarn.vector.reader;

import io.tarn.vector.CorruptDataException;
import io.tarn.vector.metadata.SchemaNode;
import io.tarn.vector.reader.decoders.DictionaryDecoder;
import io.tarn.vector.reader.decoders.MatchBits;
import io.tarn.vector.reader.decoders.RleBitPackedDecoder;
import io.tarn.vector.reader.decoders.SelectionMasks;
import io.tarn.vector.reader.decoders.UnsupportedEncodingException;
import io.tarn.vector.reader.decoders.ValueBuffer;
import io.tarn.vector.reader.decoders.ValueMatcher;
import io.tarn.vector.reader.decoders.ValuesDecoder;
import io.tarn.vector.reader.decoders.ValuesDecoders;
import org.apache.parquet.format.Encoding;
import org.apache.parquet.format.Type;

import java.util.Arrays;

import static java.util.Objects.requireNonNull;

/**
 * Reads one primitive column of one row group: takes the data pages its {@link PageReader} opens,
 * decodes repetition and definition levels through a small window and values in bulk, and
 * appends whole rows to the batch arrays ({@link #definitions}, {@link #repetitions},
 * {@link #values}).
 * <p>
 * Rows are counted by repetition level 0. Skipped rows that cover a whole page whose row count
 * is known are left to the page reader, which skips the page undecoded. Decoders report
 * corruption as {@link CorruptDataException}; the caller adds the file and column.
 */
final class ColumnReader
{
    private static final int WINDOW = 4096;

    private final Type type;
    private final int typeLength;
    private final int maxDefinition;
    private final int maxRepetition;
    private final boolean hasLevels;
    private final PageReader pages;

    // batch output
    int[] definitions = new int[0];
    int[] repetitions = new int[0];
    int entries;
    final ValueBuffer values = new ValueBuffer();
    // with a matcher, the batch's values are reduced to their verdicts here and values stays empty
    private ValueMatcher matcher;
    final MatchBits matches = new MatchBits();
    // when recording: the dictionary id of each value of the batch, complete while every value
    // came from a dictionary-encoded page
    private boolean recordsDictionaryIds;
    int[] valueIds = new int[0];
    int valueIdCount;
    boolean valueIdsComplete;
    // whether the values of dictionary-encoded pages are left as their ids; and for the batch,
    // whether every value so far is held only by its id (values stays empty)
    private boolean leavesValuesAsIds;
    private boolean valuesLeftAsIds;

    // the open page
    private boolean pageOpen;
    private int pageEntriesLeft;
    private RleBitPackedDecoder repetitionDecoder;
    private RleBitPackedDecoder definitionDecoder;
    private ValuesDecoder valuesDecoder;
    private boolean pageStartsRows;
    private boolean firstWindow;

    // decoded but not consumed levels of the open page
    private final int[] windowRepetitions = new int[WINDOW];
    private final int[] windowDefinitions = new int[WINDOW];
    private int windowPosition;
    private int windowLength;
    // the definition level of every entry of the window when they all come from one RLE run, else -1
    private int windowLevel = -1;
    // the rows of a selection within one stretch of a page, and the values among them
    private long[] pieceMask = new long[0];
    private long[] valueMask = new long[0];

    /**
     * A reader of the values of {@code leaf} in the pages {@code pages} hands out.
     */
    ColumnReader(SchemaNode leaf, PageReader pages)
    {
        requireNonNull(leaf, "leaf is null");
        this.type = leaf.element().getType();
        this.typeLength = leaf.element().isSetType_length() ? leaf.element().getType_length() : 0;
        this.maxDefinition = leaf.definitionLevel();
        this.maxRepetition = leaf.repetitionLevel();
        this.hasLevels = maxDefinition > 0 || maxRepetition > 0;
        this.pages = requireNonNull(pages, "pages is null");
    }

    /**
     * The heap this reader holds: the loaded part of the chunk, the decompressed page, the
     * dictionary and the batch arrays.
     */
    long retainedBytes()
    {
        return pages.retainedBytes() + values.retainedBytes() + 4L * (definitions.length + repetitions.length + valueIds.length);
    }

    /**
     * The decoded size of the batch so far: its values and levels.
     */
    long batchBytes()
    {
        long valueBytes = type == Type.BYTE_ARRAY || type == Type.FIXED_LEN_BYTE_ARRAY ? values.byteCount() : 0;
        return valueBytes + 8L * values.count + 4L * entries + 4L * valueIdCount;
    }

    int maxDefinition()
    {
        return maxDefinition;
    }

    int maxRepetition()
    {
        return maxRepetition;
    }

    void startBatch()
    {
        entries = 0;
        values.reset();
        matches.reset();
        valueIdCount = 0;
        valueIdsComplete = true;
        valuesLeftAsIds = leavesValuesAsIds;
    }

    /**
     * From now on, also records the dictionary id of each value read ({@link #valueIds}) where
     * its page is dictionary-encoded. Binary columns only.
     */
    void recordDictionaryIds()
    {
        if (type != Type.BYTE_ARRAY) {
            throw new IllegalStateException("Dictionary ids of a " + type + " column recorded");
        }
        recordsDictionaryIds = true;
    }

    /**
     * From now on, records the dictionary ids of the values of dictionary-encoded pages without
     * decoding the values: a batch whose values all came from such pages holds them only as ids
     * ({@link #valuesLeftAsIds()}). Where a batch meets a page of another encoding, the values
     * so far are decoded from their ids and the rest of the batch is read as usual. Binary
     * columns only.
     */
    void leaveValuesAsIds()
    {
        recordDictionaryIds();
        leavesValuesAsIds = true;
        valuesLeftAsIds = entries == 0;
    }

    /**
     * Whether the batch's values are held only as their dictionary ids ({@link #valueIds}), and
     * {@link #values} is empty.
     */
    boolean valuesLeftAsIds()
    {
        return valuesLeftAsIds;
    }

    /**
     * The dictionary of the row group's pages, or null before its dictionary page or when it has
     * none.
     */
    ValueBuffer dictionary()
    {
        return pages.dictionary();
    }

    /**
     * Before a page that is not dictionary-encoded: the batch's values so far, held as ids, are
     * decoded from the row group's dictionary (a column chunk has one), so that the values that
     * follow append to them.
     */
    private void decodeValuesLeftAsIds()
    {
        if (valuesLeftAsIds) {
            valuesLeftAsIds = false;
            if (valueIdCount > 0) {
                DictionaryDecoder.appendValues(pages.dictionary(), valueIds, valueIdCount, values);
            }
        }
    }

    private void appendValueIds(int[] ids, int count)
    {
        if (valueIds.length < valueIdCount + count) {
            valueIds = Arrays.copyOf(valueIds, ValueBuffer.grow(valueIds.length, valueIdCount + count));
        }
        System.arraycopy(ids, 0, valueIds, valueIdCount, count);
        valueIdCount += count;
    }

    /**
     * From now on, reduces each value to whether {@code matcher} matches it ({@link #matches})
     * instead of decoding it into {@link #values}. Binary columns only.
     */
    void matchValues(ValueMatcher matcher)
    {
        if (type != Type.BYTE_ARRAY) {
            throw new IllegalStateException("Values of a " + type + " column matched as binary");
        }
        this.matcher = requireNonNull(matcher, "matcher is null");
    }

    private void readValues(int count)
    {
        if (matcher != null) {
            valuesDecoder.match(matcher, count, matches);
        }
        else if (valuesLeftAsIds && valuesDecoder instanceof DictionaryDecoder dictionaryDecoder) {
            appendValueIds(dictionaryDecoder.readIds(count), count);
        }
        else if (recordsDictionaryIds && valuesDecoder instanceof DictionaryDecoder dictionaryDecoder) {
            appendValueIds(dictionaryDecoder.readBinaryWithIds(values, count), count);
        }
        else {
            decodeValuesLeftAsIds();
            valueIdsComplete &= !recordsDictionaryIds;
            valuesDecoder.read(values, count);
        }
    }

    /**
     * Appends the levels and values of the next {@code rows} rows to the batch.
     */
    void readRows(int rows)
    {
        consume(rows, true);
    }

    void skipRows(long rows)
    {
        consume(rows, false);
    }

    private void consume(long rows, boolean keep)
    {
        long rowsLeft = rows;
        while (true) {
            if (!hasLevels) {
                if (rowsLeft == 0) {
                    return;
                }
                if (!pageOpen || pageEntriesLeft == 0) {
                    long skipped = keep ? -1 : pages.skipPage(rowsLeft);
                    if (skipped >= 0) {
                        rowsLeft -= skipped;
                        continue;
                    }
                    openNextPage();
                    continue;
                }
                int n = (int) Math.min(rowsLeft, pageEntriesLeft);
                if (keep) {
                    readValues(n);
                    entries += n;
                }
                else {
                    valuesDecoder.skip(n);
                }
                pageEntriesLeft -= n;
                rowsLeft -= n;
                continue;
            }
            if (windowPosition == windowLength) {
                if (pageOpen && pageEntriesLeft > 0) {
                    fillWindow();
                }
                else {
                    // the open page is done: a new row can only continue on the next page of a v1 repeated column
                    if (rowsLeft == 0 && (maxRepetition == 0 || pages.nextPageStartsRows())) {
                        return;
                    }
                    long skipped = !keep && rowsLeft > 0 ? pages.skipPage(rowsLeft) : -1;
                    if (skipped >= 0) {
                        rowsLeft -= skipped;
                        continue;
                    }
                    if (!pages.hasNextPage()) {
                        if (rowsLeft == 0) {
                            return;
                        }
                        throw new CorruptDataException("Column chunk ends " + rowsLeft + " rows before the end of the row group");
                    }
                    openNextPage();
                    continue;
                }
            }
            int start = windowPosition;
            int end = windowLength;
            int i = start;
            if (maxRepetition == 0) {
                int n = (int) Math.min(rowsLeft, end - start);
                i = start + n;
                rowsLeft -= n;
            }
            else {
                int[] levels = windowRepetitions;
                while (i < end) {
                    if (levels[i] == 0) {
                        if (rowsLeft == 0) {
                            break;
                        }
                        rowsLeft--;
                    }
                    i++;
                }
            }
            int count = i - start;
            int nonNull = count;
            if (maxDefinition > 0 && windowLevel >= 0) {
                nonNull = windowLevel == maxDefinition ? count : 0;
            }
            else if (maxDefinition > 0) {
                nonNull = 0;
                int[] levels = windowDefinitions;
                int max = maxDefinition;
                for (int k = start; k < i; k++) {
                    if (levels[k] == max) {
                        nonNull++;
                    }
                }
            }
            if (keep) {
                ensureBatchCapacity(entries + count);
                System.arraycopy(windowDefinitions, start, definitions, entries, count);
                if (maxRepetition > 0) {
                    System.arraycopy(windowRepetitions, start, repetitions, entries, count);
                }
                entries += count;
                if (nonNull > 0) {
                    readValues(nonNull);
                }
            }
            else if (nonNull > 0) {
                valuesDecoder.skip(nonNull);
            }
            windowPosition = i;
            if (i < end || (maxRepetition == 0 && rowsLeft == 0)) {
                return;
            }
        }
    }

    /**
     * Appends those of the next {@code rows} rows that the {@link SelectionMasks mask}
     * {@code selected} selects: a dense row selection, read without copying the values of the
     * rows it leaves out where the encoding allows, and without decoding pages that hold none of
     * its rows when their row count is known. Only for columns without repetition, where each
     * row is one level entry.
     */
    void readSelectedRows(int rows, long[] selected)
    {
        if (maxRepetition > 0) {
            throw new IllegalStateException("Rows of a repeated column read with a row selection");
        }
        if (pieceMask.length < SelectionMasks.words(rows)) {
            pieceMask = new long[SelectionMasks.words(rows)];
        }
        int row = 0;
        while (row < rows) {
            boolean pageDone = hasLevels ? windowPosition == windowLength && !(pageOpen && pageEntriesLeft > 0) : !pageOpen || pageEntriesLeft == 0;
            if (pageDone) {
                // rows up to the next selected one may cover the next page
                int gap = SelectionMasks.nextSet(selected, row, rows) - row;
                long skipped = gap > 0 ? pages.skipPage(gap) : -1;
                if (skipped >= 0) {
                    row += (int) skipped;
                    continue;
                }
                if (!pages.hasNextPage()) {
                    throw new CorruptDataException("Column chunk ends " + (rows - row) + " rows before the end of the row group");
                }
                openNextPage();
                continue;
            }
            if (!hasLevels) {
                int n = Math.min(rows - row, pageEntriesLeft);
                entries += readSelectedValues(n, SelectionMasks.extract(selected, row, n, pieceMask), pieceMask);
                pageEntriesLeft -= n;
                row += n;
                continue;
            }
            if (windowPosition == windowLength) {
                fillWindow();
            }
            int start = windowPosition;
            int n = Math.min(rows - row, windowLength - start);
            int kept = SelectionMasks.extract(selected, row, n, pieceMask);
            ensureBatchCapacity(entries + n);
            if (windowLevel >= 0) {
                // one level for the whole window: every entry a value, or none
                Arrays.fill(definitions, entries, entries + kept, windowLevel);
                if (windowLevel == maxDefinition) {
                    readSelectedValues(n, kept, pieceMask);
                }
            }
            else {
                readSelectedLevels(start, n);
            }
            entries += kept;
            windowPosition = start + n;
            row += n;
        }
    }

    /**
     * Consumes {@code count} values, keeping the {@code kept} that {@code mask} selects; returns
     * {@code kept}.
     */
    private int readSelectedValues(int count, int kept, long[] mask)
    {
        if (kept == count) {
            readValues(count);
        }
        else if (kept == 0) {
            valuesDecoder.skip(count);
        }
        else if (matcher != null) {
            valuesDecoder.matchSelected(matcher, count, mask, matches);
        }
        else if (valuesLeftAsIds && valuesDecoder instanceof DictionaryDecoder dictionaryDecoder) {
            appendValueIds(dictionaryDecoder.readSelectedIds(count, mask), kept);
        }
        else if (recordsDictionaryIds && valuesDecoder instanceof DictionaryDecoder dictionaryDecoder) {
            appendValueIds(dictionaryDecoder.readSelectedBinaryWithIds(values, count, mask), kept);
        }
        else {
            decodeValuesLeftAsIds();
            valueIdsComplete &= !recordsDictionaryIds;
            valuesDecoder.readSelected(values, count, mask);
        }
        return kept;
    }

    /**
     * Copies the definition levels of the {@code count} window entries from {@code start} that
     * {@link #pieceMask} selects, and reads the values of those that are not null.
     */
    private void readSelectedLevels(int start, int count)
    {
        int[] levels = windowDefinitions;
        int max = maxDefinition;
        long[] rowMask = pieceMask;
        if (valueMask.length < rowMask.length) {
            valueMask = new long[rowMask.length];
        }
        long[] selectedValues = valueMask;
        int value = 0;
        int kept = 0;
        int write = entries;
        long bits = 0;
        for (int e = 0; e < count; e++) {
            int level = levels[start + e];
            long rowSelected = (rowMask[e >>> 6] >>> e) & 1;
            // written always, kept only when the row is selected
            definitions[write] = level;
            write += (int) rowSelected;
            if (level == max) {
                bits |= rowSelected << value;
                kept += (int) rowSelected;
                value++;
                if ((value & 63) == 0) {
                    selectedValues[(value >>> 6) - 1] = bits;
                    bits = 0;
                }
            }
        }
        if ((value & 63) != 0) {
            selectedValues[value >>> 6] = bits;
        }
        readSelectedValues(value, kept, selectedValues);
    }

    private void ensureBatchCapacity(int needed)
    {
        if (definitions.length < needed) {
            definitions = Arrays.copyOf(definitions, ValueBuffer.grow(definitions.length, needed));
            if (maxRepetition > 0) {
                repetitions = Arrays.copyOf(repetitions, definitions.length);
            }
        }
    }

    private void fillWindow()
    {
        int n = Math.min(WINDOW, pageEntriesLeft);
        if (maxRepetition > 0) {
            repetitionDecoder.read(windowRepetitions, 0, n);
            if (windowRepetitions[0] != 0 && pageStartsRows && windowPosition == 0 && firstWindow) {
                throw new CorruptDataException("Data page does not start at a row boundary");
            }
        }
        firstWindow = false;
        windowLevel = -1;
        if (maxDefinition > 0 && definitionDecoder.runLength() >= n && definitionDecoder.isRle()) {
            // the common case of a page without nulls (or only nulls): one run, checked once
            int level = definitionDecoder.rleValue();
            if (Integer.compareUnsigned(level, maxDefinition) > 0) {
                throw new CorruptDataException("Definition level " + level + " is above the maximum " + maxDefinition);
            }
            Arrays.fill(windowDefinitions, 0, n, level);
            definitionDecoder.consumeRle(n);
            windowLevel = level;
        }
        else if (maxDefinition > 0) {
            definitionDecoder.read(windowDefinitions, 0, n);
            for (int k = 0; k < n; k++) {
                if (Integer.compareUnsigned(windowDefinitions[k], maxDefinition) > 0) {
                    throw new CorruptDataException("Definition level " + windowDefinitions[k] + " is above the maximum " + maxDefinition);
                }
            }
        }
        else {
            Arrays.fill(windowDefinitions, 0, n, 0);
        }
        if (maxRepetition > 0) {
            for (int k = 0; k < n; k++) {
                if (Integer.compareUnsigned(windowRepetitions[k], maxRepetition) > 0) {
                    throw new CorruptDataException("Repetition level " + windowRepetitions[k] + " is above the maximum " + maxRepetition);
                }
            }
        }
        pageEntriesLeft -= n;
        windowPosition = 0;
        windowLength = n;
    }

    private void openNextPage()
    {
        PageReader.DataPage page = pages.openNextPage();
        byte[] data = page.data();
        int position = page.position();
        if (page.v2()) {
            repetitionDecoder = maxRepetition > 0 ? new RleBitPackedDecoder(page.levels(), page.levelsOffset(), page.repetitionLength(), bitWidth(maxRepetition)) : null;
            definitionDecoder = maxDefinition > 0
                    ? new RleBitPackedDecoder(page.levels(), page.levelsOffset() + page.repetitionLength(), page.definitionLength(), bitWidth(maxDefinition))
                    : null;
        }
        else {
            if (maxRepetition > 0) {
                checkLevelEncoding(page.repetitionEncoding());
                repetitionDecoder = RleBitPackedDecoder.withLengthPrefix(data, position, page.end(), bitWidth(maxRepetition));
                position = repetitionDecoder.end();
            }
            if (maxDefinition > 0) {
                checkLevelEncoding(page.definitionEncoding());
                definitionDecoder = RleBitPackedDecoder.withLengthPrefix(data, position, page.end(), bitWidth(maxDefinition));
                position = definitionDecoder.end();
            }
        }
        pageStartsRows = page.startsRows();
        valuesDecoder = ValuesDecoders.create(page.encoding(), type, typeLength, data, position, page.end(), page.valueCount(), pages.dictionary(), pages.dictionaryWords());
        pageOpen = true;
        firstWindow = true;
        pageEntriesLeft = page.valueCount();
        windowPosition = 0;
        windowLength = 0;
    }

    private static void checkLevelEncoding(Encoding encoding)
    {
        if (encoding != Encoding.RLE) {
            throw new UnsupportedEncodingException("Level encoding " + encoding);
        }
    }

    static int bitWidth(int maxLevel)
    {
        return 32 - Integer.numberOfLeadingZeros(maxLevel);
    }
}
