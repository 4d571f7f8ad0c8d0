package io.tarn.vector.orc;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;

import java.util.List;

/**
 * LIST and MAP columns, DIRECT_V2: the number of entries of each value in LENGTH (unsigned
 * integer RLE v2); the element column (LIST) or the key and value columns (MAP) hold the entries
 * of the non-null values, in order. Arrow holds a map as a list of key-value structs.
 */
final class CollectionColumnWriter
        extends ColumnWriter
{
    private final List<ColumnWriter> children;
    private final boolean map;
    private final OrcOutputBuffer lengthBuffer;
    private final IntegerRleV2Encoder lengths;

    CollectionColumnWriter(int column, List<ColumnWriter> children, WriterContext context)
    {
        super(column, new CollectionStatistics(), context);
        this.children = List.copyOf(children);
        this.map = children.size() == 2;
        this.lengthBuffer = context.newBuffer();
        this.lengths = new IntegerRleV2Encoder(lengthBuffer, false);
    }

    @Override
    void writeValues(FieldVector vector, int from, int to, StatisticsBuilder statistics)
    {
        ListVector list = (ListVector) vector;
        int slot = from;
        while (slot < to) {
            if (list.isNull(slot)) {
                slot++;
                continue;
            }
            int runStart = slot;
            while (slot < to && !list.isNull(slot)) {
                int length = list.getElementEndIndex(slot) - list.getElementStartIndex(slot);
                lengths.write(length);
                statistics.updateLong(length);
                slot++;
            }
            int first = list.getElementStartIndex(runStart);
            int end = list.getElementEndIndex(slot - 1);
            if (first == end) {
                continue;
            }
            FieldVector entries = list.getDataVector();
            if (map) {
                StructVector pairs = (StructVector) entries;
                children.get(0).write((FieldVector) pairs.getChildByOrdinal(0), first, end);
                children.get(1).write((FieldVector) pairs.getChildByOrdinal(1), first, end);
            }
            else {
                children.get(0).write(entries, first, end);
            }
        }
    }

    @Override
    List<ColumnWriter> children()
    {
        return children;
    }

    @Override
    void recordValuePositions(OrcOutputBuffer.PositionList positions)
    {
        lengths.recordPosition(positions);
    }

    @Override
    void finishValueStreams(StripeParts parts)
    {
        lengths.flush();
        lengthBuffer.finish();
        parts.addData(StripeFooter.Stream.LENGTH, column, lengthBuffer);
    }

    @Override
    StripeFooter.Encoding.Kind encoding()
    {
        return StripeFooter.Encoding.Kind.DIRECT_V2;
    }

    @Override
    long valueBufferedSize()
    {
        return lengthBuffer.size();
    }

    @Override
    void resetValueStreams()
    {
        lengthBuffer.reset();
    }
}
