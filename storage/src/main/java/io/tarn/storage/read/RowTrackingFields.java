package io.tarn.storage.read;

import io.tarn.storage.schema.TableOptions;
import io.tarn.storage.schema.TableSchema;
import io.tarn.types.DataField;
import io.tarn.types.DataTypes;

import java.util.List;
import java.util.Optional;

/**
 * The two columns every row of a table with {@code row-tracking.enabled} has besides its own
 * (Paimon 1.3 and later): {@code _ROW_ID}, the row's id, unique in the table and kept when
 * compaction rewrites the row, and {@code _SEQUENCE_NUMBER}, the sequence number of the commit
 * that last wrote it. A {@link ReadRequest} of such a table may ask for them like any column.
 *
 * <p>Where a data file does not store them (files as first written, before a compaction
 * rewrote them with the two columns), or stores a null, they come from the file's metadata as
 * Paimon's readers take them: the row id is the file's first row id plus the row's position in
 * the file, the sequence number the file's largest.
 */
public final class RowTrackingFields
{
    public static final DataField ROW_ID = new DataField(Integer.MAX_VALUE - 5, "_ROW_ID", DataTypes.bigint().withNullable(false));
    public static final DataField SEQUENCE_NUMBER = SystemFields.SEQUENCE_NUMBER;

    private RowTrackingFields() {}

    /**
     * The row-tracking columns of a table version: both when its schema enables row tracking,
     * none otherwise.
     */
    public static List<DataField> of(String tableName, TableSchema schema)
    {
        return new TableOptions(tableName, schema.options()).rowTrackingEnabled() ? List.of(ROW_ID, SEQUENCE_NUMBER) : List.of();
    }

    /**
     * The row-tracking column of this field id, if it is one.
     */
    public static Optional<DataField> byId(int fieldId)
    {
        if (fieldId == ROW_ID.id()) {
            return Optional.of(ROW_ID);
        }
        if (fieldId == SEQUENCE_NUMBER.id()) {
            return Optional.of(SEQUENCE_NUMBER);
        }
        return Optional.empty();
    }
}
