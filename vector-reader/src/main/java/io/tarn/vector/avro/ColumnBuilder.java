package io.tarn.vector.avro;

import io.tarn.types.ArrayType;
import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.MapType;
import io.tarn.types.MultisetType;
import io.tarn.types.RowType;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The values of one output column (or of a nested part of it) for the batch being decoded, kept
 * on the heap in Arrow's own layout (little-endian fixed-width values, validity bits, offsets)
 * while records are decoded one by one, and copied into the batch's vector in bulk when the
 * batch is complete. Arrays grow as needed and are reused from batch to batch.
 * <p>
 * The Arrow layouts are those of {@link io.tarn.vector.ArrowTypes}: BOOLEAN a bit per value;
 * TINYINT, SMALLINT, INT / DATE / TIME / FLOAT, BIGINT / DOUBLE / TIMESTAMP and DECIMAL 1, 2, 4,
 * 8 and 16 bytes; strings and binaries offsets and bytes; ARRAY, MAP and MULTISET a list (of
 * key-value structs for maps); ROW a struct, whose children get a (null) slot for every slot of
 * the struct.
 */
abstract class ColumnBuilder
{
    protected int count;
    private byte[] validity = new byte[8];

    /**
     * A builder for values of {@code type}.
     */
    static ColumnBuilder forType(DataType type)
    {
        if (type instanceof ArrayType array) {
            return new ListBuilder(forType(array.element()));
        }
        if (type instanceof MapType map) {
            return new ListBuilder(new StructBuilder(List.of(forType(map.key()), forType(map.value()))));
        }
        if (type instanceof MultisetType multiset) {
            return new ListBuilder(new StructBuilder(List.of(forType(multiset.element()), new FixedWidthBuilder(4))));
        }
        if (type instanceof RowType row) {
            List<ColumnBuilder> children = new ArrayList<>();
            for (DataField field : row.fields()) {
                children.add(forType(field.type()));
            }
            return new StructBuilder(children);
        }
        AtomicType atomic = (AtomicType) type;
        return switch (atomic.root()) {
            case BOOLEAN -> new BooleanBuilder();
            case TINYINT -> new FixedWidthBuilder(1);
            case SMALLINT -> new FixedWidthBuilder(2);
            case INT, DATE, TIME, FLOAT -> new FixedWidthBuilder(4);
            case BIGINT, DOUBLE, TIMESTAMP, TIMESTAMP_LTZ -> new FixedWidthBuilder(8);
            case DECIMAL -> new FixedWidthBuilder(16);
            case CHAR, VARCHAR, BINARY, VARBINARY -> new BinaryBuilder();
            default -> throw new IllegalArgumentException("No Arrow layout for " + type.asSqlString());
        };
    }

    final int count()
    {
        return count;
    }

    /**
     * Forgets the values, keeping the arrays.
     */
    void reset()
    {
        count = 0;
    }

    /**
     * Appends a null slot.
     */
    abstract void appendNull();

    /**
     * Copies the slots into {@code vector}, which becomes a vector of {@link #count()} values.
     */
    abstract void write(FieldVector vector);

    /**
     * About the bytes the slots take in Arrow.
     */
    abstract long bytes();

    /**
     * The heap this builder and its children hold.
     */
    long retainedBytes()
    {
        return validity.length;
    }

    /**
     * Marks slot {@link #count()} valid or null; the caller then advances the count.
     */
    final void setValidity(boolean valid)
    {
        int slot = count;
        int index = slot >>> 3;
        if (index >= validity.length) {
            validity = Arrays.copyOf(validity, validity.length * 2);
        }
        // the first slot of a byte clears the bits left from an earlier batch
        int bits = (slot & 7) == 0 ? 0 : validity[index];
        if (valid) {
            bits |= 1 << (slot & 7);
        }
        validity[index] = (byte) bits;
    }

