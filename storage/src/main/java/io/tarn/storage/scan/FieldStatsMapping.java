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
        Integer position = positionByFieldId.get(field.id());
        if (position == null) {
            if (!fileFieldIds.contains(field.id()) && field.defaultValue().isEmpty()) {
                return Optional.of(new ColumnStats(null, null, rowCount, rowCount));
            }
            return Optional.empty();
        }
        DataType statsType = typeByFieldId.get(field.id());
        if (!sameIgnoringNullability(statsType, field.type())) {
            return Optional.empty();
        }
        BinaryRow min = stats.minValues();
        BinaryRow max = stats.maxValues();
        List<Long> nullCounts = stats.nullCounts();
        if (min.arity() != arity || max.arity() != arity) {
            return Optional.empty();
        }
        Object minValue = min.isNullAt(position) ? null : min.value(position, statsType);
        Object maxValue = max.isNullAt(position) ? null : max.value(position, statsType);
        Long nullCount = position < nullCounts.size() ? nullCounts.get(position) : null;
        return Optional.of(new ColumnStats(minValue, maxValue, nullCount, rowCount));
    }

    static boolean sameIgnoringNullability(DataType left, DataType right)
    {
        return left.withNullable(true).equals(right.withNullable(true));
    }
}
