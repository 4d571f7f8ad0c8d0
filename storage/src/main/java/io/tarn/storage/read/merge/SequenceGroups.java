package io.tarn.storage.read.merge;

import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.schema.TableSchema;
import io.tarn.types.DataField;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * The sequence groups of a {@code partial-update} table: option {@code fields.<s1,s2>.sequence-group
 * = <a,b>} makes columns a and b (and s1, s2 themselves) follow the sequence columns s1, s2.
 */
final class SequenceGroups
{
    private static final String PREFIX = "fields.";
    private static final String SUFFIX = ".sequence-group";
    static final String REMOVE_ON_SEQUENCE_GROUP = "partial-update.remove-record-on-sequence-group";

    // per column: the sequence columns of its group, or null outside every group
    private final int[][] sequenceColumns;
    private final Set<String> sequenceColumnNames;
    private final Set<String> protectedColumnNames;
    private final Set<Integer> removeOnDelete;

    private SequenceGroups(int[][] sequenceColumns, Set<String> sequenceColumnNames, Set<String> protectedColumnNames, Set<Integer> removeOnDelete)
    {
        this.sequenceColumns = sequenceColumns;
        this.sequenceColumnNames = Set.copyOf(sequenceColumnNames);
        this.protectedColumnNames = Set.copyOf(protectedColumnNames);
        this.removeOnDelete = Set.copyOf(removeOnDelete);
    }

    /**
     * The groups declared by {@code schema}'s options over {@code fields} (every column of the
     * schema, in order); empty when the table declares none.
     */
    static SequenceGroups parse(String table, TableSchema schema, List<DataField> fields)
            throws UnsupportedTableFeatureException
    {
        requireNonNull(table, "table is null");
        List<String> names = fields.stream().map(DataField::name).toList();
        int[][] sequenceColumns = new int[fields.size()][];
        Set<String> sequenceColumnNames = new HashSet<>();
        Set<String> protectedColumnNames = new HashSet<>();
        Map<String, Integer> sequenceColumnByName = new HashMap<>();
        for (Map.Entry<String, String> option : schema.options().entrySet()) {
            String key = option.getKey();
            if (!key.startsWith(PREFIX) || !key.endsWith(SUFFIX) || key.length() <= PREFIX.length() + SUFFIX.length()) {
                continue;
            }
            int[] group = columns(table, key, key.substring(PREFIX.length(), key.length() - SUFFIX.length()), names);
            for (int column : columns(table, key, option.getValue(), names)) {
                if (sequenceColumns[column] != null) {
                    throw new UnsupportedTableFeatureException("Table %s: column '%s' is in more than one sequence group (option '%s')"
                            .formatted(table, names.get(column), key));
                }
                sequenceColumns[column] = group;
                protectedColumnNames.add(names.get(column));
            }
            for (int column : group) {
                sequenceColumns[column] = group;
                sequenceColumnNames.add(names.get(column));
                sequenceColumnByName.put(names.get(column), column);
            }
        }
        Set<Integer> removeOnDelete = new HashSet<>();
        String removeOption = schema.options().get(REMOVE_ON_SEQUENCE_GROUP);
        if (removeOption != null) {
            for (String name : removeOption.split(",")) {
                Integer column = sequenceColumnByName.get(name.trim());
                if (column == null) {
                    throw new UnsupportedTableFeatureException("Table %s: column '%s' of option '%s' is not a sequence column of a sequence group"
                            .formatted(table, name.trim(), REMOVE_ON_SEQUENCE_GROUP));
                }
                removeOnDelete.add(column);
            }
        }
        return new SequenceGroups(sequenceColumns, sequenceColumnNames, protectedColumnNames, removeOnDelete);
    }

    private static int[] columns(String table, String option, String list, List<String> names)
            throws UnsupportedTableFeatureException
    {
        List<Integer> columns = new ArrayList<>();
        for (String name : list.split(",")) {
            int column = names.indexOf(name.trim());
            if (column < 0) {
                throw new UnsupportedTableFeatureException("Table %s: option '%s' names column '%s', which the table does not have"
                        .formatted(table, option, name.trim()));
            }
            columns.add(column);
        }
        return columns.stream().mapToInt(Integer::intValue).toArray();
    }

    boolean isEmpty()
    {
        return sequenceColumnNames.isEmpty();
    }

    /**
     * The sequence columns of the group {@code column} belongs to, or null.
     */
    int[] sequenceColumnsOf(int column)
    {
        return sequenceColumns[column];
    }

    boolean isSequenceColumn(String name)
    {
        return sequenceColumnNames.contains(name);
    }

    boolean isProtected(String name)
    {
        return protectedColumnNames.contains(name);
    }

    boolean removesRowOnDelete(int sequenceColumn)
    {
        return removeOnDelete.contains(sequenceColumn);
    }
}
