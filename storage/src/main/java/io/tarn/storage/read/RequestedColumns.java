package io.tarn.storage.read;

import io.tarn.types.DataField;
import io.tarn.vector.ArrowTypes;
import io.tarn.vector.filter.BatchFilter;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The requested columns of a file reader's batch, which holds them among columns the caller did
 * not ask for (filter columns, {@code _VALUE_KIND}) and row-tracking columns completed from the
 * file's metadata: as a view that shares the batch's vectors, or as a copy of some of its rows.
 *
 * <p>Ownership: a view's vectors belong to the file reader; the copy is a batch this owns, valid
 * until the next copy or {@link #close()}. The row-tracking columns belong to the caller.
 */
final class RequestedColumns
        implements AutoCloseable
{
    private final List<DataField> columns;
    // the index in the file reader's batch of each requested column
    private final int[] batchIndexes;
    private final Optional<RowTrackingColumns> rowTracking;
    private final BufferAllocator allocator;
    // created on the first copy
    private VectorSchemaRoot copy;

    RequestedColumns(List<DataField> columns, Map<Integer, Integer> batchIndexByFieldId, Optional<RowTrackingColumns> rowTracking, BufferAllocator allocator)
    {
        this.columns = List.copyOf(columns);
        this.batchIndexes = this.columns.stream().mapToInt(column -> batchIndexByFieldId.get(column.id())).toArray();
        this.rowTracking = requireNonNull(rowTracking, "rowTracking is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
    }

    /**
     * The requested columns of {@code batch}, sharing its vectors.
     */
    VectorSchemaRoot view(VectorSchemaRoot batch)
    {
        List<FieldVector> vectors = new ArrayList<>(columns.size());
        for (int index : batchIndexes) {
            vectors.add(vector(batch, index));
        }
        return new VectorSchemaRoot(vectors);
    }

    /**
     * The {@code selected} rows of {@code batch} (positions in it, ascending), copied.
     */
    VectorSchemaRoot copy(VectorSchemaRoot batch, int[] selected)
    {
        if (copy == null) {
            copy = VectorSchemaRoot.create(ArrowTypes.toArrowSchema(columns), allocator);
        }
        for (int column = 0; column < columns.size(); column++) {
            BatchFilter.copyRows(vector(batch, batchIndexes[column]), selected, copy.getVector(column));
        }
        copy.setRowCount(selected.length);
        return copy;
    }

    /**
     * Column {@code index} of the batch: the file reader's vector, or the completed one of a
     * row-tracking column.
     */
    private FieldVector vector(VectorSchemaRoot batch, int index)
    {
        if (rowTracking.isPresent()) {
            Optional<FieldVector> filled = rowTracking.get().vector(index);
            if (filled.isPresent()) {
                return filled.get();
            }
        }
        return batch.getVector(index);
    }

    @Override
    public void close()
    {
        if (copy != null) {
            copy.close();
        }
    }
}
