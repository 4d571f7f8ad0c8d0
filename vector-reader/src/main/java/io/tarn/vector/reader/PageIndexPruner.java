package io.tarn.vector.reader;

import io.tarn.index.predicate.ColumnStats;
import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.StatsEvaluator;
import io.tarn.index.predicate.StatsProvider;
import io.tarn.vector.metadata.ParquetFooter;
import io.tarn.vector.metadata.SchemaNode;
import io.tarn.vector.metadata.StatisticsValues;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnIndex;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.OffsetIndex;
import org.apache.parquet.format.PageLocation;
import org.apache.parquet.format.RowGroup;
import org.roaringbitmap.RoaringBitmap;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Prunes the pages of a row group by the column index: a page whose own column's statistics
 * rule the filter out holds no matching row, whatever the other columns hold. Only top-level,
 * non-repeated columns whose file type orders like the filter's type take part.
 */
final class PageIndexPruner
{
    private final ParquetFooter footer;
    private final Predicate filter;
    private final PageIndexReader pageIndexes;
    private final ReaderMetrics.Accumulator metrics;

    PageIndexPruner(ParquetFooter footer, Predicate filter, PageIndexReader pageIndexes, ReaderMetrics.Accumulator metrics)
    {
        this.footer = requireNonNull(footer, "footer is null");
        this.filter = requireNonNull(filter, "filter is null");
        this.pageIndexes = requireNonNull(pageIndexes, "pageIndexes is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
    }

    /**
     * Rows of the row group on pages that might match the filter, or null when no column index
     * helps. A page is dropped when the filter cannot match its own column's statistics alone,
     * which is safe whatever the other columns hold.
     */
    RoaringBitmap keptRows(RowGroup rowGroup, long rowGroupRows)
            throws IOException
    {
        RoaringBitmap excluded = null;
        for (SchemaNode child : footer.root().children()) {
            if (!child.isPrimitive() || child.isRepeated() || !child.hasFieldId()) {
                continue;
            }
            Optional<FieldRef> reference = referencedField(filter, child.fieldId());
            if (reference.isEmpty() || !StatisticsValues.compatible(child.element(), reference.get().type())) {
                continue;
            }
            ColumnChunk chunk = rowGroup.getColumns().get(child.leafIndex());
            if (!chunk.isSetColumn_index_offset() || !chunk.isSetOffset_index_offset()) {
                continue;
            }
            ColumnIndex columnIndex = pageIndexes.columnIndex(chunk, child.name());
            ColumnMetaData metadata = chunk.getMeta_data();
            OffsetIndex offsetIndex = pageIndexes.offsetIndex(chunk, child.name(), metadata.getData_page_offset(), metadata.getTotal_compressed_size() + metadata.getData_page_offset(),
                    rowGroupRows);
            List<PageLocation> locations = offsetIndex.getPage_locations();
            int pages = locations.size();
            if (columnIndex.getNull_pages() == null || columnIndex.getNull_pages().size() != pages
                    || columnIndex.getMin_values() == null || columnIndex.getMin_values().size() != pages
                    || columnIndex.getMax_values() == null || columnIndex.getMax_values().size() != pages) {
                continue;
            }
            FieldRef field = reference.get();
            for (int page = 0; page < pages; page++) {
                long first = locations.get(page).getFirst_row_index();
                long next = page + 1 < pages ? locations.get(page + 1).getFirst_row_index() : rowGroupRows;
                long pageRows = next - first;
                boolean allNull = columnIndex.getNull_pages().get(page);
                Long nullCount = columnIndex.isSetNull_counts() && columnIndex.getNull_counts().size() == pages ? columnIndex.getNull_counts().get(page) : null;
                if (nullCount != null && (nullCount < 0 || nullCount > pageRows)) {
                    nullCount = null;
                }
                Object min = null;
                Object max = null;
                if (allNull) {
                    nullCount = pageRows;
                }
                else {
                    min = StatisticsValues.decode(child.element(), field.type(), toBytes(columnIndex.getMin_values().get(page)));
                    max = StatisticsValues.decode(child.element(), field.type(), toBytes(columnIndex.getMax_values().get(page)));
                }
                ColumnStats stats = new ColumnStats(min, max, nullCount, pageRows);
                StatsProvider provider = new StatsProvider()
                {
                    @Override
                    public Optional<ColumnStats> columnStats(FieldRef reference)
                    {
                        return reference.fieldId() == field.fieldId() ? Optional.of(stats) : Optional.empty();
                    }
                };
                if (!StatsEvaluator.mightMatch(filter, provider)) {
                    if (excluded == null) {
                        excluded = new RoaringBitmap();
                    }
                    excluded.add(first, next);
                    metrics.pagesSkipped++;
                }
            }
        }
        if (excluded == null) {
            return null;
        }
        RoaringBitmap kept = RoaringBitmap.bitmapOfRange(0, rowGroupRows);
        kept.andNot(excluded);
        return kept;
    }

    private static byte[] toBytes(java.nio.ByteBuffer buffer)
    {
        if (buffer == null) {
            return null;
        }
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    private static Optional<FieldRef> referencedField(Predicate predicate, int fieldId)
    {
        List<FieldRef> found = new ArrayList<>();
        collectFields(predicate, fieldId, found);
        return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
    }

    private static void collectFields(Predicate predicate, int fieldId, List<FieldRef> found)
    {
        if (predicate instanceof Predicate.And and) {
            and.children().forEach(child -> collectFields(child, fieldId, found));
        }
        else if (predicate instanceof Predicate.Or or) {
            or.children().forEach(child -> collectFields(child, fieldId, found));
        }
        else if (predicate instanceof Predicate.Not not) {
            collectFields(not.predicate(), fieldId, found);
        }
        else if (predicate instanceof Predicate.Comparison comparison && comparison.field().fieldId() == fieldId) {
            found.add(comparison.field());
        }
        else if (predicate instanceof Predicate.In in && in.field().fieldId() == fieldId) {
            found.add(in.field());
        }
        else if (predicate instanceof Predicate.InRanges inRanges && inRanges.field().fieldId() == fieldId) {
            found.add(inRanges.field());
        }
        else if (predicate instanceof Predicate.IsNull isNull && isNull.field().fieldId() == fieldId) {
            found.add(isNull.field());
        }
        else if (predicate instanceof Predicate.IsNotNull isNotNull && isNotNull.field().fieldId() == fieldId) {
            found.add(isNotNull.field());
        }
        else if (predicate instanceof Predicate.StartsWith startsWith && startsWith.field().fieldId() == fieldId) {
            found.add(startsWith.field());
        }
    }
}
