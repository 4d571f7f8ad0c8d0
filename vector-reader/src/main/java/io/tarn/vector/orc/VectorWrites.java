package io.tarn.vector.orc;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
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

    /**
     * The address of a validity buffer that holds at least {@code slots} bits, for
     * {@link #setValid(long, long)}: the check is made once here instead of once per slot.
     */
    static long validityAddress(ArrowBuf validity, int slots)
    {
        checkCapacity(validity, (slots + 7L) / 8);
        return validity.memoryAddress();
    }

    /**
     * The address of a data buffer that holds at least {@code bytes} bytes, for writing a batch's
     * values without a bounds check per value.
     */
    static long dataAddress(ArrowBuf data, long bytes)
    {
        checkCapacity(data, bytes);
        return data.memoryAddress();
    }

    /**
     * Marks slot {@code slot} valid in the validity buffer at {@code address}, which
     * {@link #validityAddress} checked to hold it.
     */
    static void setValid(long address, long slot)
    {
        long at = address + (slot >>> 3);
        MemoryUtil.putByte(at, (byte) (MemoryUtil.getByte(at) | 1 << (slot & 7)));
    }

    /**
     * Marks slots {@code [0, slots)} valid, whole bytes at a time; the buffer was cleared by the
     * prepare methods, so the bits after them stay 0.
     */
    static void setAllValid(ArrowBuf validity, int slots)
    {
        long address = validityAddress(validity, slots);
        int whole = slots >>> 3;
        MemoryUtil.setMemory(address, whole, (byte) 0xFF);
        int left = slots & 7;
        if (left != 0) {
            MemoryUtil.putByte(address + whole, (byte) ((1 << left) - 1));
        }
    }

    /**
     * Sets the validity of slots {@code [0, count)} from {@code presence[0, count)}, a byte of
     * eight slots at a time.
     */
    static void setValidity(ArrowBuf validity, boolean[] presence, int count)
    {
        long address = validityAddress(validity, count);
        int whole = count >>> 3;
        for (int i = 0; i < whole; i++) {
            int base = i << 3;
            int bits = (presence[base] ? 1 : 0)
                    | (presence[base + 1] ? 2 : 0)
                    | (presence[base + 2] ? 4 : 0)
                    | (presence[base + 3] ? 8 : 0)
                    | (presence[base + 4] ? 16 : 0)
                    | (presence[base + 5] ? 32 : 0)
                    | (presence[base + 6] ? 64 : 0)
                    | (presence[base + 7] ? 128 : 0);
            MemoryUtil.putByte(address + i, (byte) bits);
        }
        int bits = 0;
        for (int slot = whole << 3; slot < count; slot++) {
            bits |= (presence[slot] ? 1 : 0) << (slot & 7);
        }
        if ((count & 7) != 0) {
            MemoryUtil.putByte(address + whole, (byte) bits);
        }
    }

    private static void checkCapacity(ArrowBuf buffer, long bytes)
    {
        if (buffer.capacity() < bytes) {
            throw new IllegalStateException("Buffer of " + buffer.capacity() + " bytes cannot hold " + bytes);
        }
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
