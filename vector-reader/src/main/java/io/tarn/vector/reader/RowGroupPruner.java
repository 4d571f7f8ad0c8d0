package io.tarn.vector.reader;

import io.tarn.index.predicate.ColumnStats;
import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.StatsEvaluator;
import io.tarn.index.predicate.StatsProvider;
import io.tarn.types.TypeRoot;
import io.tarn.vector.io.DataFileInput;
import io.tarn.vector.metadata.ParquetFooter;
import io.tarn.vector.metadata.SchemaNode;
import io.tarn.vector.metadata.StatisticsValues;
import io.tarn.vector.reader.decoders.PageDecompressor;
import io.tarn.vector.reader.decoders.ValueBuffer;
import io.tarn.vector.reader.decoders.ValuesDecoders;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.CompressionCodec;
import org.apache.parquet.format.Encoding;
import org.apache.parquet.format.PageEncodingStats;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.Statistics;
import org.apache.parquet.format.Type;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * Prunes row groups by the filter: by the statistics of their top-level, non-repeated columns
 * (min_value and max_value only where the file states column orders), then by the dictionaries of
 * columns whose data pages are all dictionary encoded and whose dictionary page is small. A
 * dictionary that cannot be used (too large, unreadable values) never prunes.
 */
final class RowGroupPruner
{
    private static final int MAX_DICTIONARY_BYTES = 1 << 20;
    private static final int MAX_DICTIONARY_VALUES = 100_000;

    private final DataFileInput input;
    private final String file;
    private final ParquetFooter footer;
    private final Predicate filter;
    private final ReaderMetrics.Accumulator metrics;

