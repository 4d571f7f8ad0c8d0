package io.tarn.storage.catalog;

import io.tarn.types.DataType;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * One change of a table's columns, as {@link FileSystemCatalog#alterTable} applies it to the
 * latest schema. Columns are named, as in Paimon's {@code SchemaChange}: a name is what every
 * front end (SQL, the CLI, the C ABI) holds, and a change that is applied again after losing a
 * race to another change then fails exactly as it would have run after it (a renamed or dropped
 * column is gone under its old name), where a field id would follow the column to its new name.
 * <p>
 * Columns keep their field ids across renames; an added column takes the next id, so files
 * written before read it as null; a dropped column's id is never reused.
 */
public sealed interface SchemaChange
        permits SchemaChange.AddColumn, SchemaChange.RenameColumn, SchemaChange.DropColumn
{
    /**
     * Adds top-level column {@code name}. The ids of ROW fields nested in {@code type} are
     * ignored: the column's nested fields take fresh ids after the column's own, as Paimon
     * numbers them. A {@code type} that is not nullable (NOT NULL) is accepted only while the
     * table holds no rows, as rows written before could not fill it.
     */
    record AddColumn(String name, DataType type, Optional<String> comment, ColumnPosition position)
            implements SchemaChange
    {
        public AddColumn
        {
            checkName(name);
            requireNonNull(type, "type is null");
            requireNonNull(comment, "comment is null");
            requireNonNull(position, "position is null");
        }
    }

    /**
     * Renames top-level column {@code name} to {@code newName}; partition, primary and bucket key
     * columns cannot be renamed.
     */
    record RenameColumn(String name, String newName)
            implements SchemaChange
    {
        public RenameColumn
        {
            requireNonNull(name, "name is null");
            checkName(newName);
        }
    }

    /**
     * Drops top-level column {@code name}; a key column and a table's only column cannot be
     * dropped.
     */
    record DropColumn(String name)
            implements SchemaChange
    {
        public DropColumn
        {
            requireNonNull(name, "name is null");
        }
    }

    private static void checkName(String name)
    {
        requireNonNull(name, "name is null");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("A column name cannot be empty");
        }
    }
}
