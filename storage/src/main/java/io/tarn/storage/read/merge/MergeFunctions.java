package io.tarn.storage.read.merge;

import io.tarn.storage.CorruptFileException;
import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.schema.TableOptions;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.ValueComparator;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * The merge functions of Paimon's merge engines (option {@code merge-engine}), following Paimon
 * 1.3's {@code DeduplicateMergeFunction}, {@code PartialUpdateMergeFunction},
 * {@code AggregateMergeFunction} and {@code FirstRowMergeFunction}.
 * <p>
 * Public for the merge-on-read split reader of {@code io.tarn.storage.read} only: not API.
 */
final class MergeFunctions
{
    private static final String FIELDS_PREFIX = "fields.";

    private MergeFunctions() {}

    /**
     * A merge function over records whose values are {@code fields} (for partial-update and
     * aggregation: every field of {@code schema}, in schema order).
     */
    public static MergeFunction create(String table, TableSchema schema, List<DataField> fields)
            throws UnsupportedTableFeatureException
    {
        requireNonNull(table, "table is null");
        TableOptions options = new TableOptions(table, schema.options());
        boolean ignoreDelete = options.ignoreDelete();
        return switch (options.mergeEngine()) {
            case DEDUPLICATE -> new Deduplicate(ignoreDelete);
            case FIRST_ROW -> new FirstRow(table, ignoreDelete);
            case PARTIAL_UPDATE -> partialUpdate(table, schema, fields, ignoreDelete);
            case AGGREGATION -> aggregation(table, schema, fields);
        };
    }

    private static MergeFunction partialUpdate(String table, TableSchema schema, List<DataField> fields, boolean ignoreDelete)
            throws UnsupportedTableFeatureException
    {
        boolean removeRecordOnDelete = new TableOptions(table, schema.options()).flag("partial-update.remove-record-on-delete");
        SequenceGroups groups = SequenceGroups.parse(table, schema, fields);
        if (ignoreDelete && (removeRecordOnDelete || schema.options().containsKey(SequenceGroups.REMOVE_ON_SEQUENCE_GROUP))) {
            throw new UnsupportedTableFeatureException("Table %s: option 'ignore-delete' conflicts with '%s'"
                    .formatted(table, removeRecordOnDelete ? "partial-update.remove-record-on-delete" : SequenceGroups.REMOVE_ON_SEQUENCE_GROUP));
        }
        if (groups.isEmpty()) {
            // Without sequence groups Paimon accepts only last_non_null_value as a per-field
            // function, and then ignores it: plain partial update keeps the last non-null value.
            return new PartialUpdate(table, fields, ignoreDelete, removeRecordOnDelete);
        }
        if (removeRecordOnDelete) {
            throw new UnsupportedTableFeatureException("Table %s: option 'partial-update.remove-record-on-delete' conflicts with sequence groups".formatted(table));
        }
        String defaultFunction = schema.options().get("fields.default-aggregate-function");
        FieldAggregator[] aggregators = new FieldAggregator[fields.size()];
        for (int i = 0; i < fields.size(); i++) {
            DataField field = fields.get(i);
            if (groups.isSequenceColumn(field.name())) {
                continue;
            }
            String function = schema.primaryKeys().contains(field.name())
                    ? "primary-key"
                    : schema.options().getOrDefault(FIELDS_PREFIX + field.name() + ".aggregate-function", defaultFunction);
            if (function == null) {
                continue;
            }
            if (!function.trim().equalsIgnoreCase("last_non_null_value") && !function.equals("primary-key") && !groups.isProtected(field.name())) {
                throw new UnsupportedTableFeatureException("Table %s: column '%s' has aggregate function '%s' but is in no sequence group, which Paimon requires"
                        .formatted(table, field.name(), function));
            }
            aggregators[i] = aggregator(table, schema, field, function, false);
        }
        return new SequenceGroupPartialUpdate(table, fields, groups, aggregators, ignoreDelete);
    }

