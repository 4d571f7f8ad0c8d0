package io.tarn.vector;

import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * Removes rows from flat Arrow vectors in place, keeping the rows at ascending positions: each
 * kept value moves down to its new position inside the same buffers (never upwards, so a value is
 * read before anything overwrites it). The reader decodes a window of rows in one pass and drops
 * the few unselected ones this way when a row selection is dense (a deletion vector, say), which
 * is much cheaper than decoding the selected runs between them one by one.
 */
final class InPlaceCompaction
{
    private InPlaceCompaction() {}

    /**
     * Whether {@link #compact} handles the vector: fixed-width, boolean and 32-bit-offset variable
     * width vectors; nested vectors are not.
     */
    static boolean supports(FieldVector vector)
    {
        return vector instanceof BaseFixedWidthVector || vector instanceof VarCharVector || vector instanceof VarBinaryVector;
    }

    /**
     * Keeps the rows {@code keep[0, count)} (strictly ascending) of {@code vector} and sets its
     * value count to {@code count}.
     */
    static void compact(FieldVector vector, int[] keep, int count)
    {
        // without nulls every validity bit is set, before and after: nothing to move
        boolean moveValidity = vector.getNullCount() > 0;
        long validity = vector.getValidityBuffer().memoryAddress();
        if (vector instanceof BitVector bits) {
            long data = bits.getDataBuffer().memoryAddress();
            for (int j = 0; j < count; j++) {
                if (moveValidity) {
                    moveBit(validity, keep[j], j);
                }
                moveBit(data, keep[j], j);
            }
            bits.setValueCount(count);
            return;
        }
        if (vector instanceof BaseFixedWidthVector fixed) {
            int width = fixed.getTypeWidth();
            long data = fixed.getDataBuffer().memoryAddress();
            for (int j = 0; j < count; j++) {
                int source = keep[j];
                if (source == j) {
                    continue;
                }
                if (moveValidity) {
                    moveBit(validity, source, j);
                }
                long from = data + (long) source * width;
                long to = data + (long) j * width;
                switch (width) {
                    case 1 -> MemoryUtil.putByte(to, MemoryUtil.getByte(from));
                    case 2 -> MemoryUtil.putShort(to, MemoryUtil.getShort(from));
                    case 4 -> MemoryUtil.putInt(to, MemoryUtil.getInt(from));
                    case 8 -> MemoryUtil.putLong(to, MemoryUtil.getLong(from));
                    case 16 -> {
                        MemoryUtil.putLong(to, MemoryUtil.getLong(from));
                        MemoryUtil.putLong(to + 8, MemoryUtil.getLong(from + 8));
                    }
                    default -> MemoryUtil.copyMemory(from, to, width);
                }
            }
            fixed.setValueCount(count);
            return;
        }
        if (vector instanceof VarCharVector || vector instanceof VarBinaryVector) {
            long offsets = vector.getOffsetBuffer().memoryAddress();
            long data = vector.getDataBuffer().memoryAddress();
            int cursor = MemoryUtil.getInt(offsets);
            for (int j = 0; j < count; j++) {
                int source = keep[j];
                if (moveValidity) {
                    moveBit(validity, source, j);
                }
                int start = MemoryUtil.getInt(offsets + (long) source * Integer.BYTES);
                int end = MemoryUtil.getInt(offsets + (long) (source + 1) * Integer.BYTES);
                int length = end - start;
                if (start != cursor && length > 0) {
                    moveDown(data + start, data + cursor, length);
                }
                cursor += length;
                MemoryUtil.putInt(offsets + (long) (j + 1) * Integer.BYTES, cursor);
            }
            if (vector instanceof VarCharVector varChar) {
                varChar.setLastSet(count - 1);
            }
            else {
                ((VarBinaryVector) vector).setLastSet(count - 1);
            }
            vector.setValueCount(count);
            return;
        }
        throw new IllegalArgumentException("Cannot compact a " + vector.getClass().getSimpleName() + " in place");
    }

    /**
     * Copies {@code length} bytes from {@code from} to {@code to <= from}: in ascending 8-byte
     * words, each read before a write can reach it (a write ends at or below the end of the word
     * just read), then the tail byte by byte so nothing past the value is read.
     */
    private static void moveDown(long from, long to, int length)
    {
        int offset = 0;
        for (; offset + Long.BYTES <= length; offset += Long.BYTES) {
            MemoryUtil.putLong(to + offset, MemoryUtil.getLong(from + offset));
        }
        for (; offset < length; offset++) {
            MemoryUtil.putByte(to + offset, MemoryUtil.getByte(from + offset));
        }
    }

    private static void moveBit(long buffer, int from, int to)
    {
        if (from == to) {
            return;
        }
        int bit = (MemoryUtil.getByte(buffer + (from >>> 3)) >>> (from & 7)) & 1;
        long address = buffer + (to >>> 3);
        byte current = MemoryUtil.getByte(address);
        int mask = 1 << (to & 7);
        MemoryUtil.putByte(address, (byte) (bit != 0 ? current | mask : current & ~mask));
    }
}
