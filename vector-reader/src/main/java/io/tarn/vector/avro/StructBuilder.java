package io.tarn.vector.avro;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.StructVector;

import java.util.List;

/**
 * ROW, and the key-value entries of maps: a slot per record, with a slot in every child.
 */
final class StructBuilder
        extends ColumnBuilder
{
    private final List<ColumnBuilder> children;

    StructBuilder(List<ColumnBuilder> children)
    {
        this.children = List.copyOf(children);
    }

    List<ColumnBuilder> children()
    {
        return children;
    }

    /**
     * Ends a struct whose children each got one slot since the last one.
     */
    void endStruct()
    {
        setValidity(true);
        count++;
    }

    @Override
    void appendNull()
    {
        for (ColumnBuilder child : children) {
            child.appendNull();
        }
        setValidity(false);
        count++;
    }

    @Override
    void reset()
    {
        super.reset();
        for (ColumnBuilder child : children) {
            child.reset();
        }
    }

    @Override
    void write(FieldVector vector)
    {
        StructVector struct = (StructVector) vector;
        if (struct.getValueCapacity() < count || struct.getValidityBuffer().capacity() == 0) {
            struct.setInitialCapacity(Math.max(count, 1));
            struct.allocateNew();
        }
        writeValidity(struct.getValidityBuffer());
        List<FieldVector> vectors = struct.getChildrenFromFields();
        for (int i = 0; i < children.size(); i++) {
            ColumnBuilder child = children.get(i);
            if (child.count() != count) {
                throw new IllegalStateException("Struct of " + count + " slots has a child of " + child.count());
            }
            child.write(vectors.get(i));
        }
        struct.setValueCount(count);
    }

    @Override
    long bytes()
    {
        long bytes = count / 8;
        for (ColumnBuilder child : children) {
            bytes += child.bytes();
        }
        return bytes;
    }

    @Override
    long retainedBytes()
    {
        long bytes = super.retainedBytes();
        for (ColumnBuilder child : children) {
            bytes += child.retainedBytes();
        }
        return bytes;
    }
}
