package io.tarn.testing;

import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.options.Options;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.hadoop.conf.Configuration;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

import static java.util.Objects.requireNonNull;

/**
 * Opens Paimon's filesystem catalog on a warehouse (a local directory or an object store) and loads tables by {@code db.table}.
 */
final class ReferenceCatalog
{
    private ReferenceCatalog() {}

    static Catalog open(Path warehouse)
    {
        requireNonNull(warehouse, "warehouse is null");
        return open(PaimonWarehouse.local(warehouse));
    }

    static Catalog open(PaimonWarehouse warehouse)
    {
        requireNonNull(warehouse, "warehouse is null");
        return CatalogFactory.createCatalog(CatalogContext.create(Options.fromMap(warehouse.catalogOptions()), new Configuration()));
    }

    static Identifier identifier(String table)
    {
        requireNonNull(table, "table is null");
        int dot = table.indexOf('.');
        if (dot <= 0 || dot == table.length() - 1 || table.indexOf('.', dot + 1) >= 0) {
            throw new IllegalArgumentException("Table name must be db.table: " + table);
        }
        return Identifier.create(table.substring(0, dot), table.substring(dot + 1));
    }

    static FileStoreTable load(Catalog catalog, String table)
    {
        try {
            Table loaded = catalog.getTable(identifier(table));
            return (FileStoreTable) loaded;
        }
        catch (Catalog.TableNotExistException e) {
            throw new IllegalArgumentException("Table does not exist: " + table, e);
        }
    }

    @SuppressWarnings("try") // Catalog.close() declares Exception, which the catch below handles
    static FileStoreTable load(Path warehouse, String table)
    {
        requireNonNull(warehouse, "warehouse is null");
        return load(PaimonWarehouse.local(warehouse), table);
    }

    static FileStoreTable load(PaimonWarehouse warehouse, String table)
    {
        // the loaded table keeps its own FileIO, so it stays usable after the catalog is closed
        try (Catalog catalog = open(warehouse)) {
            return load(catalog, table);
        }
        catch (RuntimeException e) {
            throw e;
        }
        catch (Exception e) {
            throw new UncheckedIOException(new IOException("Cannot load table " + table + " from " + warehouse, e));
        }
    }
}
