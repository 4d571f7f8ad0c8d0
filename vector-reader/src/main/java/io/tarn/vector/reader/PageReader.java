package io.tarn.vector.reader;

import io.tarn.vector.CorruptDataException;
import io.tarn.vector.ParquetCorruptionException;
import io.tarn.vector.metadata.ParquetFooter;
import io.tarn.vector.reader.decoders.DictionaryDecoder;
import io.tarn.vector.reader.decoders.PageDecompressor;
import io.tarn.vector.reader.decoders.UnsupportedEncodingException;
import io.tarn.vector.reader.decoders.ValueBuffer;
import io.tarn.vector.reader.decoders.ValuesDecoders;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.CompressionCodec;
import org.apache.parquet.format.DataPageHeader;
import org.apache.parquet.format.DataPageHeaderV2;
import org.apache.parquet.format.DictionaryPageHeader;
import org.apache.parquet.format.Encoding;
import org.apache.parquet.format.OffsetIndex;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.PageLocation;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.Type;

import java.util.List;
import java.util.zip.CRC32;

import static java.util.Objects.requireNonNull;

/**
 * Walks the pages of one column chunk: parses page headers, reads the dictionary page, verifies
 * page checksums, decompresses data pages and skips whole pages whose row count is known without
 * decompressing them (from the offset index, a v2 header, or the v1 header of a non-repeated
 * column). What a data page holds (levels and values) is the {@link ColumnReader}'s business.
 * <p>
 * The chunk is loaded lazily through a {@link ChunkLoader}: besides the open page, at most
 * the loader's read size is held, or, with exact loads, only the pages opened; the whole chunk is
 * never held, so that a row group of large values does not sit on the heap whole. Violations of
 * the format are reported as {@link CorruptDataException}; the caller adds file and column.
 */
final class PageReader
{
    // enough for the page headers writers produce; a longer one (large statistics) is loaded on
    private static final int HEADER_GUESS = 1 << 12;
    private static final int MAX_PAGE_SIZE = 1 << 30;
    // far above what writers produce (parquet-mr closes pages at 20,000 rows); bounds arrays sized by a page header
    private static final int MAX_PAGE_VALUES = 1 << 24;

    private final Type type;
    private final int typeLength;
    private final int maxRepetition;
    // the loaded part of the chunk: chunk offsets [bufferStart, bufferEnd) at chunk[0..]
    private byte[] chunk = new byte[0];
    private int bufferStart;
    private int bufferEnd;
    private final int chunkSize;
    private final long rowGroupRows;
    private final List<PageLocation> pages;
    private final PageDecompressor decompressor;
    private final ReaderMetrics.Accumulator metrics;
    // where the chunk lies in the file
    private final long chunkStart;
    private final ChunkLoader loader;
    // loads only the pages opened (a sparse selection), never bytes ahead of them
    private final boolean exactLoads;

    private int chunkPosition;
    private int dataPageIndex;
    private long pagesRowStart;
    private ValueBuffer dictionary;
    private DictionaryDecoder.Words dictionaryWords;
    private PageHeader pendingHeader;
    private int pendingBodyOffset;
    private byte[] pageBuffer = new byte[0];

    /**
     * A reader of a chunk of {@code chunkSize} bytes that starts at file offset {@code chunkStart},
     * whose bytes {@code loader} loads as the pages are reached. With {@code exactLoads}, which
     * needs the offset index, each data page is loaded when it is opened, pages skipped by the
     * offset index never are, and nothing is read ahead.
     */
    PageReader(Type type, int typeLength, int maxRepetition, ColumnMetaData metadata, int chunkSize, long chunkStart, long rowGroupRows, OffsetIndex offsetIndex,
            ReaderMetrics.Accumulator metrics, ChunkLoader loader, boolean exactLoads)
    {
        this.type = requireNonNull(type, "type is null");
        this.typeLength = typeLength;
        this.maxRepetition = maxRepetition;
        if (chunkSize < 0) {
            throw new IllegalArgumentException("Negative chunk size " + chunkSize);
        }
        this.chunkSize = chunkSize;
        this.rowGroupRows = rowGroupRows;
        this.pages = offsetIndex == null ? null : offsetIndex.getPage_locations();
        this.decompressor = new PageDecompressor(metadata.getCodec());
        this.metrics = requireNonNull(metrics, "metrics is null");
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

        /**
         * What a load without exact loads fetches at once past the bytes it needs.
         */
        int readSize();
    }

