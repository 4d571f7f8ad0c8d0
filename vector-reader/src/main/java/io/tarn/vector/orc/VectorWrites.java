package io.tarn.vector.orc;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;

/**
 * Prepares output vectors for a batch: capacity for its slots (reallocated only when too small,
 * so batches reuse buffers) and all slots null, which the decoders then fill.
 */
final class VectorWrites
{
    private VectorWrites() {}

    static void prepareFixed(BaseFixedWidthVector vector, int slots)
    {
        if (vector.getValueCapacity() < slots || vector.getDataBuffer().capacity() == 0) {
            vector.clear();
            vector.setInitialCapacity(Math.max(slots, 1));
            vector.allocateNew();
        }
        clearValidity(vector.getValidityBuffer(), slots);
    }

    /**
     * As {@link #prepareFixed}, and zeroes the data of a bit vector, whose values are OR-ed in.
     */
    static void prepareBits(BaseFixedWidthVector vector, int slots)
    {
        prepareFixed(vector, slots);
        vector.getDataBuffer().setZero(0, (slots + 7L) / 8);
    }

    static void prepareVariable(BaseVariableWidthVector vector, int slots, long bytes)
    {
        if (vector.getValueCapacity() < slots || vector.getDataBuffer().capacity() < bytes || vector.getOffsetBuffer().capacity() < 4L * (slots + 1)) {
            vector.clear();
            vector.allocateNew(Math.max(bytes, 1), Math.max(slots, 1));
        }
        clearValidity(vector.getValidityBuffer(), slots);
    }

    static void prepareList(ListVector vector, int slots)
    {
        if (vector.getValueCapacity() < slots || vector.getOffsetBuffer().capacity() < 4L * (slots + 1) || vector.getValidityBuffer().capacity() < (slots + 7L) / 8) {
            vector.setInitialCapacity(Math.max(slots, 1));
            // allocates the list's own buffers; the data vector is prepared by its decoder
            vector.allocateNew();
        }
        clearValidity(vector.getValidityBuffer(), slots);
    }

    static void prepareStruct(StructVector vector, int slots)
    {
        if (vector.getValueCapacity() < slots || vector.getValidityBuffer().capacity() < (slots + 7L) / 8) {
            vector.setInitialCapacity(Math.max(slots, 1));
            vector.allocateNew();
        }
        clearValidity(vector.getValidityBuffer(), slots);
    }

    static void setValid(ArrowBuf validity, int slot)
    {
        BitVectorHelper.setBit(validity, slot);
    }

    private static void clearValidity(ArrowBuf validity, int slots)
    {
        validity.setZero(0, (slots + 7L) / 8);
    }

    /**
     * Fills {@code vector} with {@code slots} nulls, whatever its type.
     */
    static void writeNulls(FieldVector vector, int slots)
    {
        vector.clear();
        vector.setInitialCapacity(Math.max(slots, 1));
        vector.allocateNew();
        if (vector instanceof ListVector list) {
            list.getOffsetBuffer().setZero(0, 4L * (slots + 1));
            list.setLastSet(slots - 1);
        }
        if (vector instanceof BaseVariableWidthVector variable) {
            variable.getOffsetBuffer().setZero(0, 4L * (slots + 1));
            variable.setLastSet(slots - 1);
        }
        if (vector instanceof StructVector struct) {
            for (FieldVector child : struct.getChildrenFromFields()) {
                writeNulls(child, slots);
            }
        }
        clearValidity(vector.getValidityBuffer(), slots);
        vector.setValueCount(slots);
    }
}
