package io.tarn.jni;

import io.tarn.index.predicate.Predicate;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.grammar.FilterParser;
import io.tarn.storage.grammar.TableVersion;
import io.tarn.storage.grammar.VersionParser;
import io.tarn.storage.grammar.VersionSyntaxException;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.table.PaimonTable;
import io.tarn.types.DataField;
import io.tarn.types.RowType;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A scan as the C caller describes it, in text: the warehouse directory, {@code db.table}, a
 * version, comma-separated column names and a filter, the last two in the grammars every front
 * end shares: {@link VersionParser} (e.g. {@code snapshot:3}, {@code timestamp:2024-01-01T10:00+02:00},
 * {@code branch:b1/tag:t1}; empty for the latest snapshot of branch main) and {@link FilterParser}
 * ({@code tarn dump --where}). The version is parsed as the request is made, so a malformed one
 * fails before any file is read.
 */
record ScanRequest(String warehouse, String table, TableVersion version, Optional<String> columns, Optional<String> where)
{
    ScanRequest
    {
        requireNonNull(warehouse, "warehouse is null");
        requireNonNull(table, "table is null");
        requireNonNull(version, "version is null");
        columns = requireNonNull(columns, "columns is null").filter(text -> !text.isBlank());
        where = requireNonNull(where, "where is null").filter(text -> !text.isBlank());
    }

    static ScanRequest of(String warehouse, String table, String version, String columns, String where)
    {
        if (warehouse == null || warehouse.isBlank()) {
            throw new IllegalArgumentException("No warehouse directory given");
        }
        if (table == null || table.isBlank()) {
            throw new IllegalArgumentException("No table name (db.table) given");
        }
        return new ScanRequest(warehouse, table, tableVersion(table, version), Optional.ofNullable(columns), Optional.ofNullable(where));
    }

    private static TableVersion tableVersion(String table, String version)
    {
        if (version == null) {
            return TableVersion.latest();
        }
        try {
            return VersionParser.parse(version);
        }
        catch (VersionSyntaxException e) {
            throw new IllegalArgumentException("Table " + table + ": " + e.getMessage(), e);
        }
    }

    /**
     * The branch of the table the version names.
     */
    PaimonTable loadTable()
            throws IOException
    {
        return loadTable(warehouse, table, version.branch());
    }

    static PaimonTable loadTable(String warehouse, String table, String branch)
            throws IOException
    {
        String directory = Path.of(warehouse).toAbsolutePath().normalize().toString();
        return PaimonTable.load(new FileSystemCatalog(new LocalFileIO(), directory), Identifier.parse(table), branch);
    }

    ScanVersion scanVersion()
    {
        return version.version();
    }

    /**
     * The projected columns, in the order given, or every column of {@code schema}.
     */
    List<DataField> columns(RowType schema)
    {
        if (columns.isEmpty()) {
            return schema.fields();
        }
        List<DataField> fields = new ArrayList<>();
        for (String name : columns.get().split(",")) {
            String trimmed = name.trim();
            fields.add(schema.field(trimmed).orElseThrow(() -> new IllegalArgumentException(
                    "Table " + table + " has no column '" + trimmed + "'; its columns are " + String.join(", ", schema.fieldNames()))));
        }
        return List.copyOf(fields);
    }

    Optional<Predicate> filter(RowType schema)
    {
        return where.map(text -> FilterParser.parse(text, schema));
    }
}