    /**
     * An opened data page, a view of this reader's buffers valid until the next page is opened.
     * A v1 page holds its length-prefixed repetition and definition levels (if any) and then its
     * values in {@code data[position, end)}; a v2 page holds its levels uncompressed in
     * {@code levels} from {@code levelsOffset} ({@code repetitionLength} bytes of repetition
     * levels, then {@code definitionLength} of definition levels) and only its values in
     * {@code data[position, end)}. {@code startsRows} is whether the page starts at a row
     * boundary by contract.
     */
    record DataPage(boolean v2, int valueCount, Encoding encoding, Encoding repetitionEncoding, Encoding definitionEncoding, byte[] levels, int levelsOffset,
            int repetitionLength, int definitionLength, byte[] data, int position, int end, boolean startsRows) {}

    /**
     * The heap this reader holds: the loaded part of the chunk, the decompressed page and the
     * dictionary.
     */
    long retainedBytes()
    {
        long bytes = (long) chunk.length + pageBuffer.length;
        if (dictionary != null) {
            bytes += dictionary.retainedBytes();
        }
        return bytes;
    }

    /**
     * The dictionary of the row group's pages, or null before its dictionary page or when it has
     * none.
     */
    ValueBuffer dictionary()
    {
        return dictionary;
    }

    /**
     * Parses headers up to the next data page (reading a dictionary page on the way) and leaves
     * it pending; false at the end of the chunk.
     */
    boolean hasNextPage()
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
     * Whether the next data page starts at a row boundary: a row of a repeated column may only
     * continue onto the next page of a v1 chunk without an offset index.
     */
    boolean nextPageStartsRows()
    {
        if (pages != null) {
            // offset-indexed pages start at row boundaries, and so does the end of the chunk
            return true;
        }
        if (!hasNextPage()) {
            return true;
        }
        return pendingHeader.getType() == PageType.DATA_PAGE_V2;
    }

    /**
     * Skips the next data page without decompressing it when its row count is known and at most
     * {@code rows}; returns the rows skipped, or -1 when the page is not skipped.
     */
    long skipPage(long rows)
    {
        if (pendingHeader == null && pages != null && dataPageIndex == 0) {
            readLeadingPages();
        }
        if (pendingHeader == null && atIndexedPage()) {
            // the offset index knows the page's rows and bytes: skipped without its header, so a
            // lazily loaded chunk never loads it
            long pageRows = pendingPageRows();
            if (pageRows > rows) {
                return -1;
            }
            PageLocation page = pages.get(dataPageIndex);
            chunkPosition = checkedPageEnd(page);
            dataPageIndex++;
            metrics.pagesSkipped++;
            pagesRowStart += pageRows;
            return pageRows;
        }
        if (!hasNextPage()) {
            return -1;
        }
        long pageRows = pendingPageRows();
        if (pageRows < 0 || pageRows > rows) {
            return -1;
        }
        pendingHeader = null;
        dataPageIndex++;
        metrics.pagesSkipped++;
        pagesRowStart += pageRows;
        return pageRows;
    }

