package io.tarn.trino;

import io.tarn.storage.DatabaseNotEmptyException;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.catalog.SchemaChange;
import io.tarn.storage.table.PaimonTable;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorTableMetadata;
import io.trino.spi.connector.SaveMode;
import io.trino.spi.connector.SchemaTableName;

import java.io.IOException;
import java.util.Optional;

import static io.trino.spi.StandardErrorCode.ALREADY_EXISTS;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.StandardErrorCode.SCHEMA_NOT_EMPTY;
import static io.trino.spi.StandardErrorCode.SCHEMA_NOT_FOUND;
import static java.util.Objects.requireNonNull;

/**
 * The statements of {@link TarnMetadata} that change the catalog without writing rows: CREATE,
 * DROP and RENAME of schemas and tables, and ALTER TABLE.
 */
final class TarnDdl
{
    // Trino's wording (that of ConnectorMetadata's default): Paimon has no atomic replace
    static final String REPLACE_NOT_SUPPORTED = "This connector does not support replacing tables";

    private final String catalogName;
    private final TarnTables tables;

    TarnDdl(String catalogName, TarnTables tables)
    {
        this.catalogName = requireNonNull(catalogName, "catalogName is null");
        this.tables = requireNonNull(tables, "tables is null");
    }

    void createSchema(String schemaName)
    {
        try {
            Optional<String> existing = tables.findDatabase(schemaName);
            if (existing.isPresent()) {
                throw new TrinoException(ALREADY_EXISTS, "Schema %s already exists in catalog %s (stored as '%s')".formatted(schemaName, catalogName, existing.get()));
            }
            tables.catalog().createDatabase(schemaName);
        }
        catch (IOException | RuntimeException e) {
            throw TarnExceptions.translate("Cannot create schema " + schemaName, e);
        }
    }

    void dropSchema(String schemaName, boolean cascade)
    {
        String database = tables.findDatabase(schemaName)
                .orElseThrow(() -> new TrinoException(SCHEMA_NOT_FOUND, "Schema %s not found".formatted(schemaName)));
        try {
            tables.catalog().dropDatabase(database, cascade);
        }
        catch (DatabaseNotEmptyException e) {
            // Trino's wording for a schema that still holds tables
            throw new TrinoException(SCHEMA_NOT_EMPTY, "Cannot drop non-empty schema '%s'".formatted(schemaName), e);
        }
        catch (IOException | RuntimeException e) {
            throw TarnExceptions.translate("Cannot drop schema " + schemaName, e);
        }
        finally {
            // the dropped tables' cached schemas must not answer for tables created again
            tables.invalidateSchema(schemaName);
        }
    }

    void createTable(ConnectorTableMetadata tableMetadata, SaveMode saveMode)
    {
        if (saveMode == SaveMode.REPLACE) {
            throw new TrinoException(NOT_SUPPORTED, REPLACE_NOT_SUPPORTED);
        }
        SchemaTableName name = tableMetadata.getTable();
        if (saveMode == SaveMode.IGNORE && tables.find(name).isPresent()) {
            return;
        }
        try {
            Identifier identifier = newTableIdentifier(name);
            tables.catalog().createTable(identifier, TarnTableCreation.schema(tableMetadata));
        }
        catch (IOException | RuntimeException e) {
            throw TarnExceptions.translate("Cannot create table " + name, e);
        }
        tables.invalidate(name);
    }

    /**
     * Where a new table goes: into the stored database ({@code UPPER.db} for schema
     * {@code upper}) under the lower-case name Trino gives it; fails if a table of that name in
     * any case exists.
     */
    Identifier newTableIdentifier(SchemaTableName name)
            throws IOException
    {
        Identifier identifier = tables.newTable(name);
        // before anything is written: a CREATE TABLE AS writes its files under the name
        FileSystemCatalog.validateNewTableName(identifier.table());
        Optional<Identifier> existing = tables.catalog().findTable(identifier);
        if (existing.isPresent()) {
            throw new TrinoException(ALREADY_EXISTS, "Table %s already exists in catalog %s (stored as %s)".formatted(name, catalogName, existing.get()));
        }
        return identifier;
    }

    void alter(TarnTableHandle handle, SchemaChange change)
    {
        // the main branch only, as for every statement that changes a table
        PaimonTable table = tables.loadForChange(handle.schemaTableName());
        try {
            TarnSchemaChanges.apply(tables.catalog(), table.identifier(), change);
        }
        catch (IOException | RuntimeException e) {
            throw TarnExceptions.translate("Cannot alter table " + handle.schemaTableName(), e);
        }
        tables.invalidate(handle.schemaTableName());
    }

    void renameTable(TarnTableHandle handle, SchemaTableName newTableName)
    {
        try {
            Identifier source = tables.resolve(handle.schemaTableName());
            String database = tables.findDatabase(newTableName.getSchemaName())
                    .orElseThrow(() -> new TrinoException(SCHEMA_NOT_FOUND, "Schema %s does not exist in catalog %s".formatted(newTableName.getSchemaName(), catalogName)));
            Identifier target = new Identifier(database, newTableName.getTableName());
            Optional<Identifier> existing = tables.catalog().findTable(target);
            if (existing.isPresent()) {
                throw new TrinoException(ALREADY_EXISTS, "Table %s already exists in catalog %s (stored as %s)".formatted(newTableName, catalogName, existing.get()));
            }
            tables.catalog().renameTable(source, target);
        }
        catch (IOException | RuntimeException e) {
            throw TarnExceptions.translate("Cannot rename table %s to %s".formatted(handle.schemaTableName(), newTableName), e);
        }
        tables.invalidate(handle.schemaTableName());
        tables.invalidate(newTableName);
    }

    void dropTable(TarnTableHandle handle)
    {
        try {
            tables.catalog().dropTable(tables.resolve(handle.schemaTableName()));
        }
        catch (IOException | RuntimeException e) {
            throw TarnExceptions.translate("Cannot drop table " + handle.schemaTableName(), e);
        }
        tables.invalidate(handle.schemaTableName());
    }
}