    private static MergeFunction aggregation(String table, TableSchema schema, List<DataField> fields)
            throws UnsupportedTableFeatureException
    {
        TableOptions options = new TableOptions(table, schema.options());
        boolean removeRecordOnDelete = options.flag("aggregation.remove-record-on-delete");
        List<String> sequenceFields = options.sequenceFields();
        String defaultFunction = schema.options().get("fields.default-aggregate-function");
        FieldAggregator[] aggregators = new FieldAggregator[fields.size()];
        for (int i = 0; i < fields.size(); i++) {
            DataField field = fields.get(i);
            String function;
            if (sequenceFields.contains(field.name())) {
                function = "last_value";
            }
            else if (schema.primaryKeys().contains(field.name())) {
                function = "primary-key";
            }
            else {
                function = schema.options().get(FIELDS_PREFIX + field.name() + ".aggregate-function");
                if (function == null) {
                    function = defaultFunction != null ? defaultFunction : "last_non_null_value";
                }
            }
            aggregators[i] = aggregator(table, schema, field, function, removeRecordOnDelete);
        }
        return new Aggregation(table, aggregators, fields, removeRecordOnDelete);
    }

    /**
     * The aggregate function of a column with its per-column options ({@code list-agg-delimiter},
     * {@code ignore-retract}, ...), as Paimon's {@code FieldAggregatorFactory.create} builds it.
     */
    private static FieldAggregator aggregator(String table, TableSchema schema, DataField field, String function, boolean removeRecordOnDelete)
            throws UnsupportedTableFeatureException
    {
        TableOptions options = new TableOptions(table, schema.options());
        FieldAggregator aggregator = FieldAggregator.create(table, field.name(), field.type(), function, new FieldAggregator.Options(options, field.name()));
        if (options.flag(FIELDS_PREFIX + field.name() + ".ignore-retract")) {
            if (removeRecordOnDelete) {
                throw new UnsupportedTableFeatureException(("Table %s: options 'aggregation.remove-record-on-delete' and 'fields.%s.ignore-retract' conflict")
                        .formatted(table, field.name()));
            }
            aggregator = new FieldAggregator.IgnoreRetract(aggregator);
        }
        return aggregator;
    }

    /**
     * Orders two values of a sequence column as Paimon's generated record comparator does: nulls
     * first whatever the sort order, other values by {@code type}, reversed when descending.
     */
    public static int compareSequenceValues(DataType type, boolean ascending, Object left, Object right)
    {
        if (left == null || right == null) {
            return left == null ? (right == null ? 0 : -1) : 1;
        }
        int order = ValueComparator.compare(type, left, right);
        return ascending ? order : -order;
    }

    static void initNotNull(String table, List<DataField> fields, Object[] row, Object[] values)
            throws CorruptFileException
    {
        for (int i = 0; i < row.length; i++) {
            if (!fields.get(i).type().nullable()) {
                if (values[i] == null) {
                    throw nullInNotNullColumn(table, fields.get(i));
                }
                row[i] = values[i];
            }
        }
    }

    private static CorruptFileException nullInNotNullColumn(String table, DataField field)
    {
        return new CorruptFileException("Table %s: a record has NULL in NOT NULL column '%s'".formatted(table, field.name()));
    }

    private static final class Deduplicate
            implements MergeFunction
    {
        private final boolean ignoreDelete;
        private KeyValue latest;

        Deduplicate(boolean ignoreDelete)
        {
            this.ignoreDelete = ignoreDelete;
        }

        @Override
        public void reset()
        {
            latest = null;
        }

        @Override
        public void add(KeyValue record)
        {
            if (ignoreDelete && record.isRetract()) {
                return;
            }
            latest = record;
        }

        @Override
        public KeyValue result()
        {
            // only retractions, all ignored: the key has no row
            return latest != null ? latest : new KeyValue(0, KeyValue.DELETE, new Object[0]);
        }
    }

    private static final class FirstRow
            implements MergeFunction
    {
        private final String table;
        private final boolean ignoreDelete;
        private KeyValue first;

        FirstRow(String table, boolean ignoreDelete)
        {
            this.table = table;
            this.ignoreDelete = ignoreDelete;
        }

        @Override
        public void reset()
        {
            first = null;
        }

        @Override
        public void add(KeyValue record)
                throws IOException
        {
            if (record.isRetract()) {
                if (ignoreDelete) {
                    return;
                }
                throw new UnsupportedTableFeatureException("Table %s: the first-row merge engine cannot merge a retraction (-U/-D) record without 'ignore-delete'"
                        .formatted(table));
            }
            if (first == null) {
                first = record;
            }
        }

        @Override
        public KeyValue result()
        {
            return first != null ? first : new KeyValue(0, KeyValue.DELETE, new Object[0]);
        }
    }

