package io.tarn.vector.reader;

import io.tarn.vector.CorruptDataException;
import io.tarn.vector.reader.decoders.ValueBuffer;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Builds one output vector of a batch from the levels and values its column readers collected,
 * following Dremel's record assembly. A node's slots are the level entries of a leaf below it
 * with {@code repetition <= maxRepetition} and {@code definition >= minDefinition}, where the two
 * bounds come from the nearest enclosing list or map (0 and 0 at the top level): each such entry
 * starts one value of the node, which is null when its definition level is below the node's own.
 * A list's elements are the entries with repetition at most one more and definition at least
 * that of its repeated group.
 */
abstract class FieldAssembler
{
    /**
     * Fills {@code vector} with {@code slots} values.
     */
    abstract void write(FieldVector vector, int minDefinition, int maxRepetition, int slots);

    static void prepareValidity(ArrowBuf validity, int slots)
    {
        validity.setZero(0, (slots + 7L) / 8);
    }

    static void ensureFixedCapacity(BaseFixedWidthVector vector, int slots)
    {
        if (vector.getValueCapacity() < slots || vector.getDataBuffer().capacity() == 0) {
            vector.clear();
            vector.allocateNew(Math.max(slots, 1));
        }
    }

    /**
     * A column whose values an earlier pass over the same rows collected: copied from there,
     * batch after batch, without reading the file.
     */
    static final class Carried
            extends FieldAssembler
    {
        private final CarriedColumn column;
        private int nextRow;

        Carried(CarriedColumn column)
        {
            this.column = requireNonNull(column, "column is null");
        }

        @Override
        void write(FieldVector vector, int minDefinition, int maxRepetition, int slots)
        {
            column.copyTo(vector, nextRow, slots);
            nextRow += slots;
        }
    }

