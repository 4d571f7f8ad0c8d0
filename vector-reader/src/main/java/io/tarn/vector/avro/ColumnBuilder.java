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
import org.apache.arrow.vector.FieldVector;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

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
 * the struct. Each layout has its own final subclass ({@link FixedWidthBuilder},
 * {@link BooleanBuilder}, {@link BinaryBuilder}, {@link ListBuilder}, {@link StructBuilder}), so
 * that a decoder holding one calls its appends directly.
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

    static void ensureCapacity(BaseFixedWidthVector vector, int slots)
    {
        if (vector.getValueCapacity() < slots || vector.getDataBuffer().capacity() == 0) {
            vector.clear();
            vector.allocateNew(Math.max(slots, 1));
        }
    }

    static void writeOffsets(ArrowBuf buffer, int[] offsets, int count)
    {
        buffer.nioBuffer(0, 4 * (count + 1)).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().put(offsets, 0, count + 1);
    }
}
