package io.tarn.jni;

import io.tarn.index.predicate.Predicate;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.grammar.FilterParser;
import io.tarn.storage.grammar.TableVersion;
import io.tarn.storage.grammar.VersionParser;
import io.tarn.storage.grammar.VersionSyntaxException;
import io.tarn.storage.read.RowTrackingFields;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.table.PaimonTable;
import io.tarn.types.DataField;
import io.tarn.types.RowType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A scan as the C caller describes it, in text: the warehouse (a directory or an object-store
 * location, with the storage settings that reach it), {@code db.table}, a
 * version, comma-separated column names and a filter, the last two in the grammars every front
 * end shares: {@link VersionParser} (e.g. {@code snapshot:3}, {@code timestamp:2024-01-01T10:00+02:00},
 * {@code branch:b1/tag:t1}; empty for the latest snapshot of branch main) and {@link FilterParser}
 * ({@code tarn dump --where}). The version is parsed as the request is made, so a malformed one
 * fails before any file is read.
 */
record ScanRequest(String warehouse, String table, TableVersion version, Optional<String> columns, Optional<String> where, Map<String, String> storage)
{
    ScanRequest
    {
        requireNonNull(warehouse, "warehouse is null");
        storage = Map.copyOf(requireNonNull(storage, "storage is null"));
        requireNonNull(table, "table is null");
        requireNonNull(version, "version is null");
        columns = requireNonNull(columns, "columns is null").filter(text -> !text.isBlank());
        where = requireNonNull(where, "where is null").filter(text -> !text.isBlank());
    }

    static ScanRequest of(String warehouse, String table, String version, String columns, String where)
    {
        return of(warehouse, table, version, columns, where, null);
    }

    /**
     * @param options the storage settings, one {@code KEY=VALUE} per line (such as
     *         {@code s3.endpoint=http://127.0.0.1:9000}); null or empty for none
     */
    static ScanRequest of(String warehouse, String table, String version, String columns, String where, String options)
    {
        if (warehouse == null || warehouse.isBlank()) {
            throw new IllegalArgumentException("No warehouse directory given");
        }
        if (table == null || table.isBlank()) {
            throw new IllegalArgumentException("No table name (db.table) given");
        }
        return new ScanRequest(warehouse, table, tableVersion(table, version), Optional.ofNullable(columns), Optional.ofNullable(where), storageSettings(options));
    }

    private static Map<String, String> storageSettings(String options)
    {
        Map<String, String> settings = new HashMap<>();
        if (options == null) {
            return settings;
        }
        for (String line : options.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.isEmpty()) {
                continue;
            }
            int separator = trimmed.indexOf('=');
            if (separator <= 0) {
                throw new IllegalArgumentException("Storage option is not KEY=VALUE: " + trimmed);
            }
            String key = trimmed.substring(0, separator).strip();
            if (settings.put(key, trimmed.substring(separator + 1).strip()) != null) {
                throw new IllegalArgumentException("Storage option " + key + " is given twice");
            }
        }
        return settings;
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
        return loadTable(warehouse, storage, table, version.branch());
    }

    static PaimonTable loadTable(String warehouse, Map<String, String> storage, String table, String branch)
            throws IOException
    {
        return PaimonTable.load(OpenWarehouses.open(warehouse, storage).catalog(), Identifier.parse(table), branch);
    }

    ScanVersion scanVersion()
    {
        return version.version();
    }

    /**
     * The projected columns, in the order given, or every column of {@code schema}. A table
     * that tracks rows also has {@code _ROW_ID} and {@code _SEQUENCE_NUMBER}.
     */
    List<DataField> columns(TableSchema schema)
    {
        if (columns.isEmpty()) {
            return schema.fields();
        }
        List<DataField> known = new ArrayList<>(schema.fields());
        known.addAll(RowTrackingFields.of(table, schema));
        List<DataField> fields = new ArrayList<>();
        for (String name : columns.get().split(",")) {
            String trimmed = name.trim();
            fields.add(known.stream().filter(field -> field.name().equals(trimmed)).findFirst().orElseThrow(() -> new IllegalArgumentException(
                    "Table " + table + " has no column '" + trimmed + "'; its columns are " + String.join(", ", known.stream().map(DataField::name).toList()))));
        }
        return List.copyOf(fields);
    }

    Optional<Predicate> filter(RowType schema)
    {
        return where.map(text -> FilterParser.parse(text, schema));
    }
}
