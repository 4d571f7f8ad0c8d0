package io.tarn.storage.read.merge;

import io.tarn.storage.CorruptFileException;
import io.tarn.types.DataField;

import java.io.IOException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * The {@code partial-update} merge engine with sequence groups ({@code fields.<s>.sequence-group =
 * <a,b>}), following Paimon 1.3's {@code PartialUpdateMergeFunction}: the columns of a group take a
 * record's values only when the record's group sequence is not older than the merged row's, a
 * record whose group sequence columns are all null leaves the group alone, a retraction clears (or
 * retracts, for an aggregated column) the group's columns, and a DELETE of a group listed in
 * {@code partial-update.remove-record-on-sequence-group} removes the whole row.
 *
 * <p>Columns are visited in schema order and compared against the row as merged so far, as Paimon
 * does: the first sequence column of a group updates all of the group's sequence columns at once.
 */
final class SequenceGroupPartialUpdate
        implements MergeFunction
{
    private final String table;
    private final List<DataField> fields;
    private final SequenceGroups groups;
    private final FieldAggregator[] aggregators;
    private final boolean ignoreDelete;

    private Object[] row;
    private long sequenceNumber;
    private boolean deleted;
    private boolean notNullFilled;
    private boolean metInsert;

    /**
     * @param aggregators per column (in {@code fields} order) its aggregate function, or null for a
     * column that takes the last non-null value (or, inside a group, the group's last value)
     */
    SequenceGroupPartialUpdate(String table, List<DataField> fields, SequenceGroups groups, FieldAggregator[] aggregators, boolean ignoreDelete)
    {
        this.table = requireNonNull(table, "table is null");
        this.fields = List.copyOf(fields);
        this.groups = requireNonNull(groups, "groups is null");
        this.aggregators = aggregators.clone();
        this.ignoreDelete = ignoreDelete;
        if (aggregators.length != fields.size()) {
            throw new IllegalArgumentException("One aggregator slot per field expected");
        }
    }

    @Override
    public void reset()
    {
        row = new Object[fields.size()];
        sequenceNumber = 0;
        deleted = false;
        notNullFilled = false;
        metInsert = false;
        for (FieldAggregator aggregator : aggregators) {
            if (aggregator != null) {
                aggregator.reset();
            }
        }
    }

    @Override
    public void add(KeyValue record)
            throws IOException
    {
        deleted = false;
        Object[] values = record.values();
        if (record.isRetract()) {
            if (!notNullFilled) {
                copyNotNull(values);
                notNullFilled = true;
            }
            if (ignoreDelete) {
                return;
            }
            sequenceNumber = record.sequenceNumber();
            retract(record);
            return;
        }
        sequenceNumber = record.sequenceNumber();
        update(values);
        metInsert = true;
        notNullFilled = true;
    }

    private void update(Object[] values)
            throws IOException
    {
        boolean[] emptyGroup = new boolean[row.length];
        for (int i = 0; i < row.length; i++) {
            int[] group = groups.sequenceColumnsOf(i);
            FieldAggregator aggregator = aggregators[i];
            Object accumulator = row[i];
            Object value = values[i];
            if (group == null) {
                if (aggregator != null) {
                    row[i] = aggregator.agg(accumulator, value);
                }
                else if (value != null) {
                    row[i] = value;
                }
                continue;
            }
            if (isEmptyGroup(values, group, emptyGroup)) {
                continue;
            }
            if (compareGroup(group, values, row) >= 0) {
                if (contains(group, i)) {
                    for (int sequenceColumn : group) {
                        row[sequenceColumn] = values[sequenceColumn];
                    }
                }
                else {
                    row[i] = aggregator == null ? value : aggregator.agg(accumulator, value);
                }
            }
            else if (aggregator != null) {
                // an older record still folds into the aggregate, from the other side
                row[i] = aggregator.agg(value, accumulator);
            }
        }
    }

    private void retract(KeyValue record)
            throws IOException
    {
        Object[] values = record.values();
        Set<Integer> updatedSequenceColumns = new HashSet<>();
        boolean[] emptyGroup = new boolean[row.length];
        for (int i = 0; i < row.length; i++) {
            int[] group = groups.sequenceColumnsOf(i);
            if (group == null || isEmptyGroup(values, group, emptyGroup)) {
                continue;
            }
            FieldAggregator aggregator = aggregators[i];
            if (compareGroup(group, values, row) >= 0) {
                if (contains(group, i)) {
                    for (int sequenceColumn : group) {
                        if (updatedSequenceColumns.add(sequenceColumn)) {
                            if (record.kind() == KeyValue.DELETE && groups.removesRowOnDelete(sequenceColumn)) {
                                deleted = true;
                                row = new Object[fields.size()];
                                copyNotNull(values);
                                return;
                            }
                            row[sequenceColumn] = values[sequenceColumn];
                        }
                    }
                }
                else {
                    row[i] = aggregator == null ? null : aggregator.retract(row[i], values[i]);
                }
            }
            else if (aggregator != null) {
                row[i] = aggregator.retract(row[i], values[i]);
            }
        }
    }

    /**
     * A record whose sequence columns of a group are all null does not touch the group; the flag
     * is kept per record so every column of the group sees the same answer.
     */
    private static boolean isEmptyGroup(Object[] values, int[] group, boolean[] emptyGroup)
    {
        if (emptyGroup[group[0]]) {
            return true;
        }
        for (int sequenceColumn : group) {
            if (values[sequenceColumn] != null) {
                return false;
            }
        }
        for (int sequenceColumn : group) {
            emptyGroup[sequenceColumn] = true;
        }
        return true;
    }

    /**
     * Orders two rows by a group's sequence columns, ascending with nulls first, as Paimon's
     * generated record comparator does.
     */
    private int compareGroup(int[] group, Object[] left, Object[] right)
    {
        for (int column : group) {
            Object a = left[column];
            Object b = right[column];
            // sequence groups always order ascending
            int order = MergeFunctions.compareSequenceValues(fields.get(column).type(), true, a, b);
            if (order != 0) {
                return order;
            }
        }
        return 0;
    }

    private static boolean contains(int[] group, int column)
    {
        return Arrays.stream(group).anyMatch(sequenceColumn -> sequenceColumn == column);
    }

    private void copyNotNull(Object[] values)
            throws CorruptFileException
    {
        MergeFunctions.initNotNull(table, fields, row, values);
    }

    @Override
    public KeyValue result()
    {
        byte kind = deleted || !metInsert ? KeyValue.DELETE : KeyValue.INSERT;
        return new KeyValue(sequenceNumber, kind, row.clone());
    }
}