    RowGroupPruner(DataFileInput input, ParquetFooter footer, Predicate filter, ReaderMetrics.Accumulator metrics)
    {
        this.input = requireNonNull(input, "input is null");
        this.file = input.name();
        this.footer = requireNonNull(footer, "footer is null");
        this.filter = requireNonNull(filter, "filter is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
    }

    /**
     * False when no row of {@code rowGroup} can match the filter: its statistics rule it out,
     * or the dictionaries of its fully dictionary-encoded columns do.
     */
    boolean mightMatch(RowGroup rowGroup)
            throws IOException
    {
        return StatsEvaluator.mightMatch(filter, new RowGroupStats(rowGroup)) && dictionariesMightMatch(rowGroup);
    }

    private boolean dictionariesMightMatch(RowGroup rowGroup)
            throws IOException
    {
        Map<Integer, Optional<List<Object>>> loaded = new HashMap<>();
        IOException[] failure = new IOException[1];
        boolean result = DictionaryPruning.mightMatch(filter, field -> loaded.computeIfAbsent(field.fieldId(), id -> {
            try {
                return dictionary(rowGroup, field);
            }
            catch (IOException e) {
                failure[0] = e;
                return Optional.empty();
            }
        }));
        if (failure[0] != null) {
            throw failure[0];
        }
        return result;
    }

    /**
     * The values of a column chunk when all its data pages are dictionary encoded and the
     * dictionary page is small, as internal values of the field's type; otherwise empty.
     */
    private Optional<List<Object>> dictionary(RowGroup rowGroup, FieldRef field)
            throws IOException
    {
        Optional<SchemaNode> found = SchemaBinding.findChild(footer.root(), field.fieldId());
        if (found.isEmpty() || !found.get().isPrimitive() || found.get().isRepeated()) {
            return Optional.empty();
        }
        SchemaNode node = found.get();
        TypeRoot root = field.type().root();
        if (root == TypeRoot.BOOLEAN || !StatisticsValues.compatible(node.element(), field.type())) {
            return Optional.empty();
        }
        ColumnMetaData metadata = rowGroup.getColumns().get(node.leafIndex()).getMeta_data();
        if (!metadata.isSetEncoding_stats() || !metadata.isSetDictionary_page_offset() || metadata.getCodec() == null || !PageDecompressor.isSupported(metadata.getCodec())) {
            return Optional.empty();
        }
        for (PageEncodingStats stats : metadata.getEncoding_stats()) {
            boolean dataPage = stats.getPage_type() == PageType.DATA_PAGE || stats.getPage_type() == PageType.DATA_PAGE_V2;
            boolean dictionaryEncoded = stats.getEncoding() == Encoding.PLAIN_DICTIONARY || stats.getEncoding() == Encoding.RLE_DICTIONARY;
            if (dataPage && !dictionaryEncoded && stats.getCount() > 0) {
                return Optional.empty();
            }
        }
        long start = metadata.getDictionary_page_offset();
        long end = metadata.getData_page_offset();
        if (start < ParquetFooter.MAGIC.length || end <= start || end > footer.footerStart()) {
            return Optional.empty();
        }
        if (end - start > MAX_DICTIONARY_BYTES) {
            return Optional.empty();
        }
        byte[] bytes = new byte[(int) (end - start)];
        input.readFully(start, bytes, 0, bytes.length);
        metrics.bytesRead += bytes.length;
        PageHeader header = new PageHeader();
        int headerLength = ParquetFooter.readThrift(header, bytes, 0, bytes.length, file, "dictionary page header of column " + node.name());
        if (header.getType() != PageType.DICTIONARY_PAGE || !header.isSetDictionary_page_header()) {
            return Optional.empty();
        }
        int count = header.getDictionary_page_header().getNum_values();
        int compressed = header.getCompressed_page_size();
        int uncompressed = header.getUncompressed_page_size();
        if (count < 0 || count > MAX_DICTIONARY_VALUES || compressed < 0 || compressed > bytes.length - headerLength || uncompressed < 0 || uncompressed > 64 * MAX_DICTIONARY_BYTES) {
            return Optional.empty();
        }
        PageReader.verifyChecksum(header, bytes, headerLength);
        byte[] body;
        int offset;
        if (metadata.getCodec() == CompressionCodec.UNCOMPRESSED) {
            body = bytes;
            offset = headerLength;
        }
        else {
            body = new byte[uncompressed];
            offset = 0;
            new PageDecompressor(metadata.getCodec()).decompress(bytes, headerLength, compressed, body, uncompressed);
        }
        Type type = node.element().getType();
        ValueBuffer values = new ValueBuffer();
        ValuesDecoders.plain(type, node.element().isSetType_length() ? node.element().getType_length() : 0, body, offset, offset + uncompressed).read(values, count);
        List<Object> result = new ArrayList<>(count);
        byte[] scratch4 = new byte[4];
        byte[] scratch8 = new byte[8];
        for (int i = 0; i < count; i++) {
            byte[] encoded;
            switch (type) {
                case INT32, FLOAT -> {
                    ByteBuffer.wrap(scratch4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, values.ints[i]);
                    encoded = scratch4;
                }
                case INT64, DOUBLE -> {
                    ByteBuffer.wrap(scratch8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, values.longs[i]);
                    encoded = scratch8;
                }
                case BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY -> encoded = Arrays.copyOfRange(values.bytes, values.offsets[i], values.offsets[i + 1]);
                default -> {
                    return Optional.empty();
                }
            }
            Object value = StatisticsValues.decode(node.element(), field.type(), encoded);
            if (value == null) {
                return Optional.empty();
            }
            result.add(value);
        }
        return Optional.of(result);
    }

    /**
     * Row-group statistics of top-level, non-repeated file columns, offered only when the file
     * column's type orders like the requested type.
     */
    private final class RowGroupStats
            implements StatsProvider
    {
        private final RowGroup rowGroup;

        RowGroupStats(RowGroup rowGroup)
        {
            this.rowGroup = rowGroup;
        }

        @Override
        public OptionalLong rowCount()
        {
            return OptionalLong.of(rowGroup.getNum_rows());
        }

        @Override
        public Optional<ColumnStats> columnStats(FieldRef field)
        {
            Optional<SchemaNode> found = SchemaBinding.findChild(footer.root(), field.fieldId());
            if (found.isEmpty() || !found.get().isPrimitive() || found.get().isRepeated()) {
                return Optional.empty();
            }
            SchemaNode node = found.get();
            if (!StatisticsValues.compatible(node.element(), field.type())) {
                return Optional.empty();
            }
            ColumnMetaData metadata = rowGroup.getColumns().get(node.leafIndex()).getMeta_data();
            long rows = rowGroup.getNum_rows();
            if (!metadata.isSetStatistics()) {
                return Optional.of(ColumnStats.unknown(rows));
            }
            Statistics statistics = metadata.getStatistics();
            Long nullCount = statistics.isSetNull_count() && statistics.getNull_count() >= 0 && statistics.getNull_count() <= rows ? statistics.getNull_count() : null;
            Object min = null;
            Object max = null;
            // min_value / max_value follow the column order; the deprecated min / max do not, so they are ignored
            if (footer.metadata().isSetColumn_orders()) {
                min = statistics.isSetMin_value() ? StatisticsValues.decode(node.element(), field.type(), statistics.getMin_value()) : null;
                max = statistics.isSetMax_value() ? StatisticsValues.decode(node.element(), field.type(), statistics.getMax_value()) : null;
            }
            return Optional.of(new ColumnStats(min, max, nullCount, rows));
        }
    }
}
