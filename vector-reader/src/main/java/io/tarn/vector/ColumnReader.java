package io.tarn.vector;

import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.DataPageHeader;
import org.apache.parquet.format.DataPageHeaderV2;
import org.apache.parquet.format.DictionaryPageHeader;
import org.apache.parquet.format.Encoding;
import org.apache.parquet.format.OffsetIndex;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.PageLocation;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.Type;

import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;

import static java.util.Objects.requireNonNull;

/**
 * Reads one primitive column of one row group: walks the pages of the column chunk, decodes
 * repetition and definition levels through a small window and values in bulk, and appends whole
 * rows to the batch arrays ({@link #definitions}, {@link #repetitions}, {@link #values}).
 * <p>
 * Rows are counted by repetition level 0. A page whose row count is known before decompressing
 * it (offset index, v2 header, or v1 header of a non-repeated column) is skipped whole when a
 * skip covers it. Decoders report corruption as {@link CorruptDataException}; the caller adds the
 * file and column. Pages carrying a CRC-32 are verified before they are decoded.
 */
final class ColumnReader
{
    private static final int WINDOW = 4096;
    // what a read of a chunk without exact loads loads at once, past the page it needs: the
    // whole chunk is never held, so that a row group of large values does not sit on the heap whole
    static final int READ_AHEAD = 1 << 20;
    // enough for the page headers writers produce; a longer one (large statistics) is loaded on
    private static final int HEADER_GUESS = 1 << 12;
    private static final int MAX_PAGE_SIZE = 1 << 30;
    // far above what writers produce (parquet-mr closes pages at 20,000 rows); bounds arrays sized by a page header
    private static final int MAX_PAGE_VALUES = 1 << 24;

    private final Type type;
    private final int typeLength;
    private final int maxDefinition;
    private final int maxRepetition;
    private final boolean hasLevels;
    // the loaded part of the chunk: chunk offsets [bufferStart, bufferEnd) at chunk[0..]
    private byte[] chunk = new byte[0];
    private int bufferStart;
    private int bufferEnd;
    private final int chunkSize;
    private final long rowGroupRows;
    private final List<PageLocation> pages;
    private final PageDecompressor decompressor;
    private final ReaderCounters counters;
    // where the chunk lies in the file
    private final long chunkStart;
    private final ChunkLoader loader;
    // loads only the pages opened (a sparse selection), never bytes ahead of them
    private final boolean exactLoads;

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

    // page walking
    private int chunkPosition;
    private int dataPageIndex;
    private long pagesRowStart;
    private ValueBuffer dictionary;
    private DictionaryDecoder.Words dictionaryWords;
    private PageHeader pendingHeader;
    private int pendingBodyOffset;
    private byte[] pageBuffer = new byte[0];