    final void writeValidity(ArrowBuf buffer)
    {
        int bytes = (count + 7) >>> 3;
        if (buffer.capacity() < bytes) {
            throw new IllegalStateException("Validity buffer of " + buffer.capacity() + " bytes cannot hold " + count + " slots");
        }
        buffer.setBytes(0, validity, 0, bytes);
    }

    static int grow(int length, int needed)
    {
        if (needed < 0) {
            throw new IllegalStateException("Column of more than 2^31 bytes or values");
        }
        return (int) Math.min(Integer.MAX_VALUE - 8, Math.max(needed, length * 2L));
    }

    /**
     * Values of 1, 2, 4, 8 or 16 bytes (BOOLEAN excepted), little-endian.
     */
    static final class FixedWidthBuilder
            extends ColumnBuilder
    {
        private static final VarHandle SHORTS = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
        private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
        private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

        private final int width;
        private byte[] data = new byte[64];

        FixedWidthBuilder(int width)
        {
            this.width = width;
        }

        int width()
        {
            return width;
        }

        private int slotOffset()
        {
            int offset = count * width;
            if (offset > data.length - width) {
                data = Arrays.copyOf(data, grow(data.length, offset + width));
            }
            return offset;
        }

        void appendByte(int value)
        {
            // the offset first: growing replaces the array
            int offset = slotOffset();
            data[offset] = (byte) value;
            setValidity(true);
            count++;
        }

        void appendShort(int value)
        {
            int offset = slotOffset();
            SHORTS.set(data, offset, (short) value);
            setValidity(true);
            count++;
        }

        void appendInt(int value)
        {
            int offset = slotOffset();
            INTS.set(data, offset, value);
            setValidity(true);
            count++;
        }

        void appendLong(long value)
        {
            int offset = slotOffset();
            LONGS.set(data, offset, value);
            setValidity(true);
            count++;
        }

        /**
         * A 128-bit two's complement value, low 64 bits first.
         */
        void appendDecimal(long low, long high)
        {
            int offset = slotOffset();
            LONGS.set(data, offset, low);
            LONGS.set(data, offset + 8, high);
            setValidity(true);
            count++;
        }

        /**
         * An integer of any width: truncated to this builder's width, or sign-extended.
         */
        void appendInteger(long value)
        {
            switch (width) {
                case 1 -> appendByte((int) value);
                case 2 -> appendShort((int) value);
                case 4 -> appendInt((int) value);
                case 8 -> appendLong(value);
                default -> appendDecimal(value, value >> 63);
            }
        }

        @Override
        void appendNull()
        {
            int offset = slotOffset();
            Arrays.fill(data, offset, offset + width, (byte) 0);
            setValidity(false);
            count++;
        }

        @Override
        void write(FieldVector vector)
        {
            BaseFixedWidthVector fixed = (BaseFixedWidthVector) vector;
            if (fixed.getTypeWidth() != width) {
                throw new IllegalStateException("A builder of " + width + "-byte values for a vector of " + fixed.getTypeWidth() + "-byte values");
            }
            ensureCapacity(fixed, count);
            fixed.getDataBuffer().setBytes(0, data, 0, (long) count * width);
            writeValidity(fixed.getValidityBuffer());
            fixed.setValueCount(count);
        }

        @Override
        long bytes()
        {
            return (long) count * width;
        }

        @Override
        long retainedBytes()
        {
            return super.retainedBytes() + data.length;
        }
    }

    static void ensureCapacity(BaseFixedWidthVector vector, int slots)
    {
        if (vector.getValueCapacity() < slots || vector.getDataBuffer().capacity() == 0) {
            vector.clear();
            vector.allocateNew(Math.max(slots, 1));
        }
    }

