package io.tarn.trino;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.util.concurrent.UncheckedExecutionException;
import io.tarn.storage.InvalidNameException;
import io.tarn.storage.TableNotFoundException;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.table.PaimonTable;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;

import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static io.trino.spi.StandardErrorCode.SCHEMA_NOT_FOUND;
import static java.util.Objects.requireNonNull;

/**
 * Loaded tables by name, cached for {@code tarn.metadata-cache.ttl}. A cached {@link PaimonTable}
 * keeps the schemas it has read (schema files never change once written); snapshots are always
 * resolved again, so a cached table still sees new commits.
 */
final class TarnTables
{
    private final FileSystemCatalog catalog;
    private final Cache<Identifier, PaimonTable> cache;

    TarnTables(FileSystemCatalog catalog, TarnConfig config)
    {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.cache = CacheBuilder.newBuilder()
                .maximumSize(config.getMetadataCacheSize())
                .expireAfterWrite(config.getMetadataCacheTtl().toMillis(), TimeUnit.MILLISECONDS)
                .build();
    }

    FileSystemCatalog catalog()
    {
        return catalog;
    }

    /**
     * The table, or empty when the database or table does not exist. Trino lower-cases names,
     * while other Paimon tools store them as written ({@code UPPER.db/OnlyUpper}): a name is
     * resolved to the stored one ignoring case, and several stored names that match are an error.
     */
    Optional<PaimonTable> find(SchemaTableName name)
    {
        Identifier identifier = identifier(name);
        try {
            return Optional.of(load(identifier));
        }
        catch (TableNotFoundException e) {
            return Optional.empty();
        }
        catch (IOException | InvalidNameException e) {
            throw TarnExceptions.translate("Cannot load table " + name, e);
        }
    }

    PaimonTable load(SchemaTableName name)
    {
        try {
            return load(identifier(name));
        }
        catch (IOException | InvalidNameException e) {
            throw TarnExceptions.translate("Cannot load table " + name, e);
        }
    }

    private PaimonTable load(Identifier identifier)
            throws IOException
    {
        try {
            return cache.get(identifier, () -> PaimonTable.load(catalog, resolve(identifier)));
        }
        catch (UncheckedExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw e;
        }
        catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IOException("Cannot load table " + identifier, e.getCause());
        }
    }

    /**
     * The table a CREATE TABLE AS creates, before it exists (see {@link PaimonTable#staged}).
     */
    PaimonTable staged(SchemaTableName name, TableSchema initialSchema)
    {
        try {
            return PaimonTable.staged(catalog, newTable(name), initialSchema);
        }
        catch (IOException | RuntimeException e) {
            throw TarnExceptions.translate("Cannot create table " + name, e);
        }
    }

    /**
     * The identifier a new table of this name gets: in the stored database ({@code UPPER.db} for
     * schema {@code upper}), under the lower-case name Trino gives it.
     */
    Identifier newTable(SchemaTableName name)
    {
        String database = findDatabase(name.getSchemaName())
                .orElseThrow(() -> new TrinoException(SCHEMA_NOT_FOUND, "Schema %s not found".formatted(name.getSchemaName())));
        return new Identifier(database, name.getTableName());
    }

    /**
     * The stored identifier of an existing table, resolved as {@link #find} does.
     */
    Identifier resolve(SchemaTableName name)
            throws IOException
    {
        return resolve(identifier(name));
    }

    private Identifier resolve(Identifier identifier)
            throws IOException
    {
        return catalog.findTable(identifier)
                .orElseThrow(() -> new TableNotFoundException("Table %s does not exist in warehouse %s".formatted(identifier, catalog.warehouse())));
    }

    /**
     * The stored name of the database {@code name} names ignoring case; empty if there is none.
     */
    Optional<String> findDatabase(String name)
    {
        try {
            return catalog.findDatabase(name);
        }
        catch (IOException | RuntimeException e) {
            throw TarnExceptions.translate("Cannot look up schema " + name, e);
        }
    }

    void invalidate(SchemaTableName name)
    {
        cache.invalidate(identifier(name));
    }

    void invalidateSchema(String schemaName)
    {
        cache.asMap().keySet().removeIf(identifier -> identifier.database().equalsIgnoreCase(schemaName));
    }

    static Identifier identifier(SchemaTableName name)
    {
        return new Identifier(name.getSchemaName(), name.getTableName());
    }
}