    /**
     * Opens the next data page: loads it, verifies its checksum and decompresses it.
     */
    DataPage openNextPage()
    {
        if (!hasNextPage()) {
            throw new CorruptDataException("Column chunk has no more data pages");
        }
        PageHeader header = pendingHeader;
        long knownRows = pendingPageRows();
        pendingHeader = null;
        dataPageIndex++;
        // the page's bytes stay loaded while it is open: nothing is loaded before it is done
        ensureLoaded(pendingBodyOffset, pendingBodyOffset + header.getCompressed_page_size());
        int bodyOffset = local(pendingBodyOffset);
        verifyChecksum(header, chunk, bodyOffset);
        int compressedSize = header.getCompressed_page_size();
        int uncompressedSize = header.getUncompressed_page_size();
        DataPage page;
        if (header.getType() == PageType.DATA_PAGE) {
            DataPageHeader v1 = header.getData_page_header();
            checkValueCount(v1.getNum_values());
            byte[] data = decompress(bodyOffset, compressedSize, uncompressedSize, false);
            int position = data == chunk ? bodyOffset : 0;
            page = new DataPage(false, v1.getNum_values(), v1.getEncoding(), v1.getRepetition_level_encoding(), v1.getDefinition_level_encoding(), data, position,
                    -1, -1, data, position, position + uncompressedSize, pages != null);
        }
        else {
            DataPageHeaderV2 v2 = header.getData_page_header_v2();
            int valueCount = v2.getNum_values();
            checkValueCount(valueCount);
            int repetitionLength = v2.getRepetition_levels_byte_length();
            int definitionLength = v2.getDefinition_levels_byte_length();
            if (repetitionLength < 0 || definitionLength < 0 || (long) repetitionLength + definitionLength > Math.min(compressedSize, uncompressedSize)) {
                throw new CorruptDataException("Data page v2 level lengths " + repetitionLength + " + " + definitionLength + " exceed the page");
            }
            int levelsLength = repetitionLength + definitionLength;
            int valuesCompressed = compressedSize - levelsLength;
            int valuesUncompressed = uncompressedSize - levelsLength;
            boolean compressed = !v2.isSetIs_compressed() || v2.isIs_compressed();
            byte[] data;
            int position;
            if (compressed && decompressor.codec() != CompressionCodec.UNCOMPRESSED) {
                // levels stay in the chunk; values come from the decompressed buffer
                data = decompress(bodyOffset + levelsLength, valuesCompressed, valuesUncompressed, false);
                position = 0;
            }
            else {
                if (valuesCompressed != valuesUncompressed) {
                    throw new CorruptDataException("Uncompressed data page v2 declares " + compressedSize + " stored but " + uncompressedSize + " uncompressed bytes");
                }
                data = chunk;
                position = bodyOffset + levelsLength;
            }
            if (knownRows > valueCount) {
                throw new CorruptDataException("Data page v2 has " + knownRows + " rows but only " + valueCount + " values");
            }
            page = new DataPage(true, valueCount, v2.getEncoding(), Encoding.RLE, Encoding.RLE, chunk, bodyOffset, repetitionLength, definitionLength,
                    data, position, position + valuesUncompressed, true);
        }
        if (knownRows >= 0) {
            pagesRowStart += knownRows;
        }
        return page;
    }

    /**
     * Makes chunk bytes [{@code from}, {@code to}) available at {@code chunk[from - bufferStart]};
     * what lies before {@code from} may be dropped. Without exact loads, it reads up to
     * the loader's read size past {@code from} at once.
     */
    private void ensureLoaded(int from, int to)
    {
        if (from >= bufferStart && to <= bufferEnd) {
            return;
        }
        int end = exactLoads ? to : Math.max(to, (int) Math.min(chunkSize, (long) from + loader.readSize()));
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
                    throw new CorruptDataException("Corrupt page header at chunk offset " + chunkPosition + ": " + e.getCause().getMessage(), e);
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
        // a data page opened or skipped before it counts in dataPageIndex
        if (dictionary != null || dataPageIndex > 0) {
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
        byte[] body = decompress(local(bodyOffset), header.getCompressed_page_size(), header.getUncompressed_page_size(), true);
        int bodyStart = body == chunk ? local(bodyOffset) : 0;
        ValueBuffer decoded = new ValueBuffer();
        ValuesDecoders.plain(type, typeLength, body, bodyStart, bodyStart + header.getUncompressed_page_size()).read(decoded, count);
        dictionary = decoded;
        if (type == Type.BYTE_ARRAY || type == Type.FIXED_LEN_BYTE_ARRAY) {
            dictionaryWords = new DictionaryDecoder.Words(decoded);
        }
    }

    /**
     * The dictionary's values as words for the dictionary decoder of binary columns, or null.
     */
    DictionaryDecoder.Words dictionaryWords()
    {
        return dictionaryWords;
    }

    /**
     * The page body at {@code chunk[offset]} uncompressed: the chunk itself when the codec is
     * UNCOMPRESSED, else a new array ({@code own}, for a dictionary kept past the page) or the
     * reused page buffer.
     */
    private byte[] decompress(int offset, int compressedSize, int uncompressedSize, boolean own)
    {
        if (uncompressedSize > MAX_PAGE_SIZE) {
            throw new CorruptDataException("Page of " + uncompressedSize + " uncompressed bytes exceeds the limit of " + MAX_PAGE_SIZE);
        }
        if (!PageDecompressor.isSupported(decompressor.codec())) {
            throw new UnsupportedEncodingException("Compression codec " + decompressor.codec());
        }
        if (decompressor.codec() == CompressionCodec.UNCOMPRESSED) {
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
}