    /**
     * BOOLEAN: a bit per value, as Arrow's bit vector holds them.
     */
    static final class BooleanBuilder
            extends ColumnBuilder
    {
        private byte[] bits = new byte[8];

        void appendBoolean(boolean value)
        {
            setBit(value);
            setValidity(true);
            count++;
        }

        @Override
        void appendNull()
        {
            setBit(false);
            setValidity(false);
            count++;
        }

        private void setBit(boolean value)
        {
            int index = count >>> 3;
            if (index >= bits.length) {
                bits = Arrays.copyOf(bits, bits.length * 2);
            }
            int current = (count & 7) == 0 ? 0 : bits[index];
            bits[index] = (byte) (value ? current | (1 << (count & 7)) : current);
        }

        @Override
        void write(FieldVector vector)
        {
            BaseFixedWidthVector fixed = (BaseFixedWidthVector) vector;
            ensureCapacity(fixed, count);
            fixed.getDataBuffer().setBytes(0, bits, 0, (count + 7) >>> 3);
            writeValidity(fixed.getValidityBuffer());
            fixed.setValueCount(count);
        }

        @Override
        long bytes()
        {
            return (count + 7L) / 8;
        }

        @Override
        long retainedBytes()
        {
            return super.retainedBytes() + bits.length;
        }
    }

    /**
     * CHAR, VARCHAR, BINARY and VARBINARY: the bytes of all values and an offset per value.
     */
    static final class BinaryBuilder
            extends ColumnBuilder
    {
        private byte[] data = new byte[256];
        // offsets[i] is where value i starts; offsets[count] where the bytes end
        private int[] offsets = new int[65];

        void appendBytes(byte[] source, int offset, int length)
        {
            int end = offsets[count];
            if (length > data.length - end) {
                data = Arrays.copyOf(data, grow(data.length, end + length));
            }
            System.arraycopy(source, offset, data, end, length);
            advance(end + length);
            setValidity(true);
            count++;
        }

        private void advance(int end)
        {
            if (count + 2 > offsets.length) {
                offsets = Arrays.copyOf(offsets, grow(offsets.length, count + 2));
            }
            offsets[count + 1] = end;
        }

        /**
         * Room for {@code length} more bytes after the values so far, for a caller that writes a
         * value in place ({@link #data()} from {@link #end()}) and then {@link #commit}s it.
         */
        void reserve(int length)
        {
            int end = offsets[count];
            if (length > data.length - end) {
                data = Arrays.copyOf(data, grow(data.length, end + length));
            }
        }

        byte[] data()
        {
            return data;
        }

        int end()
        {
            return offsets[count];
        }

        void commit(int length)
        {
            advance(offsets[count] + length);
            setValidity(true);
            count++;
        }

        @Override
        void appendNull()
        {
            advance(offsets[count]);
            setValidity(false);
            count++;
        }

        @Override
        void reset()
        {
            super.reset();
            offsets[0] = 0;
        }

        @Override
        void write(FieldVector vector)
        {
            BaseVariableWidthVector variable = (BaseVariableWidthVector) vector;
            int bytes = offsets[count];
            if (variable.getValueCapacity() < count || variable.getDataBuffer().capacity() < bytes || variable.getOffsetBuffer().capacity() < 4L * (count + 1)) {
                variable.clear();
                variable.allocateNew(Math.max(bytes, 1), Math.max(count, 1));
            }
            writeOffsets(variable.getOffsetBuffer(), offsets, count);
            variable.getDataBuffer().setBytes(0, data, 0, bytes);
            writeValidity(variable.getValidityBuffer());
            variable.setLastSet(count - 1);
            variable.setValueCount(count);
        }

        @Override
        long bytes()
        {
            return offsets[count] + 4L * count;
        }

        @Override
        long retainedBytes()
        {
            return super.retainedBytes() + data.length + 4L * offsets.length;
        }
    }

    static void writeOffsets(ArrowBuf buffer, int[] offsets, int count)
    {
        buffer.nioBuffer(0, 4 * (count + 1)).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().put(offsets, 0, count + 1);
    }

    /**
     * ARRAY, MAP and MULTISET: a list of elements (key-value structs for maps) per slot.
     */
    static final class ListBuilder
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

    /**
     * ROW, and the key-value entries of maps: a slot per record, with a slot in every child.
     */
    static final class StructBuilder
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
}
