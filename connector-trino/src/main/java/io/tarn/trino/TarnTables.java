package io.tarn.trino;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.util.concurrent.UncheckedExecutionException;
import io.tarn.storage.InvalidNameException;
import io.tarn.storage.TableNotFoundException;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.snapshot.BranchManager;
import io.tarn.storage.table.PaimonTable;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.StandardErrorCode.SCHEMA_NOT_FOUND;
import static java.util.Objects.requireNonNull;

/**
 * Loaded tables by name, cached for {@code tarn.metadata-cache.ttl}. A cached {@link PaimonTable}
 * keeps the schemas it has read (schema files never change once written); snapshots are always
 * resolved again, so a cached table still sees new commits. A name {@code "t$branch_b1"} loads
 * branch {@code b1} of table {@code t} (see {@link BranchTableName}) for reading; every change
 * goes through {@link #loadForChange} or {@link #resolve}, which refuse branches.
 */
final class TarnTables
{
    private final FileSystemCatalog catalog;
    private final Cache<TableKey, PaimonTable> cache;

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
        try {
            return Optional.of(load(key(name)));
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
            return load(key(name));
        }
        catch (IOException | InvalidNameException e) {
            throw TarnExceptions.translate("Cannot load table " + name, e);
        }
    }

    /**
     * The table a statement or procedure changes: its main branch. Writing to other branches is
     * not built, so a branch name fails before anything is written.
     */
    PaimonTable loadForChange(SchemaTableName name)
    {
        requireMainBranch(name);
        return load(name);
    }

    private PaimonTable load(TableKey key)
            throws IOException
    {
        try {
            return cache.get(key, () -> {
                Identifier stored = resolve(key.identifier());
                if (key.branch().isEmpty()) {
                    return PaimonTable.load(catalog, stored);
                }
                String branch = resolveBranch(stored, key.branch().get());
                return PaimonTable.load(catalog, stored, branch);
            });
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
            throw new IOException("Cannot load table " + key.identifier(), e.getCause());
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
        requireMainBranch(name);
        return resolve(identifier(name));
    }

    /**
     * The stored name of branch {@code branch} of a table: Trino lower-cases names while Paimon
     * keeps a branch's name as written, so the name is matched ignoring case, and a name that
     * matches several branches is an error.
     */
    private String resolveBranch(Identifier table, String branch)
            throws IOException
    {
        BranchManager.validateBranchName(branch);
        List<String> matches = catalog.branches(table).stream()
                .filter(stored -> stored.equalsIgnoreCase(branch))
                .toList();
        if (matches.size() > 1) {
            throw new InvalidNameException("Table %s has several branches named %s when case is ignored: %s".formatted(table, branch, String.join(", ", matches)));
        }
        if (matches.isEmpty()) {
            throw new TableNotFoundException("Table %s has no branch %s".formatted(table, branch));
        }
        return matches.get(0);
    }

    private static void requireMainBranch(SchemaTableName name)
    {
        BranchTableName.parse(name).ifPresent(branch -> {
            throw new TrinoException(NOT_SUPPORTED, "Cannot change branch %s of table %s: Tarn reads branches but does not write or alter them".formatted(branch.branch(), branch.table()));
        });
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
        // a change to a table invalidates its branches too: they share its data files
        Identifier table = identifier(name);
        cache.asMap().keySet().removeIf(key -> key.identifier().equals(table));
    }

    private static TableKey key(SchemaTableName name)
    {
        return BranchTableName.parse(name)
                .map(branch -> new TableKey(identifier(branch.table()), Optional.of(branch.branch())))
                .orElseGet(() -> new TableKey(identifier(name), Optional.empty()));
    }

    /**
     * A cached table: a table name and, for a branch other than main, the branch as named.
     */
    private record TableKey(Identifier identifier, Optional<String> branch)
    {
        TableKey
        {
            requireNonNull(identifier, "identifier is null");
            requireNonNull(branch, "branch is null");
        }
    }

    void invalidateSchema(String schemaName)
    {
        cache.asMap().keySet().removeIf(key -> key.identifier().database().equalsIgnoreCase(schemaName));
    }

    static Identifier identifier(SchemaTableName name)
    {
        return new Identifier(name.getSchemaName(), name.getTableName());
    }
}
