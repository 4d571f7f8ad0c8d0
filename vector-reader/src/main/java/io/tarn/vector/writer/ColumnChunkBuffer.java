package io.tarn.vector.writer;

import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.SizeStatistics;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.column.statistics.geospatial.GeospatialStatistics;
import org.apache.parquet.format.BoundaryOrder;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnIndex;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.DataPageHeader;
import org.apache.parquet.format.DictionaryPageHeader;
import org.apache.parquet.format.Encoding;
import org.apache.parquet.format.OffsetIndex;
import org.apache.parquet.format.PageEncodingStats;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.PageLocation;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.Util;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32;

import static java.util.Objects.requireNonNull;

/**
 * Buffers the compressed pages of one column chunk until its row group is written. parquet-mr's
 * column writer hands over the dictionary page last, but the file needs it first, so data pages
 * and the dictionary page are kept apart and joined in {@link #writeTo}.
 *
 * <p>Each page is a thrift {@code PageHeader} (with the CRC32 of the compressed body) followed
 * by the body. Data pages are V1: repetition levels, definition levels and values, compressed together.
 */
final class ColumnChunkBuffer
        implements PageWriter
{
    // parquet-mr leaves out min/max statistics larger than this, and so do we
    private static final int MAX_STATISTICS_BYTES = 4096;
    // parquet-mr's default column index truncation length
    private static final int COLUMN_INDEX_VALUE_BYTES = 64;

    private final ColumnDescriptor column;
    private final PageCompressor compressor;
    private final ByteArrayOutputStream dataPages = new ByteArrayOutputStream();
    private final List<PageLocation> pageLocations = new ArrayList<>();
    private final Set<Encoding> encodings = new LinkedHashSet<>();
    private final Map<Encoding, Integer> dataPageEncodings = new LinkedHashMap<>();
    private final List<Boolean> nullPages = new ArrayList<>();
    private final List<ByteBuffer> pageMins = new ArrayList<>();
    private final List<ByteBuffer> pageMaxes = new ArrayList<>();
    private final List<Long> pageNullCounts = new ArrayList<>();
    private boolean columnIndexValid;
    private byte[] dictionaryPage;
    private Encoding dictionaryEncoding;
    private Statistics<?> statistics;
    private boolean hasNaN;
    private long valueCount;
    private long rowCount;
    private long uncompressedSize;
    private long compressedSize;

    ColumnChunkBuffer(ColumnDescriptor column, PageCompressor compressor)
    {
        this.column = requireNonNull(column, "column is null");
        this.compressor = requireNonNull(compressor, "compressor is null");
        this.statistics = Statistics.createStats(column.getPrimitiveType());
        // INT96 has no defined order, so it gets no column index
        this.columnIndexValid = column.getPrimitiveType().getPrimitiveTypeName() != PrimitiveTypeName.INT96;
    }

    @Override
    @Deprecated
    public void writePage(BytesInput bytes, int valueCount, Statistics<?> statistics, org.apache.parquet.column.Encoding repetitionLevelEncoding,
            org.apache.parquet.column.Encoding definitionLevelEncoding, org.apache.parquet.column.Encoding valuesEncoding)
    {
        throw new UnsupportedOperationException("Pages must carry their row count");
    }

    @Override
    public void writePage(BytesInput bytes, int valueCount, int rowCount, Statistics<?> statistics, org.apache.parquet.column.Encoding repetitionLevelEncoding,
            org.apache.parquet.column.Encoding definitionLevelEncoding, org.apache.parquet.column.Encoding valuesEncoding)
            throws IOException
    {
        byte[] body = bytes.toByteArray();
        byte[] compressed = compressor.compress(body);
        PageHeader header = new PageHeader(PageType.DATA_PAGE, body.length, compressed.length);
        Encoding values = encoding(valuesEncoding);
        header.setData_page_header(new DataPageHeader(valueCount, values, encoding(definitionLevelEncoding), encoding(repetitionLevelEncoding)));
        header.setCrc(crc(compressed));

        long offset = dataPages.size();
        Util.writePageHeader(header, dataPages);
        int headerSize = (int) (dataPages.size() - offset);
        dataPages.write(compressed);

        pageLocations.add(new PageLocation(offset, headerSize + compressed.length, this.rowCount));
        this.valueCount += valueCount;
        this.rowCount += rowCount;
        uncompressedSize += headerSize + body.length;
        compressedSize += headerSize + compressed.length;
        encodings.add(encoding(repetitionLevelEncoding));
        encodings.add(encoding(definitionLevelEncoding));
        encodings.add(values);
        dataPageEncodings.merge(values, 1, Integer::sum);
        this.statistics.mergeStatistics(statistics);
        // checked per page: merging drops the NaN count when a page did not set it
        hasNaN |= statistics.isNanCountSet() && statistics.getNanCount() > 0;
        addToColumnIndex(statistics);
    }

    private void addToColumnIndex(Statistics<?> page)
    {
        if (!columnIndexValid) {
            return;
        }
        if (hasNaN) {
            // NaN has no place in the order of the page bounds
            columnIndexValid = false;
            return;
        }
        pageNullCounts.add(page.getNumNulls());
        if (!page.hasNonNullValue()) {
            nullPages.add(true);
            pageMins.add(ByteBuffer.allocate(0));
            pageMaxes.add(ByteBuffer.allocate(0));
            return;
        }
        byte[] min = page.getMinBytes();
        byte[] max = page.getMaxBytes();
        if (column.getPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.BINARY) {
            min = truncateMin(min);
            max = truncateMax(max);
            if (max == null) {
                columnIndexValid = false;
                return;
            }
        }
        nullPages.add(false);
        pageMins.add(ByteBuffer.wrap(min));
        pageMaxes.add(ByteBuffer.wrap(max));
    }

    // a prefix is never greater than the value in unsigned byte order
    private static byte[] truncateMin(byte[] value)
    {
        return value.length <= COLUMN_INDEX_VALUE_BYTES ? value : Arrays.copyOf(value, COLUMN_INDEX_VALUE_BYTES);
    }

    /**
     * An upper bound of at most {@link #COLUMN_INDEX_VALUE_BYTES}: the prefix with its last byte
     * below 0xFF incremented, or null when every byte of the prefix is 0xFF.
     */
    private static byte[] truncateMax(byte[] value)
    {
        if (value.length <= COLUMN_INDEX_VALUE_BYTES) {
            return value;
        }
        for (int i = COLUMN_INDEX_VALUE_BYTES - 1; i >= 0; i--) {
            if (value[i] != (byte) 0xFF) {
                byte[] bound = Arrays.copyOf(value, i + 1);
                bound[i]++;
                return bound;
            }
        }
        return null;
    }

    @Override
    public void writePage(BytesInput bytes, int valueCount, int rowCount, Statistics<?> statistics, SizeStatistics sizeStatistics,
            org.apache.parquet.column.Encoding repetitionLevelEncoding, org.apache.parquet.column.Encoding definitionLevelEncoding, org.apache.parquet.column.Encoding valuesEncoding)
            throws IOException
    {
        writePage(bytes, valueCount, rowCount, statistics, repetitionLevelEncoding, definitionLevelEncoding, valuesEncoding);
    }

    @Override
    public void writePage(BytesInput bytes, int valueCount, int rowCount, Statistics<?> statistics, SizeStatistics sizeStatistics, GeospatialStatistics geospatialStatistics,
            org.apache.parquet.column.Encoding repetitionLevelEncoding, org.apache.parquet.column.Encoding definitionLevelEncoding, org.apache.parquet.column.Encoding valuesEncoding)
            throws IOException
    {
        writePage(bytes, valueCount, rowCount, statistics, repetitionLevelEncoding, definitionLevelEncoding, valuesEncoding);
    }

    @Override
    public void writePageV2(int rowCount, int nullCount, int valueCount, BytesInput repetitionLevels, BytesInput definitionLevels,
            org.apache.parquet.column.Encoding dataEncoding, BytesInput data, Statistics<?> statistics)
    {
        // the writer is built on ColumnWriteStoreV1, which never produces V2 pages
        throw new UnsupportedOperationException("Data page V2 is not written");
    }

    @Override
    public void writeDictionaryPage(DictionaryPage page)
            throws IOException
    {
        if (dictionaryPage != null) {
            throw new IllegalStateException("Column chunk " + column + " already has a dictionary page");
        }
        byte[] body = page.getBytes().toByteArray();
        byte[] compressed = compressor.compress(body);
        dictionaryEncoding = encoding(page.getEncoding());
        PageHeader header = new PageHeader(PageType.DICTIONARY_PAGE, body.length, compressed.length);
        header.setDictionary_page_header(new DictionaryPageHeader(page.getDictionarySize(), dictionaryEncoding));
        header.setCrc(crc(compressed));
        ByteArrayOutputStream out = new ByteArrayOutputStream(compressed.length + 32);
        Util.writePageHeader(header, out);
        int headerSize = out.size();
        out.write(compressed);
        dictionaryPage = out.toByteArray();
        uncompressedSize += headerSize + body.length;
        compressedSize += headerSize + compressed.length;
        encodings.add(dictionaryEncoding);
    }

    @Override
    public long getMemSize()
    {
        return dataPages.size() + (dictionaryPage == null ? 0 : dictionaryPage.length);
    }

    @Override
    public long allocatedSize()
    {
        return getMemSize();
    }

    @Override
    public String memUsageString(String prefix)
    {
        return prefix + " " + column + " " + getMemSize() + " bytes";
    }

    boolean isEmpty()
    {
        return pageLocations.isEmpty();
    }

    long uncompressedSize()
    {
        return uncompressedSize;
    }

    /**
     * Writes the chunk at the stream's current position {@code start} and returns its metadata.
     */
    WrittenChunk writeTo(OutputStream out, long start)
            throws IOException
    {
        long dataStart = start;
        if (dictionaryPage != null) {
            out.write(dictionaryPage);
            dataStart += dictionaryPage.length;
        }
        dataPages.writeTo(out);

        PrimitiveType type = column.getPrimitiveType();
        ColumnMetaData metadata = new ColumnMetaData(
                ParquetSchemas.physicalType(type.getPrimitiveTypeName()),
                new ArrayList<>(encodings),
                Arrays.asList(column.getPath()),
                compressor.codec(),
                valueCount,
                uncompressedSize,
                compressedSize,
                dataStart);
        if (dictionaryPage != null) {
            metadata.setDictionary_page_offset(start);
        }
        metadata.setStatistics(footerStatistics(statistics, hasNaN, type));
        List<PageEncodingStats> encodingStats = new ArrayList<>();
        if (dictionaryPage != null) {
            encodingStats.add(new PageEncodingStats(PageType.DICTIONARY_PAGE, dictionaryEncoding, 1));
        }
        dataPageEncodings.forEach((encoding, count) -> encodingStats.add(new PageEncodingStats(PageType.DATA_PAGE, encoding, count)));
        metadata.setEncoding_stats(encodingStats);

        ColumnChunk chunk = new ColumnChunk(start);
        chunk.setMeta_data(metadata);

        List<PageLocation> locations = new ArrayList<>(pageLocations.size());
        for (PageLocation location : pageLocations) {
            locations.add(new PageLocation(dataStart + location.getOffset(), location.getCompressed_page_size(), location.getFirst_row_index()));
        }
        ColumnIndex columnIndex = null;
        if (columnIndexValid && !hasNaN) {
            // UNORDERED is always true; readers then check every page's bounds
            columnIndex = new ColumnIndex(nullPages, pageMins, pageMaxes, BoundaryOrder.UNORDERED);
            columnIndex.setNull_counts(pageNullCounts);
        }
        return new WrittenChunk(chunk, new OffsetIndex(locations), columnIndex);
    }

    /**
     * Footer statistics as parquet-mr writes them: {@code min_value}/{@code max_value} in the
     * type's own order, the legacy signed {@code min}/{@code max} only where the legacy order is
     * signed (not for binary, strings and decimals, unless min equals max), nothing for INT96 (no defined order), and no bounds at all for floating-point
     * chunks holding NaN, which older readers would mis-order.
     */
    static org.apache.parquet.format.Statistics footerStatistics(Statistics<?> statistics, boolean hasNaN, PrimitiveType type)
    {
        org.apache.parquet.format.Statistics result = new org.apache.parquet.format.Statistics();
        result.setNull_count(statistics.getNumNulls());
        PrimitiveTypeName typeName = type.getPrimitiveTypeName();
        if (!statistics.hasNonNullValue() || typeName == PrimitiveTypeName.INT96) {
            return result;
        }
        if (hasNaN) {
            return result;
        }
        byte[] min = statistics.getMinBytes();
        byte[] max = statistics.getMaxBytes();
        if (min.length + max.length > MAX_STATISTICS_BYTES) {
            return result;
        }
        result.setMin_value(min);
        result.setMax_value(max);
        // parquet-mr fills the legacy fields only for types whose legacy order is signed, which excludes DECIMAL
        boolean legacySigned = typeName != PrimitiveTypeName.BINARY
                && typeName != PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY
                && !(type.getLogicalTypeAnnotation() instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation);
        if (legacySigned || Arrays.equals(min, max)) {
            result.setMin(min);
            result.setMax(max);
        }
        return result;
    }

    private static Encoding encoding(org.apache.parquet.column.Encoding encoding)
    {
        return Encoding.valueOf(encoding.name());
    }

    private static int crc(byte[] bytes)
    {
        CRC32 crc = new CRC32();
        crc.update(bytes);
        return (int) crc.getValue();
    }

    /**
     * A written chunk's metadata, its offset index and its column index (null when the chunk
     * cannot have one).
     */
    record WrittenChunk(ColumnChunk chunk, OffsetIndex offsetIndex, ColumnIndex columnIndex)
    {
        WrittenChunk
        {
            requireNonNull(chunk, "chunk is null");
            requireNonNull(offsetIndex, "offsetIndex is null");
        }
    }
}
