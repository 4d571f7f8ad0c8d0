package io.tarn.trino;

import io.tarn.storage.ColumnAlreadyExistsException;
import io.tarn.storage.ColumnNotFoundException;
import io.tarn.storage.TableNotEmptyException;
import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.catalog.SchemaChange;
import io.tarn.types.DataType;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ColumnPosition;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static io.tarn.trino.TarnErrorCode.TARN_UNSUPPORTED_FEATURE;
import static io.trino.spi.StandardErrorCode.ALREADY_EXISTS;
import static io.trino.spi.StandardErrorCode.COLUMN_NOT_FOUND;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;

/**
 * ALTER TABLE ... ADD, RENAME and DROP COLUMN as storage {@link SchemaChange}s, which
 * {@link FileSystemCatalog#alterTable} applies to the latest schema (retrying a lost race), and
 * the refusals of a change as the error codes Trino's own analyzer uses for them.
 */
final class TarnSchemaChanges
{
    private TarnSchemaChanges() {}

    static SchemaChange addColumn(ColumnMetadata column, ColumnPosition position)
    {
        // the ids given to nested ROW fields here are replaced by the storage, which numbers
        // them after the table's highest field id
        DataType type = TarnWriteTypes.toPaimonType(column.getType(), new AtomicInteger()).withNullable(column.isNullable());
        return new SchemaChange.AddColumn(column.getName(), type, column.getComment(), position(position));
    }

    private static io.tarn.storage.catalog.ColumnPosition position(ColumnPosition position)
    {
        return switch (position) {
            case ColumnPosition.First _ -> io.tarn.storage.catalog.ColumnPosition.first();
            case ColumnPosition.Last _ -> io.tarn.storage.catalog.ColumnPosition.last();
            case ColumnPosition.After after -> io.tarn.storage.catalog.ColumnPosition.after(after.columnName());
            default -> throw new IllegalArgumentException("Unknown column position " + position);
        };
    }

    static SchemaChange renameColumn(TarnColumnHandle column, String newName)
    {
        return new SchemaChange.RenameColumn(column.baseName(), newName);
    }

    static SchemaChange dropColumn(TarnColumnHandle column)
    {
        return new SchemaChange.DropColumn(column.baseName());
    }

    /**
     * Applies {@code change}; a refused change fails in the storage's words, which name the
     * table and the column, so no context is added to them.
     */
    static void apply(FileSystemCatalog catalog, Identifier table, SchemaChange change)
            throws IOException
    {
        try {
            catalog.alterTable(table, List.of(change));
        }
        catch (ColumnAlreadyExistsException e) {
            throw new TrinoException(ALREADY_EXISTS, e.getMessage(), e);
        }
        catch (ColumnNotFoundException e) {
            throw new TrinoException(COLUMN_NOT_FOUND, e.getMessage(), e);
        }
        catch (TableNotEmptyException e) {
            throw new TrinoException(NOT_SUPPORTED, e.getMessage(), e);
        }
        catch (UnsupportedTableFeatureException e) {
            throw new TrinoException(TARN_UNSUPPORTED_FEATURE, e.getMessage(), e);
        }
    }
}
