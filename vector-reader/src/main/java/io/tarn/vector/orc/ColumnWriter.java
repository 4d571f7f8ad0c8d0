package io.tarn.vector.orc;

import org.apache.arrow.vector.FieldVector;

import java.util.ArrayList;
import java.util.List;

/**
 * Writes the values of one ORC column (one node of the type tree) of the stripe being written:
 * a PRESENT stream of one bit per value slot, kept only when the stripe has a null, and the
 * column's own streams. A row index entry is made for every row group: the positions of every
 * stream where the group starts and the statistics of its values. Compound columns pass the
 * slots of their non-null values on to their children.
 */
abstract class ColumnWriter
{
    final int column;
    final WriterContext context;
    private final OrcOutputBuffer presentBuffer;
    private final BooleanEncoder present;
    private boolean stripeHasNull;
    private StatisticsBuilder groupStatistics;
    private StatisticsBuilder stripeStatistics;
    private final StatisticsBuilder fileStatistics;
    private final List<OrcOutputBuffer.PositionList> entryPositions = new ArrayList<>();
    private final List<ProtobufWriter> entryStatistics = new ArrayList<>();
    private OrcOutputBuffer.PositionList positions;
    // the row group's Bloom filter, for a column of orc.bloom.filter.columns; null for the others
    private BloomFilterWriter bloomFilter;
    private final List<ProtobufWriter> bloomFilters = new ArrayList<>();

    ColumnWriter(int column, StatisticsBuilder statistics, WriterContext context)
    {
        this.column = column;
        this.context = context;
        this.presentBuffer = context.newBuffer();
        this.present = new BooleanEncoder(presentBuffer);
        this.groupStatistics = statistics;
        this.stripeStatistics = statistics.empty();
        this.fileStatistics = statistics.empty();
    }

    /**
     * Called once all writers of the tree exist: records where the first row group starts.
     */
    void start()
    {
        recordPositions();
        for (ColumnWriter child : children()) {
            child.start();
        }
    }

    /**
     * Whether the column's values can go to an ORC Bloom filter, hashed as orc-core hashes
     * them: true for integers, dates, floating-point numbers and strings.
     */
    boolean supportsBloomFilter()
    {
        return false;
    }

    /**
     * Gives every row group of the column a Bloom filter, written to a {@code BLOOM_FILTER_UTF8}
     * stream beside its row index.
     */
    final void enableBloomFilter(BloomFilterWriter filter)
    {
        if (!supportsBloomFilter()) {
            throw new IllegalStateException("ORC column " + column + " cannot have a Bloom filter");
        }
        this.bloomFilter = filter;
    }

    final boolean hasBloomFilter()
    {
        return bloomFilter != null;
    }

    /**
     * Adds a value's hash ({@link BloomFilterHash}) to the row group's Bloom filter; only when
     * {@link #hasBloomFilter()}.
     */
    final void addToBloomFilter(long hash)
    {
        bloomFilter.add(hash);
    }

    /**
     * Writes slots {@code [from, to)} of {@code vector}, nulls included.
     */
    final void write(FieldVector vector, int from, int to)
    {
        for (int slot = from; slot < to; slot++) {
            boolean isNull = vector.isNull(slot);
            present.write(!isNull);
            if (isNull) {
                stripeHasNull = true;
                groupStatistics.addNull();
            }
        }
        writeValues(vector, from, to, groupStatistics);
    }

    /**
     * Writes {@code count} slots known to hold values, which the caller passes on, and returns
     * the statistics they go to.
     */
    final StatisticsBuilder writePresent(int count)
    {
        for (int i = 0; i < count; i++) {
            present.write(true);
        }
        return groupStatistics;
    }

    /**
     * Writes the non-null values among slots {@code [from, to)}, each added to
     * {@code statistics}.
     */
    abstract void writeValues(FieldVector vector, int from, int to, StatisticsBuilder statistics);

    /**
     * The positions of the column's own streams, in the order a reader reads them.
     */
    abstract void recordValuePositions(OrcOutputBuffer.PositionList positions);

