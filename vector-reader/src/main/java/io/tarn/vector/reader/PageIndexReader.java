package io.tarn.vector.reader;

import io.tarn.vector.ParquetCorruptionException;
import io.tarn.vector.io.DataFileInput;
import io.tarn.vector.metadata.ParquetFooter;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnIndex;
import org.apache.parquet.format.OffsetIndex;
import org.apache.parquet.format.PageLocation;

import java.io.IOException;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Reads the page index of column chunks (column index and offset index) from the file, checking
 * that it lies inside the file before the footer and, for the offset index, that its page
 * locations are consistent; a violation is a {@link ParquetCorruptionException} naming the file
 * and column.
 */
final class PageIndexReader
{
    private final DataFileInput input;
    private final String file;
    private final ParquetFooter footer;
    private final ReaderMetrics.Accumulator metrics;

    PageIndexReader(DataFileInput input, ParquetFooter footer, ReaderMetrics.Accumulator metrics)
    {
        this.input = requireNonNull(input, "input is null");
        this.file = input.name();
        this.footer = requireNonNull(footer, "footer is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
    }

    /**
     * The column index of a column chunk that has one.
     */
    ColumnIndex columnIndex(ColumnChunk chunk, String column)
            throws IOException
    {
        long indexOffset = chunk.getColumn_index_offset();
        int indexLength = chunk.getColumn_index_length();
        if (indexOffset < 4 || indexLength <= 0 || indexOffset + indexLength > footer.footerStart()) {
            throw new ParquetCorruptionException("File " + file + " column " + column + " has a column index outside the file");
        }
        byte[] bytes = new byte[indexLength];
        input.readFully(indexOffset, bytes, 0, indexLength);
        metrics.bytesRead += indexLength;
        ColumnIndex columnIndex = new ColumnIndex();
        ParquetFooter.readThrift(columnIndex, bytes, 0, indexLength, file, "column index of column " + column);
        return columnIndex;
    }

    /**
     * The offset index of a column chunk of {@code chunkSize} bytes at {@code chunkStart} in a
     * row group of {@code rowGroupRows} rows, checked: its pages ascend by first row from row 0
     * and lie in order inside the chunk.
     */
    OffsetIndex offsetIndex(ColumnChunk chunk, String column, long chunkStart, long chunkSize, long rowGroupRows)
            throws IOException
    {
        long offset = chunk.getOffset_index_offset();
        int length = chunk.getOffset_index_length();
        if (offset < ParquetFooter.MAGIC.length || length <= 0 || offset + length > footer.footerStart()) {
            throw new ParquetCorruptionException("File " + file + " column " + column + " has an offset index outside the file");
        }
        byte[] bytes = new byte[length];
        input.readFully(offset, bytes, 0, length);
        metrics.bytesRead += length;
        OffsetIndex index = new OffsetIndex();
        ParquetFooter.readThrift(index, bytes, 0, length, file, "offset index of column " + column);
        List<PageLocation> locations = index.getPage_locations();
        if (locations == null || locations.isEmpty()) {
            throw new ParquetCorruptionException("File " + file + " column " + column + " has an empty offset index");
        }
        long previous = -1;
        long previousEnd = chunkStart;
        for (PageLocation location : locations) {
            if (location.getFirst_row_index() <= previous || location.getFirst_row_index() >= rowGroupRows
                    || location.getOffset() < previousEnd || location.getCompressed_page_size() <= 0
                    || location.getOffset() + location.getCompressed_page_size() > chunkStart + chunkSize) {
                throw new ParquetCorruptionException("File " + file + " column " + column + " has an invalid offset index entry " + location);
            }
            previous = location.getFirst_row_index();
            previousEnd = location.getOffset() + location.getCompressed_page_size();
        }
        if (locations.get(0).getFirst_row_index() != 0) {
            throw new ParquetCorruptionException("File " + file + " column " + column + " has an offset index not starting at row 0");
        }
        return index;
    }
}
