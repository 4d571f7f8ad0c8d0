package io.tarn.vector.orc;

import org.apache.arrow.vector.FieldVector;

/**
 * A requested column the file does not have (added to the table after the file was written):
 * all null, whatever its type.
 */
final class MissingColumnDecoder
        extends ColumnDecoder
{
    MissingColumnDecoder(String name)
    {
        super(-1, name);
    }

    @Override
    void startStripe(StripeStreams stripe)
    {
    }

    @Override
    void startValues(StripeStreams stripe)
    {
    }

    @Override
    void seek(RowIndexes indexes, int group)
    {
    }

    @Override
    void seekValues(PositionCursor positions, RowIndexes indexes, int group)
    {
    }

    @Override
    void clearValues()
    {
    }

    @Override
    void readValues(int count)
    {
    }

    @Override
    void skipValues(long count)
    {
    }

    @Override
    long batchBytes()
    {
        return 0;
    }

    @Override
    void write(FieldVector vector, int slots, int[] slotOfEntry)
    {
        VectorWrites.writeNulls(vector, slots);
    }
}
