package io.tarn.vector.orc;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.StructVector;

import java.util.List;

/**
 * STRUCT columns: no streams of their own but PRESENT; each child holds a value slot for every
 * non-null struct. The root struct of a file is fed the batch's vectors directly.
 */
final class StructColumnWriter
        extends ColumnWriter
{
    private final List<ColumnWriter> children;

    StructColumnWriter(int column, List<ColumnWriter> children, WriterContext context)
    {
        super(column, new StructStatistics(), context);
        this.children = List.copyOf(children);
    }

    /**
     * Writes rows {@code [from, to)} of a batch, one vector per child; the root has no nulls.
     */
    void writeRoot(List<FieldVector> vectors, int from, int to)
    {
        StructStatistics statistics = (StructStatistics) writePresent(to - from);
        for (int row = from; row < to; row++) {
            statistics.addValue();
        }
        for (int i = 0; i < children.size(); i++) {
            children.get(i).write(vectors.get(i), from, to);
        }
    }

    @Override
    void writeValues(FieldVector vector, int from, int to, StatisticsBuilder statistics)
    {
        StructVector struct = (StructVector) vector;
        int slot = from;
        while (slot < to) {
            if (struct.isNull(slot)) {
                slot++;
                continue;
            }
            int runStart = slot;
            while (slot < to && !struct.isNull(slot)) {
                ((StructStatistics) statistics).addValue();
                slot++;
            }
            for (int i = 0; i < children.size(); i++) {
                children.get(i).write((FieldVector) struct.getChildByOrdinal(i), runStart, slot);
            }
        }
    }

    @Override
    List<ColumnWriter> children()
    {
        return children;
    }

    @Override
    void recordValuePositions(OrcOutputBuffer.PositionList positions) {}

    @Override
    void finishValueStreams(StripeParts parts) {}

    @Override
    StripeFooter.Encoding.Kind encoding()
    {
        return StripeFooter.Encoding.Kind.DIRECT;
    }

    @Override
    long valueBufferedSize()
    {
        return 0;
    }

    @Override
    void resetValueStreams() {}
}
