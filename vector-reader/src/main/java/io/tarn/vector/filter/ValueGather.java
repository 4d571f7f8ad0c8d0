package io.tarn.vector.filter;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;

/**
 * Copies chosen rows of a flat vector into another vector of the same type with plain loads and
 * stores over their buffers: the values of fixed-width vectors (one loop per width), the bytes
 * and offsets of variable-width ones, and the validity bits. Arrow's {@code copyFromSafe} does the
 * same a row at a time, checking capacity and filling offset holes per row, which costs several
 * times more when a filter keeps a few rows of each batch.
 * <p>
 * Internal to the vector-reader module: public only for the reader package.
 */
public final class ValueGather
{
    private ValueGather() {}

    /**
     * Whether {@link #copy} takes {@code source}'s rows into {@code target}: both flat vectors of
     * the same class and width (not bits, which have no byte per value).
     */
    static boolean gathers(FieldVector source, FieldVector target)
    {
        if (source.getClass() != target.getClass() || source instanceof BitVector) {
            return false;
        }
        if (source instanceof BaseFixedWidthVector fixed) {
            return fixed.getTypeWidth() > 0 && fixed.getTypeWidth() == ((BaseFixedWidthVector) target).getTypeWidth();
        }
        return source instanceof BaseVariableWidthVector;
    }

    /**
     * Makes {@code target} (its old buffers released) hold rows {@code selected} of
     * {@code source}, in that order; the vectors must be such that {@link #gathers} holds.
     *
     * @throws IllegalArgumentException when a selected row is not a row of {@code source}
     */
    static void copy(FieldVector source, int[] selected, FieldVector target)
    {
        int valueCount = source.getValueCount();
        for (int row : selected) {
            if (row < 0 || row >= valueCount) {
                throw new IllegalArgumentException("Row " + row + " of a vector of " + valueCount + " values");
            }
        }
        int count = selected.length;
        if (source instanceof BaseFixedWidthVector fixed) {
            BaseFixedWidthVector to = (BaseFixedWidthVector) target;
            to.allocateNew(Math.max(count, 1));
            gatherFixed(fixed.getDataBuffer().memoryAddress(), fixed.getTypeWidth(), selected, 0, count, to.getDataBuffer().memoryAddress());
        }
        else {
            gatherVariable((BaseVariableWidthVector) source, selected, (BaseVariableWidthVector) target);
        }
        copyValidity(source, selected, target.getValidityBuffer());
        target.setValueCount(count);
    }

    /**
     * Copies the values of rows {@code selected[from, from + length)} of a fixed-width data
     * buffer at {@code sourceData} to {@code target}, one after the other. The caller has checked
     * that the rows are in the source and that {@code target} has room.
     */
    public static void gatherFixed(long sourceData, int width, int[] selected, int from, int length, long target)
    {
        // one loop per width, so that each copies with a single load and store
        switch (width) {
            case 8 -> {
                for (int i = 0; i < length; i++) {
                    MemoryUtil.putLong(target + i * 8L, MemoryUtil.getLong(sourceData + selected[from + i] * 8L));
                }
            }
            case 4 -> {
                for (int i = 0; i < length; i++) {
                    MemoryUtil.putInt(target + i * 4L, MemoryUtil.getInt(sourceData + selected[from + i] * 4L));
                }
            }
            case 2 -> {
                for (int i = 0; i < length; i++) {
                    MemoryUtil.putShort(target + i * 2L, MemoryUtil.getShort(sourceData + selected[from + i] * 2L));
                }
            }
            case 1 -> {
                for (int i = 0; i < length; i++) {
                    MemoryUtil.putByte(target + i, MemoryUtil.getByte(sourceData + selected[from + i]));
                }
            }
            default -> {
                for (int i = 0; i < length; i++) {
                    MemoryUtil.copyMemory(sourceData + (long) selected[from + i] * width, target + (long) i * width, width);
                }
            }
        }
    }

    private static void gatherVariable(BaseVariableWidthVector source, int[] selected, BaseVariableWidthVector target)
    {
        long sourceOffsets = source.getOffsetBuffer().memoryAddress();
        long bytes = 0;
        for (int row : selected) {
            bytes += MemoryUtil.getInt(sourceOffsets + (row + 1) * 4L) - MemoryUtil.getInt(sourceOffsets + row * 4L);
        }
        target.allocateNew(Math.max(bytes, 1), Math.max(selected.length, 1));
        long sourceData = source.getDataBuffer().memoryAddress();
        long targetData = target.getDataBuffer().memoryAddress();
        long targetOffsets = target.getOffsetBuffer().memoryAddress();
        int position = 0;
        MemoryUtil.putInt(targetOffsets, 0);
        for (int i = 0; i < selected.length; i++) {
            int row = selected[i];
            int start = MemoryUtil.getInt(sourceOffsets + row * 4L);
            int length = MemoryUtil.getInt(sourceOffsets + (row + 1) * 4L) - start;
            MemoryUtil.copyMemory(sourceData + start, targetData + position, length);
            position += length;
            MemoryUtil.putInt(targetOffsets + (i + 1) * 4L, position);
        }
        // every offset is written: setValueCount must not fill them again
        target.setLastSet(selected.length - 1);
    }

    private static void copyValidity(FieldVector source, int[] selected, ArrowBuf target)
    {
        int count = selected.length;
        target.setZero(0, (count + 7) / 8);
        if (source.getNullCount() == 0) {
            // no nulls: whole bytes at once
            target.setOne(0, count / 8);
            for (int i = count & ~7; i < count; i++) {
                BitVectorHelper.setBit(target, i);
            }
            return;
        }
        ArrowBuf validity = source.getValidityBuffer();
        for (int i = 0; i < count; i++) {
            if (BitVectorHelper.get(validity, selected[i]) != 0) {
                BitVectorHelper.setBit(target, i);
            }
        }
    }
}
