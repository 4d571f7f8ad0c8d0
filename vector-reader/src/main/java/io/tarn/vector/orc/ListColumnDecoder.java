package io.tarn.vector.orc;

import io.tarn.vector.CorruptDataException;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * A LIST column read as an ARRAY, or a MAP column read as a MAP or MULTISET (Paimon writes a
 * MULTISET as a MAP of its elements to INT counts): its PRESENT stream, a LENGTH stream with the
 * element count of each present value, and the element column (for maps, the key and the value
 * columns), which holds an entry per element.
 */
final class ListColumnDecoder
        extends ColumnDecoder
{
    private final ColumnDecoder element;
    // the value column of a map, else null
    private final ColumnDecoder mapValue;
    private IntegerDecoder lengths;
    private long[] decoded = new long[0];
    private long[] scratch = new long[1024];
    private int elements;

    ListColumnDecoder(int column, String name, ColumnDecoder element, ColumnDecoder mapValue)
    {
        super(column, name);
        this.element = element;
        this.mapValue = mapValue;
    }

    @Override
    void startValues(StripeStreams stripe)
            throws IOException
    {
        StripeFooter.Encoding.Kind kind = stripe.encoding(column).kind();
        if (kind.isDictionary()) {
            throw new CorruptDataException("Column " + name + " has dictionary encoding " + kind);
        }
        lengths = IntegerDecoder.create(stripe.requiredStream(column, StripeFooter.Stream.LENGTH), false, kind.isV2());
        element.startStripe(stripe);
        if (mapValue != null) {
            mapValue.startStripe(stripe);
        }
    }

    @Override
    void clearValues()
    {
        elements = 0;
        element.startBatch();
        if (mapValue != null) {
            mapValue.startBatch();
        }
    }

    @Override
    void readValues(int count)
    {
        if (decoded.length < values + count) {
            decoded = Arrays.copyOf(decoded, grow(decoded.length, values + count));
        }
        lengths.next(decoded, values, count);
        long total = 0;
        for (int i = values; i < values + count; i++) {
            if (decoded[i] < 0 || decoded[i] > MAX_BATCH_ENTRIES) {
                throw new CorruptDataException("Column " + name + " has a value of " + Long.toUnsignedString(decoded[i]) + " elements");
            }
            total += decoded[i];
        }
        if (total > MAX_BATCH_ENTRIES - elements) {
            throw new OrcLimitException("Column " + name + " has more than " + MAX_BATCH_ENTRIES + " elements in one batch");
        }
        elements += (int) total;
        element.read((int) total);
        if (mapValue != null) {
            mapValue.read((int) total);
        }
    }

    @Override
    void skipValues(long count)
    {
        long total = 0;
        while (count > 0) {
            int n = (int) Math.min(count, scratch.length);
            lengths.next(scratch, 0, n);
            for (int i = 0; i < n; i++) {
                if (scratch[i] < 0) {
                    throw new CorruptDataException("Column " + name + " has a value of " + Long.toUnsignedString(scratch[i]) + " elements");
                }
                total = Math.addExact(total, scratch[i]);
            }
            count -= n;
        }
        element.skip(total);
        if (mapValue != null) {
            mapValue.skip(total);
        }
    }

    @Override
    void seekValues(PositionCursor positions, RowIndexes indexes, int group)
    {
        lengths.seek(positions);
        element.seek(indexes, group);
        if (mapValue != null) {
            mapValue.seek(indexes, group);
        }
    }

    @Override
    void collectColumns(Set<Integer> columns)
    {
        super.collectColumns(columns);
        element.collectColumns(columns);
        if (mapValue != null) {
            mapValue.collectColumns(columns);
        }
    }

    @Override
    long batchBytes()
    {
        return 8L * values + entries + element.batchBytes() + (mapValue == null ? 0 : mapValue.batchBytes());
    }

    @Override
    void write(FieldVector vector, int slots, int[] slotOfEntry)
    {
        ListVector list = (ListVector) vector;
        VectorWrites.prepareList(list, slots);
        ArrowBuf validity = list.getValidityBuffer();
        ArrowBuf offsets = list.getOffsetBuffer();
        int value = 0;
        int nextSlot = 0;
        int end = 0;
        for (int entry = 0; entry < entries; entry++) {
            if (!presence[entry]) {
                continue;
            }
            int slot = slot(slotOfEntry, entry);
            while (nextSlot <= slot) {
                offsets.setInt(4L * nextSlot, end);
                nextSlot++;
            }
            end += (int) decoded[value++];
            BitVectorHelper.setBit(validity, slot);
        }
        while (nextSlot <= slots) {
            offsets.setInt(4L * nextSlot, end);
            nextSlot++;
        }
        FieldVector data = list.getDataVector();
        if (mapValue == null) {
            element.write(data, elements, null);
        }
        else {
            StructVector entriesVector = (StructVector) data;
            VectorWrites.prepareStruct(entriesVector, elements);
            ArrowBuf entriesValidity = entriesVector.getValidityBuffer();
            for (int i = 0; i < elements; i++) {
                BitVectorHelper.setBit(entriesValidity, i);
            }
            List<FieldVector> keyValue = entriesVector.getChildrenFromFields();
            element.write(keyValue.get(0), elements, null);
            mapValue.write(keyValue.get(1), elements, null);
            entriesVector.setValueCount(elements);
        }
        list.setLastSet(slots - 1);
        list.setValueCount(slots);
    }
}
