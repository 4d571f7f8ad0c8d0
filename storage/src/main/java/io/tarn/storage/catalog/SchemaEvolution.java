package io.tarn.storage.catalog;

import io.tarn.storage.ColumnAlreadyExistsException;
import io.tarn.storage.ColumnNotFoundException;
import io.tarn.storage.TableNotEmptyException;
import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.schema.TableSchema;
import io.tarn.types.ArrayType;
import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.MapType;
import io.tarn.types.MultisetType;
import io.tarn.types.RowType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Applies schema changes, in order, to one schema and gives the next one: a pure function of the
 * schema, the changes and whether the table holds rows, so that a change that lost a race is
 * simply applied again to the schema that won.
 */
final class SchemaEvolution
{
    private final String tableName;
    private final TableSchema base;
    private final boolean tableEmpty;
    private final List<DataField> fields;
    private int highestFieldId;

    private SchemaEvolution(String tableName, TableSchema base, boolean tableEmpty)
    {
        this.tableName = requireNonNull(tableName, "tableName is null");
        this.base = requireNonNull(base, "base is null");
        this.tableEmpty = tableEmpty;
        this.fields = new ArrayList<>(base.fields());
        this.highestFieldId = base.highestFieldId();
    }

    /**
     * The schema following {@code current} (its id plus one) with {@code changes} applied.
     *
     * @param tableEmpty whether the table holds no rows, which adding a NOT NULL column needs
     */
    static TableSchema apply(String tableName, TableSchema current, List<SchemaChange> changes, boolean tableEmpty)
            throws IOException
    {
        SchemaEvolution evolution = new SchemaEvolution(tableName, current, tableEmpty);
        for (SchemaChange change : changes) {
            evolution.apply(change);
        }
        return evolution.next();
    }

    /**
     * Whether a change needs to know if the table holds rows.
     */
    static boolean needsEmptyTable(SchemaChange change)
    {
        return change instanceof SchemaChange.AddColumn add && !add.type().nullable();
    }

    private void apply(SchemaChange change)
            throws IOException
    {
        if (change instanceof SchemaChange.AddColumn add) {
            addColumn(add);
        }
        else if (change instanceof SchemaChange.RenameColumn rename) {
            renameColumn(rename);
        }
        else if (change instanceof SchemaChange.DropColumn drop) {
            dropColumn(drop);
        }
        else {
            throw new IllegalArgumentException("Unknown schema change " + change);
        }
    }

    private void addColumn(SchemaChange.AddColumn add)
            throws IOException
    {
        checkAbsent(add.name());
        if (!add.type().nullable() && !tableEmpty) {
            // rows written before would read the new column as null
            throw new TableNotEmptyException("Unable to add NOT NULL column '%s' for non-empty table: %s".formatted(add.name(), tableName));
        }
        int id = ++highestFieldId;
        DataType type = renumber(add.type());
        fields.add(index(add.position()), new DataField(id, add.name(), type, add.comment(), Optional.empty()));
    }

    private int index(ColumnPosition position)
            throws ColumnNotFoundException
    {
        if (position instanceof ColumnPosition.First) {
            return 0;
        }
        if (position instanceof ColumnPosition.Last) {
            return fields.size();
        }
        String column = ((ColumnPosition.After) position).column();
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).name().equals(column)) {
                return i + 1;
            }
        }
        throw new ColumnNotFoundException("Table %s has no column '%s' to add a column after".formatted(tableName, column));
    }

    /**
     * The type with fresh ids for its nested ROW fields, numbered after the highest id as Paimon
     * numbers the fields of a new column: a field after the fields nested in it.
     */
    private DataType renumber(DataType type)
    {
        if (type instanceof AtomicType) {
            return type;
        }
        if (type instanceof ArrayType array) {
            return new ArrayType(renumber(array.element()), array.nullable());
        }
        if (type instanceof MultisetType multiset) {
            return new MultisetType(renumber(multiset.element()), multiset.nullable());
        }
        if (type instanceof MapType map) {
            DataType key = renumber(map.key());
            return new MapType(key, renumber(map.value()), map.nullable());
        }
        RowType row = (RowType) type;
        List<DataField> renumbered = new ArrayList<>();
        for (DataField field : row.fields()) {
            DataType fieldType = renumber(field.type());
            renumbered.add(new DataField(++highestFieldId, field.name(), fieldType, field.description(), field.defaultValue()));
        }
        return new RowType(renumbered, row.nullable());
    }

    private void renameColumn(SchemaChange.RenameColumn rename)
            throws IOException
    {
        int index = indexOf(rename.name());
        DataField field = fields.get(index);
        checkNotKey(field, "rename");
        checkAbsent(rename.newName());
        fields.set(index, new DataField(field.id(), rename.newName(), field.type(), field.description(), field.defaultValue()));
    }

    private void dropColumn(SchemaChange.DropColumn drop)
            throws IOException
    {
        int index = indexOf(drop.name());
        checkNotKey(fields.get(index), "drop");
        if (fields.size() == 1) {
            throw new UnsupportedTableFeatureException("Cannot drop the only column of table " + tableName);
        }
        fields.remove(index);
    }

    private int indexOf(String name)
            throws ColumnNotFoundException
    {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).name().equals(name)) {
                return i;
            }
        }
        throw new ColumnNotFoundException("Table %s has no column '%s'".formatted(tableName, name));
    }

    private void checkAbsent(String name)
            throws ColumnAlreadyExistsException
    {
        if (fields.stream().anyMatch(field -> field.name().equals(name))) {
            throw new ColumnAlreadyExistsException("Table %s already has a column '%s'".formatted(tableName, name));
        }
    }

    /**
     * Keys are named in the schema's key lists and options, which a rename or drop would leave
     * naming a column that is gone.
     */
    private void checkNotKey(DataField field, String change)
            throws UnsupportedTableFeatureException
    {
        if (base.partitionKeys().contains(field.name()) || base.primaryKeys().contains(field.name()) || base.bucketKeys().contains(field.name())) {
            throw new UnsupportedTableFeatureException("Cannot %s column '%s' of table %s: it is a partition, primary or bucket key".formatted(change, field.name(), tableName));
        }
    }

    private TableSchema next()
    {
        return new TableSchema(base.version(), base.id() + 1, fields, highestFieldId, base.partitionKeys(), base.primaryKeys(),
                base.options(), base.comment(), System.currentTimeMillis());
    }
}
