package io.tarn.vector.avro;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.ListVector;

import java.util.Arrays;

import static java.util.Objects.requireNonNull;

/**
 * ARRAY, MAP and MULTISET: a list of elements (key-value structs for maps) per slot.
 */
final class ListBuilder
        extends ColumnBuilder
{
    private final ColumnBuilder element;
    private int[] offsets = new int[65];

    ListBuilder(ColumnBuilder element)
    {
        this.element = requireNonNull(element, "element is null");
    }

    ColumnBuilder element()
    {
        return element;
    }

    /**
     * Ends a list whose elements were appended to {@link #element()} since the last slot.
     */
    void endList()
    {
        advance();
        setValidity(true);
        count++;
    }

    private void advance()
    {
        if (count + 2 > offsets.length) {
            offsets = Arrays.copyOf(offsets, grow(offsets.length, count + 2));
        }
        offsets[count + 1] = element.count();
    }

    @Override
    void appendNull()
    {
        advance();
        setValidity(false);
        count++;
    }

    @Override
    void reset()
    {
        super.reset();
        offsets[0] = 0;
        element.reset();
    }

    @Override
    void write(FieldVector vector)
    {
        ListVector list = (ListVector) vector;
        if (list.getValueCapacity() < count || list.getOffsetBuffer().capacity() < 4L * (count + 1)) {
            list.setInitialCapacity(Math.max(count, 1));
            list.allocateNew();
        }
        writeOffsets(list.getOffsetBuffer(), offsets, count);
        writeValidity(list.getValidityBuffer());
        element.write(list.getDataVector());
        list.setLastSet(count - 1);
        list.setValueCount(count);
    }

    @Override
    long bytes()
    {
        return 4L * count + element.bytes();
    }

    @Override
    long retainedBytes()
    {
        return super.retainedBytes() + 4L * offsets.length + element.retainedBytes();
    }
}