    /**
     * Writes out what the column's encoders hold and hands over its streams.
     */
    abstract void finishValueStreams(StripeParts parts);

    abstract StripeFooter.Encoding.Kind encoding();

    /**
     * The bytes held, written and pending, of this column and its children.
     */
    long bufferedSize()
    {
        long size = presentBuffer.size() + valueBufferedSize();
        for (ColumnWriter child : children()) {
            size += child.bufferedSize();
        }
        return size;
    }

    abstract long valueBufferedSize();

    List<ColumnWriter> children()
    {
        return List.of();
    }

    /**
     * Ends the row group: makes its index entry and starts the next one.
     */
    final void finishRowGroup()
    {
        entryPositions.add(positions);
        entryStatistics.add(groupStatistics.serialize());
        if (bloomFilter != null) {
            bloomFilters.add(bloomFilter.finishRowGroup());
        }
        stripeStatistics.merge(groupStatistics);
        groupStatistics = groupStatistics.empty();
        recordPositions();
        for (ColumnWriter child : children()) {
            child.finishRowGroup();
        }
    }

    private void recordPositions()
    {
        positions = new OrcOutputBuffer.PositionList();
        present.recordPosition(positions);
        recordValuePositions(positions);
    }

    /**
     * Hands the stripe's streams, row index, encoding and statistics of this column and its
     * children over to {@code parts}; the row group in progress must have been finished.
     */
    final void finishStripe(StripeParts parts)
    {
        present.flush();
        ProtobufWriter rowIndex = new ProtobufWriter();
        for (int i = 0; i < entryPositions.size(); i++) {
            OrcOutputBuffer.PositionList entry = entryPositions.get(i);
            if (!stripeHasNull) {
                // the PRESENT stream is left out, and its positions with it
                entry.remove(0, present.positionCount());
            }
            rowIndex.writeMessage(1, new ProtobufWriter()
                    .writePackedUnsigned(1, entry.values(), entry.size())
                    .writeMessage(2, entryStatistics.get(i)));
        }
        OrcOutputBuffer index = context.newBuffer();
        byte[] indexBytes = rowIndex.toByteArray();
        index.write(indexBytes, 0, indexBytes.length);
        index.finish();
        parts.addIndex(StripeFooter.Stream.ROW_INDEX, column, index);
        if (bloomFilter != null) {
            // a BloomFilterIndex: one filter per row group, in the order of the row index entries
            ProtobufWriter filters = new ProtobufWriter();
            for (ProtobufWriter filter : bloomFilters) {
                filters.writeMessage(1, filter);
            }
            OrcOutputBuffer filterIndex = context.newBuffer();
            byte[] filterBytes = filters.toByteArray();
            filterIndex.write(filterBytes, 0, filterBytes.length);
            filterIndex.finish();
            parts.addIndex(StripeFooter.Stream.BLOOM_FILTER_UTF8, column, filterIndex);
        }
        if (stripeHasNull) {
            presentBuffer.finish();
            parts.addData(StripeFooter.Stream.PRESENT, column, presentBuffer);
        }
        finishValueStreams(parts);
        parts.setColumn(column, encoding(), stripeStatistics);
        fileStatistics.merge(stripeStatistics);
        for (ColumnWriter child : children()) {
            child.finishStripe(parts);
        }
    }

    /**
     * Empties the streams once the stripe is written, for the next one.
     */
    final void startStripe()
    {
        presentBuffer.reset();
        resetValueStreams();
        stripeHasNull = false;
        stripeStatistics = stripeStatistics.empty();
        entryPositions.clear();
        entryStatistics.clear();
        bloomFilters.clear();
        recordPositions();
        for (ColumnWriter child : children()) {
            child.startStripe();
        }
    }

    abstract void resetValueStreams();

    /**
     * Adds the file statistics of this column and its children, in column order.
     */
    final void addFileStatistics(List<StatisticsBuilder> statistics)
    {
        statistics.add(fileStatistics);
        for (ColumnWriter child : children()) {
            child.addFileStatistics(statistics);
        }
    }
}