    /**
     * A requested column the file does not have: all null.
     */
    static final class Missing
            extends FieldAssembler
    {
        @Override
        void write(FieldVector vector, int minDefinition, int maxRepetition, int slots)
        {
            writeNulls(vector, slots);
        }

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
            prepareValidity(vector.getValidityBuffer(), slots);
            vector.setValueCount(slots);
        }
    }

    static final class Leaf
            extends FieldAssembler
    {
        private final ColumnReader[] readers;
        private final int leafIndex;
        private final LeafConverter converter;
        private int[] positions = new int[0];
        private ValueBuffer copy;

        Leaf(ColumnReader[] readers, int leafIndex, LeafConverter converter)
        {
            this.readers = requireNonNull(readers, "readers is null");
            this.leafIndex = leafIndex;
            this.converter = requireNonNull(converter, "converter is null");
        }

        /**
         * Makes this leaf convert a private copy of the decoded values, for a file column read
         * into more than one output column.
         */
        void copyValues()
        {
            if (copy == null) {
                copy = new ValueBuffer();
            }
        }

        @Override
        void write(FieldVector vector, int minDefinition, int maxRepetition, int slots)
        {
            ColumnReader reader = readers[leafIndex];
            if (reader.valuesLeftAsIds()) {
                // the batch's values are in its dictionary ids, which the caller takes instead
                writeNullVariable((BaseVariableWidthVector) vector, slots);
                return;
            }
            ValueBuffer values = reader.values;
            if (copy != null) {
                copy.copyFrom(values);
                values = copy;
            }
            int entries = reader.entries;
            int maxDefinition = reader.maxDefinition();
            int[] definitions = reader.definitions;
            // first, as conversions to text change the byte count the vector is sized for
            converter.convert(values);
            // positions[k] = slot of the k-th value; null when every entry is a slot with a value
            int[] slotOfValue = null;
            // the validity bits, when already written while finding the slots
            boolean validityDone = false;
            if (values.count != slots || (maxDefinition > 0 && entries != slots)) {
                if (positions.length < values.count) {
                    positions = new int[ValueBuffer.grow(positions.length, values.count)];
                }
                slotOfValue = positions;
                if (minDefinition == 0 && reader.maxRepetition() == 0 && entries == slots) {
                    // flat column: entry e is slot e; validity is written a byte at a time on the way
                    if (!converter.isVariableWidth()) {
                        ensureFixedCapacity((BaseFixedWidthVector) vector, slots);
                    }
                    else {
                        ensureVariableCapacity((BaseVariableWidthVector) vector, values.byteCount(), slots);
                    }
                    flatSlots(definitions, maxDefinition, slots, values.count, slotOfValue, vector.getValidityBuffer());
                    validityDone = true;
                }
                else {
                    int slot = 0;
                    int value = 0;
                    for (int e = 0; e < entries; e++) {
                        int definition = definitions[e];
                        if (definition >= minDefinition) {
                            if (definition == maxDefinition) {
                                if (value >= values.count) {
                                    throw new CorruptDataException("More defined levels than values");
                                }
                                slotOfValue[value++] = slot;
                            }
                            slot++;
                        }
                    }
                    if (slot != slots || value != values.count) {
                        throw new CorruptDataException("Levels describe " + slot + " slots and " + value + " values, expected " + slots + " and " + values.count);
                    }
                }
            }
            else if (maxDefinition > 0 && entries != values.count) {
                throw new CorruptDataException("Levels and values disagree");
            }
            if (converter.isVariableWidth()) {
                writeVariable((BaseVariableWidthVector) vector, values, slotOfValue, slots, validityDone);
                return;
            }
            BaseFixedWidthVector fixed = (BaseFixedWidthVector) vector;
            ensureFixedCapacity(fixed, slots);
            ArrowBuf validity = fixed.getValidityBuffer();
            if (converter.needsZeroedData()) {
                fixed.getDataBuffer().setZero(0, (slots + 7L) / 8);
            }
            if (!validityDone) {
                setValidity(validity, slotOfValue, values.count, slots);
            }
            converter.scatter(fixed, values, slotOfValue);
            fixed.setValueCount(slots);
        }

        /**
         * The slots of the values of a flat column (entry {@code e} is slot {@code e}, a value
         * where its definition level is the maximum), and its validity bits from the same pass.
         */
        static void flatSlots(int[] definitions, int maxDefinition, int slots, int count, int[] slotOfValue, ArrowBuf validity)
        {
            checkValidityCapacity(validity, slots);
            long address = validity.memoryAddress();
            int value = 0;
            for (int base = 0; base < slots; base += 8) {
                int limit = Math.min(8, slots - base);
                int bits = 0;
                for (int k = 0; k < limit; k++) {
                    if (definitions[base + k] == maxDefinition) {
                        if (value >= count) {
                            throw new CorruptDataException("More defined levels than values");
                        }
                        bits |= 1 << k;
                        slotOfValue[value++] = base + k;
                    }
                }
                MemoryUtil.putByte(address + (base >>> 3), (byte) bits);
            }
            if (value != count) {
                throw new CorruptDataException("Levels describe " + value + " values, expected " + count);
            }
        }

        private static void checkValidityCapacity(ArrowBuf validity, int slots)
        {
            if (validity.capacity() < (slots + 7L) / 8) {
                throw new IllegalStateException("Validity buffer of " + validity.capacity() + " bytes cannot hold " + slots + " slots");
            }
        }

        private static void setValidity(ArrowBuf validity, int[] slotOfValue, int count, int slots)
        {
            checkValidityCapacity(validity, slots);
            long address = validity.memoryAddress();
            if (slotOfValue == null) {
                // all slots valid: whole bytes of ones, then the tail bits
                int fullBytes = slots >>> 3;
                MemoryUtil.setMemory(address, fullBytes, (byte) 0xFF);
                if ((slots & 7) != 0) {
                    MemoryUtil.putByte(address + fullBytes, (byte) ((1 << (slots & 7)) - 1));
                }
                return;
            }
            MemoryUtil.setMemory(address, (slots + 7L) / 8, (byte) 0);
            for (int k = 0; k < count; k++) {
                int slot = slotOfValue[k];
                long at = address + (slot >>> 3);
                MemoryUtil.putByte(at, (byte) (MemoryUtil.getByte(at) | (1 << (slot & 7))));
            }
        }

        static void ensureVariableCapacity(BaseVariableWidthVector vector, long bytes, int slots)
        {
            if (vector.getValueCapacity() < slots || vector.getDataBuffer().capacity() < bytes || vector.getOffsetBuffer().capacity() < 4L * (slots + 1)) {
                vector.clear();
                vector.allocateNew(Math.max(bytes, 1), Math.max(slots, 1));
            }
        }

        private static void writeNullVariable(BaseVariableWidthVector vector, int slots)
        {
            ensureVariableCapacity(vector, 1, slots);
            vector.getOffsetBuffer().setZero(0, 4L * (slots + 1));
            prepareValidity(vector.getValidityBuffer(), slots);
            vector.setLastSet(slots - 1);
            vector.setValueCount(slots);
        }

        private static void writeVariable(BaseVariableWidthVector vector, ValueBuffer values, int[] slotOfValue, int slots, boolean validityDone)
        {
            long bytes = values.byteCount();
            ensureVariableCapacity(vector, bytes, slots);
            long offsets = vector.getOffsetBuffer().memoryAddress();
            int[] denseOffsets = values.offsets;
            if (slotOfValue == null) {
                for (int i = 0; i <= slots; i++) {
                    MemoryUtil.putInt(offsets + 4L * i, denseOffsets[i]);
                }
            }
            else {
                // slot s ends where the values up to and including slot s end
                int value = 0;
                int count = values.count;
                MemoryUtil.putInt(offsets, 0);
                for (int slot = 0; slot < slots; slot++) {
                    if (value < count && slotOfValue[value] == slot) {
                        value++;
                    }
                    MemoryUtil.putInt(offsets + 4L * (slot + 1), denseOffsets[value]);
                }
            }
            vector.getDataBuffer().setBytes(0, values.bytes, 0, bytes);
            if (!validityDone) {
                setValidity(vector.getValidityBuffer(), slotOfValue, values.count, slots);
            }
            vector.setLastSet(slots - 1);
            vector.setValueCount(slots);
        }
    }

    static final class Struct
            extends FieldAssembler
    {
        private final ColumnReader[] readers;
        private final int shapeIndex;
        private final int definition;
        private final List<FieldAssembler> children;

        Struct(ColumnReader[] readers, int shapeIndex, int definition, List<FieldAssembler> children)
        {
            this.readers = requireNonNull(readers, "readers is null");
            this.shapeIndex = shapeIndex;
            this.definition = definition;
            this.children = List.copyOf(children);
        }

        @Override
        void write(FieldVector vector, int minDefinition, int maxRepetition, int slots)
        {
            ColumnReader shape = readers[shapeIndex];
            StructVector struct = (StructVector) vector;
            if (struct.getValueCapacity() < slots || struct.getValidityBuffer().capacity() == 0) {
                struct.setInitialCapacity(Math.max(slots, 1));
                struct.allocateNew();
            }
            ArrowBuf validity = struct.getValidityBuffer();
            prepareValidity(validity, slots);
            int[] definitions = shape.definitions;
            int[] repetitions = shape.repetitions;
            boolean repeated = shape.maxRepetition() > 0;
            int slot = 0;
            for (int e = 0; e < shape.entries; e++) {
                int level = definitions[e];
                if (level >= minDefinition && (!repeated || repetitions[e] <= maxRepetition)) {
                    if (slot >= slots) {
                        throw new CorruptDataException("Struct levels describe more than " + slots + " values");
                    }
                    if (level >= definition) {
                        BitVectorHelper.setBit(validity, slot);
                    }
                    slot++;
                }
            }
            if (slot != slots) {
                throw new CorruptDataException("Struct levels describe " + slot + " values, expected " + slots);
            }
            List<FieldVector> childVectors = struct.getChildrenFromFields();
            for (int i = 0; i < children.size(); i++) {
                children.get(i).write(childVectors.get(i), minDefinition, maxRepetition, slots);
            }
            struct.setValueCount(slots);
        }
    }

    /**
     * ARRAY, MAP and MULTISET: a list vector whose elements are assembled by {@code element}
     * (for maps, a non-null struct of key and value).
     */
    static final class Repeated
            extends FieldAssembler
    {
        private final ColumnReader[] readers;
        private final int shapeIndex;
        private final int definition;
        private final int elementDefinition;
        private final int elementRepetition;
        private final FieldAssembler element;

        Repeated(ColumnReader[] readers, int shapeIndex, int definition, int elementDefinition, int elementRepetition, FieldAssembler element)
        {
            this.readers = requireNonNull(readers, "readers is null");
            this.shapeIndex = shapeIndex;
            this.definition = definition;
            this.elementDefinition = elementDefinition;
            this.elementRepetition = elementRepetition;
            this.element = requireNonNull(element, "element is null");
        }

        @Override
        void write(FieldVector vector, int minDefinition, int maxRepetition, int slots)
        {
            ColumnReader shape = readers[shapeIndex];
            ListVector list = (ListVector) vector;
            if (list.getValueCapacity() < slots || list.getOffsetBuffer().capacity() < 4L * (slots + 1)) {
                list.setInitialCapacity(Math.max(slots, 1));
                list.allocateNew();
            }
            ArrowBuf validity = list.getValidityBuffer();
            ArrowBuf offsets = list.getOffsetBuffer();
            prepareValidity(validity, slots);
            int[] definitions = shape.definitions;
            int[] repetitions = shape.repetitions;
            int slot = 0;
            int elements = 0;
            for (int e = 0; e < shape.entries; e++) {
                int level = definitions[e];
                int repetition = repetitions[e];
                if (level >= minDefinition && repetition <= maxRepetition) {
                    if (slot >= slots) {
                        throw new CorruptDataException("List levels describe more than " + slots + " values");
                    }
                    offsets.setInt(4L * slot, elements);
                    if (level >= definition) {
                        BitVectorHelper.setBit(validity, slot);
                    }
                    slot++;
                }
                if (level >= elementDefinition && repetition <= elementRepetition) {
                    if (slot == 0) {
                        throw new CorruptDataException("List element before the first list");
                    }
                    elements++;
                }
            }
            if (slot != slots) {
                throw new CorruptDataException("List levels describe " + slot + " values, expected " + slots);
            }
            offsets.setInt(4L * slots, elements);
            element.write(list.getDataVector(), elementDefinition, elementRepetition, elements);
            list.setLastSet(slots - 1);
            list.setValueCount(slots);
        }
    }

    /**
     * The key-value struct of a map: never null, one per map entry.
     */
    static final class Entries
            extends FieldAssembler
    {
        private final FieldAssembler key;
        private final FieldAssembler value;

        Entries(FieldAssembler key, FieldAssembler value)
        {
            this.key = requireNonNull(key, "key is null");
            this.value = requireNonNull(value, "value is null");
        }

        @Override
        void write(FieldVector vector, int minDefinition, int maxRepetition, int slots)
        {
            StructVector struct = (StructVector) vector;
            if (struct.getValueCapacity() < slots || struct.getValidityBuffer().capacity() == 0) {
                struct.setInitialCapacity(Math.max(slots, 1));
                struct.allocateNew();
            }
            ArrowBuf validity = struct.getValidityBuffer();
            prepareValidity(validity, slots);
            for (int i = 0; i < slots; i++) {
                BitVectorHelper.setBit(validity, i);
            }
            List<FieldVector> childVectors = struct.getChildrenFromFields();
            key.write(childVectors.get(0), minDefinition, maxRepetition, slots);
            value.write(childVectors.get(1), minDefinition, maxRepetition, slots);
            struct.setValueCount(slots);
        }
    }
}
