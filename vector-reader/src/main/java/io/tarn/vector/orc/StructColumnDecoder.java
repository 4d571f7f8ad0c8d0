package io.tarn.vector.orc;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.StructVector;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * A STRUCT column read as a ROW: its own PRESENT stream, and children (in the requested fields'
 * order; a field the file lacks reads as nulls) that hold an entry per present struct.
 */
final class StructColumnDecoder
        extends ColumnDecoder
{
    private final List<ColumnDecoder> children;
    private int[] childSlots = new int[0];

    StructColumnDecoder(int column, String name, List<ColumnDecoder> children)
    {
        super(column, name);
        this.children = List.copyOf(children);
    }

    @Override
    void startValues(StripeStreams stripe)
            throws IOException
    {
        for (ColumnDecoder child : children) {
            child.startStripe(stripe);
        }
    }

    @Override
    void clearValues()
    {
        for (ColumnDecoder child : children) {
            child.startBatch();
        }
    }

    @Override
    void readValues(int count)
    {
        for (ColumnDecoder child : children) {
            child.read(count);
        }
    }

    @Override
    void skipValues(long count)
    {
        for (ColumnDecoder child : children) {
            child.skip(count);
        }
    }

    @Override
    void seekValues(PositionCursor positions, RowIndexes indexes, int group)
    {
        for (ColumnDecoder child : children) {
            child.seek(indexes, group);
        }
    }

    @Override
    void collectColumns(Set<Integer> columns)
    {
        super.collectColumns(columns);
        for (ColumnDecoder child : children) {
            child.collectColumns(columns);
        }
    }

    @Override
    long batchBytes()
    {
        long bytes = entries;
        for (ColumnDecoder child : children) {
            bytes += child.batchBytes();
        }
        return bytes;
    }

    @Override
    void write(FieldVector vector, int slots, int[] slotOfEntry)
    {
        StructVector struct = (StructVector) vector;
        VectorWrites.prepareStruct(struct, slots);
        ArrowBuf validity = struct.getValidityBuffer();
        if (childSlots.length < values) {
            childSlots = Arrays.copyOf(childSlots, grow(childSlots.length, values));
        }
        int value = 0;
        for (int entry = 0; entry < entries; entry++) {
            if (presence[entry]) {
                int slot = slot(slotOfEntry, entry);
                BitVectorHelper.setBit(validity, slot);
                childSlots[value++] = slot;
            }
        }
        // the children's entries are the present structs': each goes to its struct's slot
        int[] mapping = values == slots && slotOfEntry == null && !hasNulls ? null : childSlots;
        List<FieldVector> vectors = struct.getChildrenFromFields();
        for (int i = 0; i < children.size(); i++) {
            children.get(i).write(vectors.get(i), slots, mapping);
        }
        struct.setValueCount(slots);
    }
}
