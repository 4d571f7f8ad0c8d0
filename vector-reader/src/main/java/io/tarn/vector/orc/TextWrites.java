package io.tarn.vector.orc;

import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseVariableWidthVector;

/**
 * Writes variable-width values (kept as one byte array with offsets, or as separate arrays) into
 * a string or binary vector's slots.
 */
final class TextWrites
{
    private TextWrites() {}

    /**
     * Writes value {@code k} ({@code bytes[offsets[k], offsets[k + 1])}) of the present entries
     * into their slots.
     */
    static void write(BaseVariableWidthVector vector, int slots, int[] slotOfEntry, int entries, boolean[] presence, byte[] bytes, int[] offsets, int count)
    {
        long total = offsets[count];
        VectorWrites.prepareVariable(vector, slots, total);
        vector.getDataBuffer().setBytes(0, bytes, 0, total);
        long offsetAddress = VectorWrites.dataAddress(vector.getOffsetBuffer(), 4L * (slots + 1));
        if (slotOfEntry == null && count == entries) {
            // no nulls, entry e in slot e: the offsets are the values' own
            VectorWrites.setAllValid(vector.getValidityBuffer(), slots);
            for (int i = 0; i <= count; i++) {
                MemoryUtil.putInt(offsetAddress + 4L * i, offsets[i]);
            }
        }
        else if (slotOfEntry == null) {
            // entry e in slot e, some null: a null slot's offset repeats the one before
            VectorWrites.setValidity(vector.getValidityBuffer(), presence, entries);
            int value = 0;
            int end = 0;
            MemoryUtil.putInt(offsetAddress, 0);
            for (int entry = 0; entry < entries; entry++) {
                if (presence[entry]) {
                    end = offsets[++value];
                }
                MemoryUtil.putInt(offsetAddress + 4L * (entry + 1), end);
            }
        }
        else {
            long validity = VectorWrites.validityAddress(vector.getValidityBuffer(), slots);
            int value = 0;
            int nextSlot = 0;
            int end = 0;
            for (int entry = 0; entry < entries; entry++) {
                if (!presence[entry]) {
                    continue;
                }
                int slot = ColumnDecoder.slot(slotOfEntry, entry);
                // slots without a value before this one are empty
                while (nextSlot <= slot) {
                    MemoryUtil.putInt(offsetAddress + 4L * nextSlot, end);
                    nextSlot++;
                }
                end = offsets[value + 1];
                value++;
                VectorWrites.setValid(validity, slot);
            }
            while (nextSlot <= slots) {
                MemoryUtil.putInt(offsetAddress + 4L * nextSlot, end);
                nextSlot++;
            }
        }
        vector.setLastSet(slots - 1);
        vector.setValueCount(slots);
    }

    /**
     * As {@link #write(BaseVariableWidthVector, int, int[], int, boolean[], byte[], int[], int)}
     * for values held apart.
     */
    static void write(BaseVariableWidthVector vector, int slots, int[] slotOfEntry, int entries, boolean[] presence, byte[][] values, long totalBytes)
    {
        if (totalBytes > Integer.MAX_VALUE - 16) {
            throw new OrcLimitException("A batch of text is larger than 2 GB");
        }
        byte[] bytes = new byte[(int) totalBytes];
        int[] offsets = new int[values.length + 1];
        int position = 0;
        for (int i = 0; i < values.length; i++) {
            System.arraycopy(values[i], 0, bytes, position, values[i].length);
            position += values[i].length;
            offsets[i + 1] = position;
        }
        write(vector, slots, slotOfEntry, entries, presence, bytes, offsets, values.length);
    }
}
