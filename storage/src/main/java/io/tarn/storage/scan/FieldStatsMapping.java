package io.tarn.storage.scan;

import io.tarn.index.predicate.ColumnStats;
import io.tarn.storage.binary.BinaryRow;
import io.tarn.storage.binary.SimpleStats;
import io.tarn.types.DataField;
import io.tarn.types.DataType;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;
import static java.util.stream.Collectors.toUnmodifiableSet;

/**
 * Maps the columns of a statistics row, written under one schema, to read-schema fields by field
 * id. A column whose type changed since the file was written has no trusted statistics; a field
 * the file's schema does not have at all (added later, without a default value) is null in every
 * row of the file.
 */
final class FieldStatsMapping
{
    private final Map<Integer, Integer> positionByFieldId;
    private final Map<Integer, DataType> typeByFieldId;
    private final Set<Integer> fileFieldIds;
    private final int arity;
    private final Map<Integer, Column> columns = new HashMap<>();

    /**
     * @param statsFields the fields the statistics row holds, in its order; a null entry is a
     * column the schema does not know, whose statistics are never used
     * @param fileFields every field of the schema the file was written with
     */
    FieldStatsMapping(List<DataField> statsFields, List<DataField> fileFields)
    {
        requireNonNull(statsFields, "statsFields is null");
        positionByFieldId = new HashMap<>();
        typeByFieldId = new HashMap<>();
        for (int i = 0; i < statsFields.size(); i++) {
            if (statsFields.get(i) == null) {
                continue;
            }
            positionByFieldId.put(statsFields.get(i).id(), i);
            typeByFieldId.put(statsFields.get(i).id(), statsFields.get(i).type());
        }
        fileFieldIds = fileFields.stream().map(DataField::id).collect(toUnmodifiableSet());
        arity = statsFields.size();
    }

    /**
     * The statistics of {@code field} in a file with {@code rowCount} rows, or empty when they are
     * unknown or cannot be trusted.
     */
    Optional<ColumnStats> stats(DataField field, SimpleStats stats, long rowCount)
    {
        Column column = column(field);
        if (column.position < 0) {
            return column.allNull ? Optional.of(new ColumnStats(null, null, rowCount, rowCount)) : Optional.empty();
        }
        if (column.statsType == null) {
            return Optional.empty();
        }
        int position = column.position;
        BinaryRow min = stats.minValues();
        BinaryRow max = stats.maxValues();
        if (min.arity() != arity || max.arity() != arity) {
            return Optional.empty();
        }
        // only this column of the rows is decoded
        Object minValue = min.isNullAt(position) ? null : min.value(position, column.statsType);
        Object maxValue = max.isNullAt(position) ? null : max.value(position, column.statsType);
        List<Long> nullCounts = stats.nullCounts();
        Long nullCount = position < nullCounts.size() ? nullCounts.get(position) : null;
        return Optional.of(new ColumnStats(minValue, maxValue, nullCount, rowCount));
    }

    /** Where the statistics of {@code field} are, resolved once per read field. */
    private Column column(DataField field)
    {
        Column column = columns.get(field.id());
        if (column != null && column.field == field) {
            return column;
        }
        Integer position = positionByFieldId.get(field.id());
        if (position == null) {
            column = new Column(field, -1, null, !fileFieldIds.contains(field.id()) && field.defaultValue().isEmpty());
        }
        else {
            DataType statsType = typeByFieldId.get(field.id());
            // a column whose type changed has no trusted statistics
            column = new Column(field, position, sameIgnoringNullability(statsType, field.type()) ? statsType : null, false);
        }
        columns.put(field.id(), column);
        return column;
    }

    /**
     * @param statsType null when the statistics cannot be trusted
     * @param allNull for a field without statistics: the file has no such column, so every value is null
     */
    private record Column(DataField field, int position, DataType statsType, boolean allNull) {}

    static boolean sameIgnoringNullability(DataType left, DataType right)
    {
        return left.withNullable(true).equals(right.withNullable(true));
    }
}
