package io.tarn.storage.read;

import io.tarn.storage.CorruptFileException;
import io.tarn.storage.manifest.DataFileMeta;
import io.tarn.storage.schema.TableSchema;
import io.tarn.types.DataField;
import io.tarn.vector.ArrowTypes;
import io.tarn.vector.reader.DataFileReader;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The row-tracking columns ({@link RowTrackingFields}) among the columns a split reader reads
 * from its files, completed for each batch: a file reads them as stored (nulls where it does not
 * store them), and this fills each null from the file's metadata into a vector of its own, which
 * the split reader hands out instead of the file reader's.
 *
 * <p>Ownership: the filled vectors live in the allocator given at creation and stay valid until
 * the next {@link #fill} or {@link #close()}.
 */
final class RowTrackingColumns
        implements AutoCloseable
{
    private final String tableName;
    // by tracking column: its index among the read columns, whether it is _ROW_ID, its vector
    private final int[] readIndexes;
    private final boolean[] rowIds;
    private final BigIntVector[] filled;
    private int[] positions = new int[0];

    private RowTrackingColumns(String tableName, int[] readIndexes, boolean[] rowIds, BigIntVector[] filled)
    {
        this.tableName = tableName;
        this.readIndexes = readIndexes;
        this.rowIds = rowIds;
        this.filled = filled;
    }

    /**
     * The tracking columns among {@code readColumns}, or empty if there are none.
     *
     * @throws IllegalArgumentException if a read column is a tracking column but the table
     * version does not track rows
     */
    static Optional<RowTrackingColumns> of(String tableName, TableSchema readSchema, List<DataField> readColumns, BufferAllocator allocator)
    {
        List<Integer> indexes = new ArrayList<>();
        for (int i = 0; i < readColumns.size(); i++) {
            if (RowTrackingFields.byId(readColumns.get(i).id()).isPresent()) {
                indexes.add(i);
            }
        }
        if (indexes.isEmpty()) {
            return Optional.empty();
        }
        if (RowTrackingFields.of(tableName, readSchema).isEmpty()) {
            throw new IllegalArgumentException("Table %s does not track rows (row-tracking.enabled is not true in schema %s): it has no column %s"
                    .formatted(tableName, readSchema.id(), readColumns.get(indexes.get(0)).name()));
        }
        int[] readIndexes = indexes.stream().mapToInt(Integer::intValue).toArray();
        boolean[] rowIds = new boolean[readIndexes.length];
        BigIntVector[] filled = new BigIntVector[readIndexes.length];
        for (int i = 0; i < readIndexes.length; i++) {
            DataField field = readColumns.get(readIndexes[i]);
            rowIds[i] = field.id() == RowTrackingFields.ROW_ID.id();
            filled[i] = (BigIntVector) ArrowTypes.toArrowField(field).createVector(allocator);
        }
        return Optional.of(new RowTrackingColumns(tableName, readIndexes, rowIds, filled));
    }

    /**
     * The read columns with each tracking column nullable: a file that does not store it reads
     * it as nulls, which {@link #fill} replaces.
     */
    static List<DataField> asStored(List<DataField> readColumns)
    {
        return readColumns.stream()
                .map(column -> RowTrackingFields.byId(column.id()).isPresent() ? column.withType(column.type().withNullable(true)) : column)
                .toList();
    }

    /**
     * Completes the tracking columns of {@code batch}, the current batch of {@code reader}, which
     * reads {@code file}: a stored value is kept, a null becomes the file's first row id plus the
     * row's position in the file ({@code _ROW_ID}) or the file's largest sequence number
     * ({@code _SEQUENCE_NUMBER}).
     */
    void fill(DataFileReader reader, VectorSchemaRoot batch, DataFileMeta file)
            throws IOException
    {
        int rows = batch.getRowCount();
        boolean positionsRead = false;
        for (int i = 0; i < readIndexes.length; i++) {
            BigIntVector stored = (BigIntVector) batch.getVector(readIndexes[i]);
            BigIntVector target = filled[i];
            target.allocateNew(rows);
            long fallback = 0;
            if (rowIds[i] && stored.getNullCount() > 0) {
                if (file.firstRowId().isEmpty()) {
                    throw new CorruptFileException("Table %s tracks rows, but the manifest entry of data file %s has no first row id and the file does not store _ROW_ID"
                            .formatted(tableName, file.fileName()));
                }
                if (!positionsRead) {
                    if (positions.length < rows) {
                        positions = new int[rows];
                    }
                    reader.batchPositions(positions);
                    positionsRead = true;
                }
                fallback = file.firstRowId().getAsLong();
            }
            else if (!rowIds[i]) {
                fallback = file.maxSequenceNumber();
            }
            for (int row = 0; row < rows; row++) {
                long value;
                if (!stored.isNull(row)) {
                    value = stored.get(row);
                }
                else {
                    value = rowIds[i] ? fallback + positions[row] : fallback;
                }
                target.set(row, value);
            }
            target.setValueCount(rows);
        }
    }

    /**
     * The filled vector of read column {@code readIndex}, or empty if it is not a tracking column.
     */
    Optional<FieldVector> vector(int readIndex)
    {
        for (int i = 0; i < readIndexes.length; i++) {
            if (readIndexes[i] == readIndex) {
                return Optional.of(filled[i]);
            }
        }
        return Optional.empty();
    }

    @Override
    public void close()
    {
        for (BigIntVector vector : filled) {
            vector.close();
        }
    }
}