    // the open page
    private boolean pageOpen;
    private int pageEntriesLeft;
    private RleBitPackedDecoder repetitionDecoder;
    private RleBitPackedDecoder definitionDecoder;
    private ValuesDecoder valuesDecoder;
    private boolean pageStartsRows;
    private boolean firstWindow;
    private long lastSkippedRows;

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
     * A reader of a chunk of {@code chunkSize} bytes that starts at file offset {@code chunkStart},
     * whose bytes {@code loader} loads as the pages are reached: besides the open page, at most
     * {@link #READ_AHEAD} bytes are held. With {@code exactLoads}, which needs the offset index,
     * each data page is loaded when it is opened, pages skipped by the offset index never are,
     * and nothing is read ahead.
     */
    ColumnReader(SchemaNode leaf, ColumnMetaData metadata, int chunkSize, long chunkStart, long rowGroupRows, OffsetIndex offsetIndex, ReaderCounters counters,
            ChunkLoader loader, boolean exactLoads)
    {
        requireNonNull(leaf, "leaf is null");
        this.type = leaf.element().getType();
        this.typeLength = leaf.element().isSetType_length() ? leaf.element().getType_length() : 0;
        this.maxDefinition = leaf.definitionLevel();
        this.maxRepetition = leaf.repetitionLevel();
        this.hasLevels = maxDefinition > 0 || maxRepetition > 0;
        if (chunkSize < 0) {
            throw new IllegalArgumentException("Negative chunk size " + chunkSize);
        }
        this.chunkSize = chunkSize;
        this.rowGroupRows = rowGroupRows;
        this.pages = offsetIndex == null ? null : offsetIndex.getPage_locations();
        this.decompressor = new PageDecompressor(metadata.getCodec());
        this.counters = requireNonNull(counters, "counters is null");
        this.chunkStart = chunkStart;
        if (exactLoads && pages == null) {
            throw new IllegalArgumentException("A chunk loaded page by page needs an offset index");
        }
        this.loader = requireNonNull(loader, "loader is null");
        this.exactLoads = exactLoads;
    }

    /**
     * Loads bytes of a column chunk from the file: {@code length} bytes at chunk offset
     * {@code offset} into {@code target} from {@code targetOffset}. I/O failures surface as
     * {@link java.io.UncheckedIOException}.
     */
    interface ChunkLoader
    {
        void load(int offset, byte[] target, int targetOffset, int length);
    }

    /**
     * The heap this reader holds: the loaded part of the chunk, the decompressed page, the
     * dictionary and the batch arrays.
     */
    long retainedBytes()
    {
        long bytes = (long) chunk.length + pageBuffer.length + values.retainedBytes()
                + 4L * (definitions.length + repetitions.length + valueIds.length);
        if (dictionary != null) {
            bytes += dictionary.retainedBytes();
        }
        return bytes;
    }

    /**
     * The decoded size of the batch so far: its values and levels.
     */
    long batchBytes()
    {
        long valueBytes = type == Type.BYTE_ARRAY || type == Type.FIXED_LEN_BYTE_ARRAY ? values.byteCount() : 0;
        return valueBytes + 8L * values.count + 4L * entries + 4L * valueIdCount;
    }

    /**
     * Makes chunk bytes [{@code from}, {@code to}) available at {@code chunk[from - bufferStart]};
     * what lies before {@code from} may be dropped. Without exact loads, it reads up to
     * {@link #READ_AHEAD} bytes past {@code from} at once.
     */
    private void ensureLoaded(int from, int to)
    {
        if (from >= bufferStart && to <= bufferEnd) {
            return;
        }
        int end = exactLoads ? to : Math.max(to, (int) Math.min(chunkSize, (long) from + READ_AHEAD));
        int kept = from >= bufferStart && from < bufferEnd ? bufferEnd - from : 0;
        int length = end - from;
        byte[] target = chunk;
        if (target.length < length) {
            // the chunk size bounds the buffer: the read-ahead and pages never pass its end
            target = new byte[Math.min(ValueBuffer.grow(chunk.length, length), Math.max(length, chunkSize))];
        }
        if (kept > 0) {
            System.arraycopy(chunk, from - bufferStart, target, 0, kept);
        }
        loader.load(from + kept, target, kept, length - kept);
        chunk = target;
        bufferStart = from;
        bufferEnd = end;
    }

    /**
     * Where chunk offset {@code offset}, which must be loaded, lies in {@link #chunk}.
     */
    private int local(int offset)
    {
        return offset - bufferStart;
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
     * The dictionary of the row group's pages, or null before its dictionary page or when it has
     * none.
     */
    ValueBuffer dictionary()
    {
        return dictionary;
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
        else if (recordsDictionaryIds && valuesDecoder instanceof DictionaryDecoder dictionaryDecoder) {
            appendValueIds(dictionaryDecoder.readBinaryWithIds(values, count), count);
        }
        else {
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
                    if (!keep && skipWholePage(rowsLeft)) {
                        rowsLeft -= lastSkippedRows;
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
                    if (rowsLeft == 0 && (maxRepetition == 0 || nextPageStartsRows())) {
                        return;
                    }
                    if (!keep && rowsLeft > 0 && skipWholePage(rowsLeft)) {
                        rowsLeft -= lastSkippedRows;
                        continue;
                    }
                    if (!hasNextPage()) {
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
                if (gap > 0 && skipWholePage(gap)) {
                    row += (int) lastSkippedRows;
                    continue;
                }
                if (!hasNextPage()) {
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
        else if (recordsDictionaryIds && valuesDecoder instanceof DictionaryDecoder dictionaryDecoder) {
            appendValueIds(dictionaryDecoder.readSelectedBinaryWithIds(values, count, mask), kept);
        }
        else {
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

    /**
     * Skips the next data page without decompressing it when its row count is known and at most
     * {@code rows}.
     */
    private boolean skipWholePage(long rows)
    {
        if (pendingHeader == null && pages != null && dataPageIndex == 0) {
            readLeadingPages();
        }
        if (pendingHeader == null && atIndexedPage()) {
            // the offset index knows the page's rows and bytes: skipped without its header, so a
            // lazily loaded chunk never loads it
            long pageRows = pendingPageRows();
            if (pageRows > rows) {
                return false;
            }
            PageLocation page = pages.get(dataPageIndex);
            chunkPosition = checkedPageEnd(page);
            dataPageIndex++;
            counters.pagesSkipped++;
            lastSkippedRows = pageRows;
            pagesRowStart += pageRows;
            return true;
        }
        if (!hasNextPage()) {
            return false;
        }
        long pageRows = pendingPageRows();
        if (pageRows < 0 || pageRows > rows) {
            return false;
        }
        pendingHeader = null;
        dataPageIndex++;
        counters.pagesSkipped++;
        lastSkippedRows = pageRows;
        pagesRowStart += pageRows;
        return true;
    }

    private boolean nextPageStartsRows()
    {
        if (pages != null) {
            // offset-indexed pages start at row boundaries, and so does the end of the chunk
            return true;
        }
        if (!hasNextPage()) {
            return true;
        }
        return pages != null || pendingHeader.getType() == PageType.DATA_PAGE_V2;
    }

    /**
     * The row count of the pending data page when known without decoding it, otherwise -1.
     */
    private long pendingPageRows()
    {
        if (pages != null && dataPageIndex < pages.size()) {
            long first = pages.get(dataPageIndex).getFirst_row_index();
            long next = dataPageIndex + 1 < pages.size() ? pages.get(dataPageIndex + 1).getFirst_row_index() : rowGroupRows;
            if (first != pagesRowStart || next < first || next > rowGroupRows) {
                throw new CorruptDataException("Offset index page " + dataPageIndex + " has an invalid first row " + first);
            }
            return next - first;
        }
        if (pendingHeader.getType() == PageType.DATA_PAGE_V2) {
            return pendingHeader.getData_page_header_v2().getNum_rows();
        }
        if (maxRepetition == 0) {
            return pendingHeader.getData_page_header().getNum_values();
        }
        return -1;
    }

    /**
     * Parses headers up to the next data page (reading a dictionary page on the way) and leaves
     * it pending; false at the end of the chunk.
     */
    private boolean hasNextPage()
    {
        while (pendingHeader == null) {
            if (chunkPosition >= chunkSize) {
                return false;
            }
            parseHeaderAtPosition();
        }
        return true;
    }

    /**
     * Parses the page header at the chunk position and moves past the page: a dictionary page is
     * read, a data page left pending, any other page passed over.
     */
    private void parseHeaderAtPosition()
    {
        // the header ends before this: an indexed page's end, for exact loads the first indexed page
        int limit = chunkSize;
        if (atIndexedPage()) {
            limit = checkedPageEnd(pages.get(dataPageIndex));
        }
        else if (exactLoads && dataPageIndex == 0 && chunkPosition < pages.get(0).getOffset() - chunkStart) {
            limit = (int) (pages.get(0).getOffset() - chunkStart);
        }
        // an indexed page is loaded with its header in one read when loads are exact
        ensureLoaded(chunkPosition, exactLoads && atIndexedPage() ? limit : (int) Math.min(limit, (long) chunkPosition + HEADER_GUESS));
        PageHeader header;
        int headerLength;
        while (true) {
            header = new PageHeader();
            try {
                headerLength = ParquetFooter.readThrift(header, chunk, local(chunkPosition), Math.min(limit, bufferEnd) - chunkPosition, "", "page header");
                break;
            }
            catch (ParquetCorruptionException e) {
                if (bufferEnd >= limit) {
                    throw new CorruptDataException("Corrupt page header at chunk offset " + chunkPosition + ": " + e.getCause().getMessage());
                }
                // a header longer than the bytes loaded (large statistics): load more
                ensureLoaded(chunkPosition, (int) Math.min(limit, chunkPosition + 2L * (bufferEnd - chunkPosition)));
            }
        }
        int bodyOffset = chunkPosition + headerLength;
        int compressedSize = header.getCompressed_page_size();
        int uncompressedSize = header.getUncompressed_page_size();
        if (header.getType() == null || compressedSize < 0 || uncompressedSize < 0 || compressedSize > chunkSize - bodyOffset) {
            throw new CorruptDataException("Page header at chunk offset " + chunkPosition + " declares " + compressedSize + " bytes, past the end of the column chunk");
        }
        chunkPosition = bodyOffset + compressedSize;
        switch (header.getType()) {
            case DICTIONARY_PAGE -> readDictionary(header, bodyOffset);
            case DATA_PAGE, DATA_PAGE_V2 -> {
                if (header.getType() == PageType.DATA_PAGE ? !header.isSetData_page_header() : !header.isSetData_page_header_v2()) {
                    throw new CorruptDataException("Data page header without its " + header.getType() + " details");
                }
                pendingHeader = header;
                pendingBodyOffset = bodyOffset;
            }
            default -> {
                // index pages carry nothing a reader needs
            }
        }
    }

    /**
     * Reads the pages before the first data page the offset index lists (a dictionary page).
     */
    private void readLeadingPages()
    {
        long firstDataPage = pages.get(0).getOffset() - chunkStart;
        while (pendingHeader == null && dataPageIndex == 0 && chunkPosition < firstDataPage) {
            parseHeaderAtPosition();
        }
    }

    /**
     * Whether the chunk position is at the start of the next data page the offset index lists.
     */
    private boolean atIndexedPage()
    {
        return pages != null && dataPageIndex < pages.size() && chunkPosition == pages.get(dataPageIndex).getOffset() - chunkStart;
    }

    private int checkedPageEnd(PageLocation page)
    {
        long end = page.getOffset() - chunkStart + page.getCompressed_page_size();
        if (page.getCompressed_page_size() <= 0 || end > chunkSize) {
            throw new CorruptDataException("Offset index page " + dataPageIndex + " of " + page.getCompressed_page_size() + " bytes ends past the column chunk");
        }
        return (int) end;
    }

    private void readDictionary(PageHeader header, int bodyOffset)
    {
        if (dictionary != null || dataPageIndex > 0 || pageOpen) {
            throw new CorruptDataException("Dictionary page after the first page");
        }
        if (!header.isSetDictionary_page_header()) {
            throw new CorruptDataException("Dictionary page without a dictionary header");
        }
        DictionaryPageHeader dictionaryHeader = header.getDictionary_page_header();
        Encoding encoding = dictionaryHeader.getEncoding();
        if (encoding != Encoding.PLAIN && encoding != Encoding.PLAIN_DICTIONARY) {
            throw new UnsupportedEncodingException("Dictionary page encoding " + encoding);
        }
        int count = dictionaryHeader.getNum_values();
        if (count < 0) {
            throw new CorruptDataException("Dictionary page with " + count + " values");
        }
        ensureLoaded(bodyOffset, bodyOffset + header.getCompressed_page_size());
        verifyChecksum(header, chunk, local(bodyOffset));
        byte[] body = decompress(header, local(bodyOffset), header.getCompressed_page_size(), header.getUncompressed_page_size(), true);
        int bodyStart = body == chunk ? local(bodyOffset) : 0;
        ValueBuffer decoded = new ValueBuffer();
        PlainDecoders.create(type, typeLength, body, bodyStart, bodyStart + header.getUncompressed_page_size()).read(decoded, count);
        dictionary = decoded;
        if (type == Type.BYTE_ARRAY || type == Type.FIXED_LEN_BYTE_ARRAY) {
            dictionaryWords = new DictionaryDecoder.Words(decoded);
        }
    }

    private byte[] decompress(PageHeader header, int offset, int compressedSize, int uncompressedSize, boolean own)
    {
        if (uncompressedSize > MAX_PAGE_SIZE) {
            throw new CorruptDataException("Page of " + uncompressedSize + " uncompressed bytes exceeds the limit of " + MAX_PAGE_SIZE);
        }
        if (!PageDecompressor.isSupported(decompressor.codec())) {
            throw new UnsupportedEncodingException("Compression codec " + decompressor.codec());
        }
        if (decompressor.codec() == org.apache.parquet.format.CompressionCodec.UNCOMPRESSED) {
            if (compressedSize != uncompressedSize) {
                throw new CorruptDataException("Uncompressed page declares " + compressedSize + " stored but " + uncompressedSize + " uncompressed bytes");
            }
            return chunk;
        }
        if (uncompressedSize > 64L * 1024 * 1024 && uncompressedSize / 1024 > Math.max(compressedSize, 1)) {
            throw new CorruptDataException("Page claims " + uncompressedSize + " uncompressed bytes from " + compressedSize + " compressed bytes");
        }
        byte[] target;
        if (own) {
            target = new byte[uncompressedSize];
        }
        else {
            if (pageBuffer.length < uncompressedSize) {
                pageBuffer = new byte[ValueBuffer.grow(pageBuffer.length, uncompressedSize)];
            }
            target = pageBuffer;
        }
        decompressor.decompress(chunk, offset, compressedSize, target, uncompressedSize);
        return target;
    }

    private void openNextPage()
    {
        if (!hasNextPage()) {
            throw new CorruptDataException("Column chunk has no more data pages");
        }
        PageHeader header = pendingHeader;
        long knownRows = pendingPageRows();
        pendingHeader = null;
        dataPageIndex++;
        counters.pagesRead++;
        // the page's bytes stay loaded while it is open: nothing is loaded before it is done
        ensureLoaded(pendingBodyOffset, pendingBodyOffset + header.getCompressed_page_size());
        int bodyOffset = local(pendingBodyOffset);
        verifyChecksum(header, chunk, bodyOffset);
        int compressedSize = header.getCompressed_page_size();
        int uncompressedSize = header.getUncompressed_page_size();
        int valueCount;
        Encoding encoding;
        byte[] data;
        int position;
        int end;
        if (header.getType() == PageType.DATA_PAGE) {
            DataPageHeader page = header.getData_page_header();
            valueCount = page.getNum_values();
            encoding = page.getEncoding();
            checkValueCount(valueCount);
            data = decompress(header, bodyOffset, compressedSize, uncompressedSize, false);
            position = data == chunk ? bodyOffset : 0;
            end = position + uncompressedSize;
            if (maxRepetition > 0) {
                checkLevelEncoding(page.getRepetition_level_encoding());
                repetitionDecoder = RleBitPackedDecoder.withLengthPrefix(data, position, end, bitWidth(maxRepetition));
                position = repetitionDecoder.end();
            }
            if (maxDefinition > 0) {
                checkLevelEncoding(page.getDefinition_level_encoding());
                definitionDecoder = RleBitPackedDecoder.withLengthPrefix(data, position, end, bitWidth(maxDefinition));
                position = definitionDecoder.end();
            }
            pageStartsRows = pages != null;
        }
        else {
            DataPageHeaderV2 page = header.getData_page_header_v2();
            valueCount = page.getNum_values();
            encoding = page.getEncoding();
            checkValueCount(valueCount);
            int repetitionLength = page.getRepetition_levels_byte_length();
            int definitionLength = page.getDefinition_levels_byte_length();
            if (repetitionLength < 0 || definitionLength < 0 || (long) repetitionLength + definitionLength > Math.min(compressedSize, uncompressedSize)) {
                throw new CorruptDataException("Data page v2 level lengths " + repetitionLength + " + " + definitionLength + " exceed the page");
            }
            int levelsLength = repetitionLength + definitionLength;
            int valuesCompressed = compressedSize - levelsLength;
            int valuesUncompressed = uncompressedSize - levelsLength;
            boolean compressed = !page.isSetIs_compressed() || page.isIs_compressed();
            if (compressed && decompressor.codec() != org.apache.parquet.format.CompressionCodec.UNCOMPRESSED) {
                byte[] values = decompress(header, bodyOffset + levelsLength, valuesCompressed, valuesUncompressed, false);
                // levels stay in the chunk; values come from the decompressed buffer
                data = values;
                position = 0;
                end = valuesUncompressed;
            }
            else {
                if (valuesCompressed != valuesUncompressed) {
                    throw new CorruptDataException("Uncompressed data page v2 declares " + compressedSize + " stored but " + uncompressedSize + " uncompressed bytes");
                }
                data = chunk;
                position = bodyOffset + levelsLength;
                end = position + valuesUncompressed;
            }
            repetitionDecoder = maxRepetition > 0 ? new RleBitPackedDecoder(chunk, bodyOffset, repetitionLength, bitWidth(maxRepetition)) : null;
            definitionDecoder = maxDefinition > 0 ? new RleBitPackedDecoder(chunk, bodyOffset + repetitionLength, definitionLength, bitWidth(maxDefinition)) : null;
            pageStartsRows = true;
            if (knownRows > valueCount) {
                throw new CorruptDataException("Data page v2 has " + knownRows + " rows but only " + valueCount + " values");
            }
        }
        valuesDecoder = valuesDecoder(encoding, data, position, end, valueCount);
        if (knownRows >= 0) {
            pagesRowStart += knownRows;
        }
        pageOpen = true;
        firstWindow = true;
        pageEntriesLeft = valueCount;
        windowPosition = 0;
        windowLength = 0;
    }

    /**
     * Checks the optional CRC-32 of the page as stored (after the header, before decompression).
     */
    static void verifyChecksum(PageHeader header, byte[] bytes, int bodyOffset)
    {
        if (!header.isSetCrc()) {
            return;
        }
        CRC32 crc = new CRC32();
        crc.update(bytes, bodyOffset, header.getCompressed_page_size());
        if ((int) crc.getValue() != header.getCrc()) {
            throw new CorruptDataException("Page checksum mismatch: stored " + Integer.toHexString(header.getCrc()) + ", computed " + Long.toHexString(crc.getValue()));
        }
    }

    private static void checkValueCount(int valueCount)
    {
        if (valueCount < 0 || valueCount > MAX_PAGE_VALUES) {
            throw new CorruptDataException("Data page declares " + valueCount + " values");
        }
    }

    private static void checkLevelEncoding(Encoding encoding)
    {
        if (encoding != Encoding.RLE) {
            throw new UnsupportedEncodingException("Level encoding " + encoding);
        }
    }

    private ValuesDecoder valuesDecoder(Encoding encoding, byte[] data, int position, int end, int valueCount)
    {
        if (encoding == null) {
            throw new CorruptDataException("Data page without an encoding");
        }
        return switch (encoding) {
            case PLAIN -> PlainDecoders.create(type, typeLength, data, position, end);
            case PLAIN_DICTIONARY, RLE_DICTIONARY -> {
                if (dictionary == null) {
                    throw new CorruptDataException("Dictionary-encoded page without a dictionary page");
                }
                yield new DictionaryDecoder(dictionary, dictionaryWords, type, data, position, end);
            }
            case RLE -> {
                if (type != Type.BOOLEAN) {
                    throw new UnsupportedEncodingException("RLE encoding of " + type + " values");
                }
                yield new RleBooleanDecoder(data, position, end);
            }
            case DELTA_BINARY_PACKED -> {
                if (type != Type.INT32 && type != Type.INT64) {
                    throw new CorruptDataException("DELTA_BINARY_PACKED encoding of " + type + " values");
                }
                yield new DeltaBinaryPackedDecoder(data, position, end, type == Type.INT32);
            }
            case DELTA_LENGTH_BYTE_ARRAY -> {
                if (type != Type.BYTE_ARRAY) {
                    throw new CorruptDataException("DELTA_LENGTH_BYTE_ARRAY encoding of " + type + " values");
                }
                yield new DeltaLengthByteArrayDecoder(data, position, end, valueCount);
            }
            case DELTA_BYTE_ARRAY -> {
                if (type != Type.BYTE_ARRAY && type != Type.FIXED_LEN_BYTE_ARRAY) {
                    throw new CorruptDataException("DELTA_BYTE_ARRAY encoding of " + type + " values");
                }
                yield new DeltaByteArrayDecoder(data, position, end, valueCount);
            }
            case BYTE_STREAM_SPLIT -> new ByteStreamSplitDecoder(type, typeLength, data, position, end);
            default -> throw new UnsupportedEncodingException("Value encoding " + encoding);
        };
    }

    static int bitWidth(int maxLevel)
    {
        return 32 - Integer.numberOfLeadingZeros(maxLevel);
    }

    /**
     * An encoding or codec this reader does not implement; becomes a
     * {@link ParquetUnsupportedException}.
     */
    static final class UnsupportedEncodingException
            extends RuntimeException
    {
        UnsupportedEncodingException(String message)
        {
            super(message + " is not supported");
        }
    }
}
