package io.tarn.vector.filter;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.util.TransferPair;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Copies the selected rows of a batch: into new vectors of the caller's allocator, into the
 * caller's vectors, or in place of the old buffers. Flat vectors are copied through their buffers
 * ({@link ValueGather}); nested vectors structurally, their leaves value by value.
 */
final class RowCopier
{
    private RowCopier() {}

    static void compact(VectorSchemaRoot root, int[] selected)
    {
        requireNonNull(root, "root is null");
        checkSelection(selected, root.getRowCount());
        if (selected.length == root.getRowCount()) {
            // strictly ascending and in range: every row is selected
            return;
        }
        for (FieldVector vector : root.getFieldVectors()) {
            try (FieldVector compacted = copyRows(vector, selected, vector.getAllocator())) {
                TransferPair transfer = compacted.makeTransferPair(vector);
                transfer.transfer();
            }
        }
        root.setRowCount(selected.length);
    }

    static VectorSchemaRoot select(VectorSchemaRoot root, int[] selected, BufferAllocator allocator)
    {
        requireNonNull(root, "root is null");
        requireNonNull(allocator, "allocator is null");
        checkSelection(selected, root.getRowCount());
        List<FieldVector> vectors = new ArrayList<>();
        try {
            for (FieldVector vector : root.getFieldVectors()) {
                vectors.add(copyRows(vector, selected, allocator));
            }
        }
        catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        VectorSchemaRoot result = new VectorSchemaRoot(root.getSchema().getFields(), vectors, selected.length);
        result.setRowCount(selected.length);
        return result;
    }

    private static void checkSelection(int[] selected, int rowCount)
    {
        requireNonNull(selected, "selected is null");
        int previous = -1;
        for (int row : selected) {
            if (row <= previous || row >= rowCount) {
                throw new IllegalArgumentException("Selected rows must be strictly ascending indexes below " + rowCount + ", but " + row + " follows " + previous);
            }
            previous = row;
        }
    }

    private static FieldVector copyRows(FieldVector source, int[] selected, BufferAllocator allocator)
    {
        FieldVector target = source.getField().createVector(allocator);
        try {
            copyRows(source, selected, target);
            return target;
        }
        catch (RuntimeException e) {
            target.close();
            throw e;
        }
    }

    /**
     * Makes {@code target}, a vector of {@code source}'s type whose old contents are dropped,
     * hold rows {@code selected} of {@code source}: flat vectors through their buffers, nested
     * ones value by value.
     */
    static void copyRows(FieldVector source, int[] selected, FieldVector target)
    {
        if (ValueGather.gathers(source, target)) {
            ValueGather.copy(source, selected, target);
            return;
        }
        target.clear();
        target.setInitialCapacity(Math.max(selected.length, 1));
        target.allocateNew();
        for (int i = 0; i < selected.length; i++) {
            copyValue(source, selected[i], target, i);
        }
        target.setValueCount(selected.length);
    }

    // ListVector and StructVector copy through generic readers and writers that do not cover every
    // child type, so nested values are copied structurally and only leaves use copyFromSafe
    private static void copyValue(FieldVector source, int sourceRow, FieldVector target, int targetRow)
    {
        if (source instanceof ListVector list) {
            ListVector targetList = (ListVector) target;
            if (list.isNull(sourceRow)) {
                targetList.setNull(targetRow);
                return;
            }
            int start = list.getElementStartIndex(sourceRow);
            int end = list.getElementEndIndex(sourceRow);
            int offset = targetList.startNewValue(targetRow);
            for (int i = start; i < end; i++) {
                copyValue(list.getDataVector(), i, targetList.getDataVector(), offset + i - start);
            }
            targetList.endValue(targetRow, end - start);
            return;
        }
        if (source instanceof StructVector struct) {
            StructVector targetStruct = (StructVector) target;
            if (struct.isNull(sourceRow)) {
                targetStruct.setNull(targetRow);
                return;
            }
            targetStruct.setIndexDefined(targetRow);
            List<FieldVector> children = struct.getChildrenFromFields();
            List<FieldVector> targetChildren = targetStruct.getChildrenFromFields();
            for (int i = 0; i < children.size(); i++) {
                copyValue(children.get(i), sourceRow, targetChildren.get(i), targetRow);
            }
            return;
        }
        target.copyFromSafe(sourceRow, targetRow, source);
    }
}
