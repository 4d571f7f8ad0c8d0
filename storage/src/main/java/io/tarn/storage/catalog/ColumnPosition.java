package io.tarn.storage.catalog;

import static java.util.Objects.requireNonNull;

/**
 * Where {@link SchemaChange.AddColumn} places its column among the top-level columns. Only the
 * order of the schema's fields changes: field ids, not positions, tie data files to columns, so
 * files written before read the new column as null wherever it goes.
 */
public sealed interface ColumnPosition
        permits ColumnPosition.First, ColumnPosition.Last, ColumnPosition.After
{
    static ColumnPosition first()
    {
        return new First();
    }

    static ColumnPosition last()
    {
        return new Last();
    }

    static ColumnPosition after(String column)
    {
        return new After(column);
    }

    /**
     * Before every other column.
     */
    record First()
            implements ColumnPosition {}

    /**
     * After every other column, as Paimon and SQL add columns unless told otherwise.
     */
    record Last()
            implements ColumnPosition {}

    /**
     * Right after {@code column}, which the schema the change is applied to must have.
     */
    record After(String column)
            implements ColumnPosition
    {
        public After
        {
            requireNonNull(column, "column is null");
        }
    }
}
