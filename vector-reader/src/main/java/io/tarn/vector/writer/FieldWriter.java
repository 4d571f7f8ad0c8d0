package io.tarn.vector.writer;

import io.tarn.types.ArrayType;
import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.MapType;
import io.tarn.types.MultisetType;
import io.tarn.types.RowType;
import io.tarn.types.TypeRoot;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Writes one field's values from an Arrow vector into the parquet-mr column writers of its leaf
 * columns, computing repetition and definition levels on the way (Dremel encoding).
 *
 * <p>{@code definitionLevel} passed to {@link #write} is the level reached by the field's
 * parent: every optional or repeated ancestor present. A field adds one level when it is
 * optional and present; a list or map adds one more for each element it holds. Nulls and empty
 * collections are written to every leaf below at the level reached. Repetition level 0 starts a
 * row; an element after the first of a collection repeats at that collection's depth.
 */
abstract class FieldWriter
{
    final String name;
    final boolean optional;

    private FieldWriter(String name, boolean optional)
    {
        this.name = requireNonNull(name, "name is null");
        this.optional = optional;
    }

    static List<FieldWriter> create(RowType rowType, MessageType message)
    {
        List<FieldWriter> writers = new ArrayList<>();
        for (DataField field : rowType.fields()) {
            writers.add(create(field.name(), field.type(), message, List.of(field.name()), 0));
        }
        return writers;
    }

    private static FieldWriter create(String name, DataType type, MessageType message, List<String> path, int repetitionDepth)
    {
        if (type instanceof ArrayType array) {
            FieldWriter element = create("element", array.element(), message, append(path, "list", "element"), repetitionDepth + 1);
            return new ListWriter(name, type.nullable(), repetitionDepth + 1, element, null);
        }
        if (type instanceof MapType map) {
            return mapWriter(name, type.nullable(), map.key(), map.value(), message, path, repetitionDepth);
        }
        if (type instanceof MultisetType multiset) {
            return mapWriter(name, type.nullable(), multiset.element(), new AtomicType(TypeRoot.INT, 0, 0, false), message, path, repetitionDepth);
        }
        if (type instanceof RowType row) {
            List<FieldWriter> children = new ArrayList<>();
            for (DataField child : row.fields()) {
                children.add(create(child.name(), child.type(), message, append(path, child.name()), repetitionDepth));
            }
            return new StructWriter(name, type.nullable(), children);
        }
        ColumnDescriptor column = message.getColumnDescription(path.toArray(new String[0]));
        return new PrimitiveWriter(name, type.nullable(), column, valueWriter((AtomicType) type));
    }

    private static FieldWriter mapWriter(String name, boolean nullable, DataType key, DataType value, MessageType message, List<String> path, int repetitionDepth)
    {
        FieldWriter keyWriter = create("key", key.withNullable(false), message, append(path, "key_value", "key"), repetitionDepth + 1);
        FieldWriter valueWriter = create("value", value, message, append(path, "key_value", "value"), repetitionDepth + 1);
        return new ListWriter(name, nullable, repetitionDepth + 1, keyWriter, valueWriter);
    }

    private static List<String> append(List<String> path, String... names)
    {
        List<String> result = new ArrayList<>(path);
        result.addAll(List.of(names));
        return result;
    }

    /**
     * Points the leaf writers at the column writers of a new row group.
     */
    abstract void bind(ColumnWriteStore store);

    /**
     * Writes the value at {@code index} of {@code vector}; a top-level field writes row
     * {@code index} with both levels 0.
     */
    abstract void write(FieldVector vector, int index, int repetitionLevel, int definitionLevel);

    abstract void writeNull(int repetitionLevel, int definitionLevel);

    final IllegalArgumentException nullInRequired()
    {
        return new IllegalArgumentException("Null value in NOT NULL field " + name);
    }

    private static final class PrimitiveWriter
            extends FieldWriter
    {
        private final ColumnDescriptor column;
        private final ValueWriter values;
        private ColumnWriter writer;

        PrimitiveWriter(String name, boolean optional, ColumnDescriptor column, ValueWriter values)
        {
            super(name, optional);
            this.column = requireNonNull(column, "column is null");
            this.values = requireNonNull(values, "values is null");
        }

        @Override
        void bind(ColumnWriteStore store)
        {
            writer = store.getColumnWriter(column);
        }

        @Override
        void write(FieldVector vector, int index, int repetitionLevel, int definitionLevel)
        {
            if (vector.isNull(index)) {
                if (!optional) {
                    throw nullInRequired();
                }
                writer.writeNull(repetitionLevel, definitionLevel);
                return;
            }
            values.write(writer, vector, index, repetitionLevel, optional ? definitionLevel + 1 : definitionLevel);
        }

        @Override
        void writeNull(int repetitionLevel, int definitionLevel)
        {
            writer.writeNull(repetitionLevel, definitionLevel);
        }
    }

    private static final class StructWriter
            extends FieldWriter
    {
        private final List<FieldWriter> children;

        StructWriter(String name, boolean optional, List<FieldWriter> children)
        {
            super(name, optional);
            this.children = List.copyOf(children);
        }

        @Override
        void bind(ColumnWriteStore store)
        {
            children.forEach(child -> child.bind(store));
        }

        @Override
        void write(FieldVector vector, int index, int repetitionLevel, int definitionLevel)
        {
            if (vector.isNull(index)) {
                if (!optional) {
                    throw nullInRequired();
                }
                writeNull(repetitionLevel, definitionLevel);
                return;
            }
            StructVector struct = (StructVector) vector;
            int level = optional ? definitionLevel + 1 : definitionLevel;
            for (int i = 0; i < children.size(); i++) {
                children.get(i).write((FieldVector) struct.getChildByOrdinal(i), index, repetitionLevel, level);
            }
        }

        @Override
        void writeNull(int repetitionLevel, int definitionLevel)
        {
            for (FieldWriter child : children) {
                child.writeNull(repetitionLevel, definitionLevel);
            }
        }
    }

    /**
     * An ARRAY (one element writer) or a MAP or MULTISET (key and value writers over the
     * entries struct).
     */
    private static final class ListWriter
            extends FieldWriter
    {
        private final int repetition;
        private final FieldWriter first;
        private final FieldWriter second;

        ListWriter(String name, boolean optional, int repetition, FieldWriter first, FieldWriter second)
        {
            super(name, optional);
            this.repetition = repetition;
            this.first = requireNonNull(first, "first is null");
            this.second = second;
        }

        @Override
        void bind(ColumnWriteStore store)
        {
            first.bind(store);
            if (second != null) {
                second.bind(store);
            }
        }

        @Override
        void write(FieldVector vector, int index, int repetitionLevel, int definitionLevel)
        {
            if (vector.isNull(index)) {
                if (!optional) {
                    throw nullInRequired();
                }
                writeNull(repetitionLevel, definitionLevel);
                return;
            }
            ListVector list = (ListVector) vector;
            int level = optional ? definitionLevel + 1 : definitionLevel;
            int start = list.getElementStartIndex(index);
            int end = list.getElementEndIndex(index);
            if (start == end) {
                writeNull(repetitionLevel, level);
                return;
            }
            FieldVector data = list.getDataVector();
            FieldVector firstVector = data;
            FieldVector secondVector = null;
            if (second != null) {
                StructVector entries = (StructVector) data;
                firstVector = (FieldVector) entries.getChildByOrdinal(0);
                secondVector = (FieldVector) entries.getChildByOrdinal(1);
            }
            for (int element = start; element < end; element++) {
                int elementRepetition = element == start ? repetitionLevel : repetition;
                first.write(firstVector, element, elementRepetition, level + 1);
                if (second != null) {
                    second.write(secondVector, element, elementRepetition, level + 1);
                }
            }
        }

        @Override
        void writeNull(int repetitionLevel, int definitionLevel)
        {
            first.writeNull(repetitionLevel, definitionLevel);
            if (second != null) {
                second.writeNull(repetitionLevel, definitionLevel);
            }
        }
    }

    private interface ValueWriter
    {
        void write(ColumnWriter writer, FieldVector vector, int index, int repetitionLevel, int definitionLevel);
    }

    private static ValueWriter valueWriter(AtomicType type)
    {
        return switch (type.root()) {
            case BOOLEAN -> (writer, vector, index, r, d) -> writer.write(((BitVector) vector).get(index) != 0, r, d);
            case TINYINT -> (writer, vector, index, r, d) -> writer.write((int) ((TinyIntVector) vector).get(index), r, d);
            case SMALLINT -> (writer, vector, index, r, d) -> writer.write((int) ((SmallIntVector) vector).get(index), r, d);
            case INT -> (writer, vector, index, r, d) -> writer.write(((IntVector) vector).get(index), r, d);
            case DATE -> (writer, vector, index, r, d) -> writer.write(((DateDayVector) vector).get(index), r, d);
            case TIME -> (writer, vector, index, r, d) -> writer.write(((TimeMilliVector) vector).get(index), r, d);
            case BIGINT -> (writer, vector, index, r, d) -> writer.write(((BigIntVector) vector).get(index), r, d);
            case FLOAT -> (writer, vector, index, r, d) -> writer.write(((Float4Vector) vector).get(index), r, d);
            case DOUBLE -> (writer, vector, index, r, d) -> writer.write(((Float8Vector) vector).get(index), r, d);
            case CHAR, VARCHAR -> (writer, vector, index, r, d) -> writer.write(Binary.fromConstantByteArray(((VarCharVector) vector).get(index)), r, d);
            case BINARY, VARBINARY -> (writer, vector, index, r, d) -> writer.write(Binary.fromConstantByteArray(((VarBinaryVector) vector).get(index)), r, d);
            case DECIMAL -> decimalWriter(type.precision());
            case TIMESTAMP, TIMESTAMP_LTZ -> type.precision() <= 6
                    ? (writer, vector, index, r, d) -> writer.write(((TimeStampVector) vector).get(index), r, d)
                    : (writer, vector, index, r, d) -> writer.write(int96(((TimeStampVector) vector).get(index)), r, d);
            default -> throw new IllegalArgumentException("Type has no Parquet mapping: " + type);
        };
    }

    private static ValueWriter decimalWriter(int precision)
    {
        if (precision <= 9) {
            return (writer, vector, index, r, d) -> writer.write((int) lowUnscaled((DecimalVector) vector, index), r, d);
        }
        if (precision <= 18) {
            return (writer, vector, index, r, d) -> writer.write(lowUnscaled((DecimalVector) vector, index), r, d);
        }
        int length = ParquetSchemas.decimalBytes(precision);
        return (writer, vector, index, r, d) -> writer.write(Binary.fromConstantByteArray(decimalBytes((DecimalVector) vector, index, length)), r, d);
    }

    // a decimal of precision up to 18 fits the low 64 bits of Arrow's little-endian 128-bit value
    private static long lowUnscaled(DecimalVector vector, int index)
    {
        return vector.getDataBuffer().getLong((long) index * DecimalVector.TYPE_WIDTH);
    }

    /**
     * The big-endian two's complement of the unscaled value in {@code length} bytes, the
     * FIXED_LEN_BYTE_ARRAY form of DECIMAL.
     */
    static byte[] decimalBytes(DecimalVector vector, int index, int length)
    {
        ArrowBuf buffer = vector.getDataBuffer();
        long offset = (long) index * DecimalVector.TYPE_WIDTH;
        long low = buffer.getLong(offset);
        long high = buffer.getLong(offset + 8);
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            // byte i counted from the least significant end
            int bit = i * 8;
            long word = bit < 64 ? low : high;
            bytes[length - 1 - i] = (byte) (word >>> (bit % 64));
        }
        return bytes;
    }

    /**
     * INT96: eight little-endian bytes of nanoseconds within the day, then four of the Julian day.
     */
    static Binary int96(long epochNanos)
    {
        long nanosPerDay = 86_400_000_000_000L;
        long epochDay = Math.floorDiv(epochNanos, nanosPerDay);
        long nanosOfDay = Math.floorMod(epochNanos, nanosPerDay);
        int julianDay = Math.toIntExact(epochDay + 2_440_588);
        byte[] bytes = new byte[12];
        for (int i = 0; i < 8; i++) {
            bytes[i] = (byte) (nanosOfDay >>> (i * 8));
        }
        for (int i = 0; i < 4; i++) {
            bytes[8 + i] = (byte) (julianDay >>> (i * 8));
        }
        return Binary.fromConstantByteArray(bytes);
    }
}
