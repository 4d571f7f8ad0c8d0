package io.tarn.jni;

import io.tarn.cli.where.WhereParser;
import io.tarn.index.predicate.Predicate;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.table.PaimonTable;
import io.tarn.types.DataField;
import io.tarn.types.RowType;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A scan as the C caller describes it, in text: the warehouse directory, {@code db.table}, a
 * version, comma-separated column names and a filter in the {@code tarn dump --where} grammar.
 *
 * <p>Versions: empty for the latest snapshot; {@code snapshot:N}; {@code tag:NAME};
 * {@code timestamp:MILLIS} or {@code timestamp:ISO-INSTANT} (the newest snapshot committed at or
 * before it); anything else is Paimon's {@code scan.version} (a tag of that name, else a
 * snapshot id).
 */
record ScanRequest(String warehouse, String table, Optional<String> version, Optional<String> columns, Optional<String> where)
{
    ScanRequest
    {
        requireNonNull(warehouse, "warehouse is null");
        requireNonNull(table, "table is null");
        version = requireNonNull(version, "version is null").filter(text -> !text.isBlank());
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
        return new ScanRequest(warehouse, table, Optional.ofNullable(version), Optional.ofNullable(columns), Optional.ofNullable(where));
    }

    PaimonTable loadTable()
            throws IOException
    {
        return loadTable(warehouse, table, PaimonTable.MAIN_BRANCH);
    }

    static PaimonTable loadTable(String warehouse, String table, String branch)
            throws IOException
    {
        String directory = Path.of(warehouse).toAbsolutePath().normalize().toString();
        return PaimonTable.load(new FileSystemCatalog(new LocalFileIO(), directory), Identifier.parse(table), branch);
    }

    ScanVersion scanVersion()
    {
        if (version.isEmpty()) {
            return ScanVersion.latest();
        }
        String text = version.get().trim();
        if (text.startsWith("snapshot:")) {
            String id = text.substring("snapshot:".length()).trim();
            try {
                return new ScanVersion.SnapshotId(Long.parseLong(id));
            }
            catch (NumberFormatException e) {
                throw new IllegalArgumentException("Table " + table + ": not a snapshot id in version '" + text + "'", e);
            }
        }
        if (text.startsWith("tag:")) {
            return new ScanVersion.TagName(text.substring("tag:".length()));
        }
        if (text.startsWith("timestamp:")) {
            return new ScanVersion.TimestampMillis(timestampMillis(text.substring("timestamp:".length()).trim()));
        }
        return new ScanVersion.Version(text);
    }

    private long timestampMillis(String text)
    {
        try {
            if (!text.isEmpty() && text.chars().allMatch(Character::isDigit)) {
                return Long.parseLong(text);
            }
            return Instant.parse(text).toEpochMilli();
        }
        catch (NumberFormatException | DateTimeParseException e) {
            throw new IllegalArgumentException("Table " + table + ": version timestamp '" + text + "' is neither epoch milliseconds nor an ISO instant", e);
        }
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
        return where.map(text -> WhereParser.parse(text, schema));
    }
}