    private static final class PartialUpdate
            implements MergeFunction
    {
        private final String table;
        private final List<DataField> fields;
        private final boolean ignoreDelete;
        private final boolean removeRecordOnDelete;

        private Object[] row;
        private long sequenceNumber;
        private boolean deleted;
        private boolean notNullFilled;
        private boolean metInsert;

        PartialUpdate(String table, List<DataField> fields, boolean ignoreDelete, boolean removeRecordOnDelete)
        {
            this.table = table;
            this.fields = List.copyOf(fields);
            this.ignoreDelete = ignoreDelete;
            this.removeRecordOnDelete = removeRecordOnDelete;
        }

        @Override
        public void reset()
        {
            row = new Object[fields.size()];
            sequenceNumber = 0;
            deleted = false;
            notNullFilled = false;
            metInsert = false;
        }

        @Override
        public void add(KeyValue record)
                throws IOException
        {
            deleted = false;
            Object[] values = record.values();
            if (record.isRetract()) {
                if (!notNullFilled) {
                    initNotNull(table, fields, row, values);
                    notNullFilled = true;
                }
                if (ignoreDelete) {
                    return;
                }
                sequenceNumber = record.sequenceNumber();
                if (removeRecordOnDelete) {
                    if (record.kind() == KeyValue.DELETE) {
                        deleted = true;
                        row = new Object[fields.size()];
                        initNotNull(table, fields, row, values);
                    }
                    return;
                }
                throw new UnsupportedTableFeatureException(("Table %s: the partial-update merge engine cannot merge a retraction (-U/-D) record; "
                        + "Paimon reads such tables only with 'ignore-delete' or 'partial-update.remove-record-on-delete' (or sequence groups)").formatted(table));
            }
            sequenceNumber = record.sequenceNumber();
            for (int i = 0; i < row.length; i++) {
                if (values[i] != null) {
                    row[i] = values[i];
                }
                else if (!fields.get(i).type().nullable()) {
                    throw nullInNotNullColumn(table, fields.get(i));
                }
            }
            metInsert = true;
            notNullFilled = true;
        }

        @Override
        public KeyValue result()
        {
            byte kind = deleted || !metInsert ? KeyValue.DELETE : KeyValue.INSERT;
            return new KeyValue(sequenceNumber, kind, row.clone());
        }
    }

    private static final class Aggregation
            implements MergeFunction
    {
        private final String table;
        private final FieldAggregator[] aggregators;
        private final List<DataField> fields;
        private final boolean removeRecordOnDelete;

        private Object[] row;
        private long sequenceNumber;
        private boolean deleted;

        Aggregation(String table, FieldAggregator[] aggregators, List<DataField> fields, boolean removeRecordOnDelete)
        {
            this.table = table;
            this.aggregators = aggregators;
            this.fields = List.copyOf(fields);
            this.removeRecordOnDelete = removeRecordOnDelete;
        }

        @Override
        public void reset()
        {
            row = new Object[aggregators.length];
            sequenceNumber = 0;
            deleted = false;
            for (FieldAggregator aggregator : aggregators) {
                aggregator.reset();
            }
        }

        @Override
        public void add(KeyValue record)
                throws IOException
        {
            sequenceNumber = record.sequenceNumber();
            Object[] values = record.values();
            deleted = removeRecordOnDelete && record.kind() == KeyValue.DELETE;
            if (deleted) {
                row = new Object[aggregators.length];
                initNotNull(table, fields, row, values);
                return;
            }
            boolean retract = record.isRetract();
            for (int i = 0; i < aggregators.length; i++) {
                row[i] = retract ? aggregators[i].retract(row[i], values[i]) : aggregators[i].agg(row[i], values[i]);
            }
        }

        @Override
        public KeyValue result()
        {
            return new KeyValue(sequenceNumber, deleted ? KeyValue.DELETE : KeyValue.INSERT, row.clone());
        }
    }
}
