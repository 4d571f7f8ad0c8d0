package io.tarn.trino;

import io.tarn.storage.CommitConflictException;
import io.tarn.storage.schema.SchemaManager;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.snapshot.Snapshot;
import io.tarn.storage.schema.NestingDepth;
import io.tarn.storage.table.PaimonTable;
import io.tarn.storage.schema.TableOptions;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ColumnPosition;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

import static io.tarn.trino.TarnErrorCode.TARN_UNSUPPORTED_FEATURE;
import static io.trino.spi.StandardErrorCode.ALREADY_EXISTS;
import static io.trino.spi.StandardErrorCode.COLUMN_NOT_FOUND;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static java.util.Objects.requireNonNull;

/**
 * ALTER TABLE as Paimon's schema evolution: every change publishes the next schema file. Columns
 * keep their field ids across renames; an added column takes a new id, so files written before
 * read it as null; a dropped column's id is never reused.
 * <p>
 * A change is a function of the latest schema. When another writer publishes the same schema id
 * first, the change is applied again to the schema that won and published as the next id, so
 * concurrent changes that do not collide all land; one that no longer applies (its column now
 * exists, or is gone) fails as it would have run after the other.
 */
final class TarnSchemaChanges
{
    // each lost race means another change landed, so this bounds only a storm of changes
    private static final int MAX_ATTEMPTS = 20;

    private TarnSchemaChanges() {}

    /**
     * The fields of the next schema and its highest field id.
     */
    private record Evolution(List<DataField> fields, int highestFieldId)
    {
        Evolution
        {
            fields = List.copyOf(requireNonNull(fields, "fields is null"));
        }
    }

    private interface Change
    {
        Evolution apply(TableSchema current)
                throws IOException;
    }

    static void addColumn(PaimonTable table, ColumnMetadata column, ColumnPosition position)
            throws IOException
    {
        commit(table, current -> {
            if (current.rowType().field(column.getName()).isPresent()) {
                throw new TrinoException(ALREADY_EXISTS, "Table %s already has a column '%s'".formatted(table.name(), column.getName()));
            }
            AtomicInteger highestFieldId = new AtomicInteger(current.highestFieldId());
            int id = highestFieldId.incrementAndGet();
            DataType type = TarnWriteTypes.toPaimonType(column.getType(), highestFieldId);
            if (!column.isNullable()) {
                // rows written before would read the new column as null
                if (!isEmpty(table)) {
                    throw new TrinoException(NOT_SUPPORTED, "Unable to add NOT NULL column '%s' for non-empty table: %s".formatted(column.getName(), table.name()));
                }
                type = type.withNullable(false);
            }
            List<DataField> fields = new ArrayList<>(current.fields());
            fields.add(index(table, current, position), new DataField(id, column.getName(), type, column.getComment(), Optional.empty()));
            return new Evolution(fields, highestFieldId.get());
        });
    }

    /**
     * Where a new column goes: only the order of the schema's fields changes, as field ids, not
     * positions, tie data files to columns.
     */
    private static int index(PaimonTable table, TableSchema current, ColumnPosition position)
    {
        return switch (position) {
            case ColumnPosition.First _ -> 0;
            case ColumnPosition.Last _ -> current.fields().size();
            case ColumnPosition.After after -> {
                for (int i = 0; i < current.fields().size(); i++) {
                    if (current.fields().get(i).name().equals(after.columnName())) {
                        yield i + 1;
                    }
                }
                throw new TrinoException(COLUMN_NOT_FOUND, "Table %s has no column '%s' to add a column after".formatted(table.name(), after.columnName()));
            }
            default -> throw new IllegalArgumentException("Unknown column position " + position);
        };
    }

    private static boolean isEmpty(PaimonTable table)
            throws IOException
    {
        Optional<Snapshot> latest = table.snapshot(ScanVersion.latest());
        // a snapshot without a record count (written by an old Paimon) counts as holding rows
        return latest.isEmpty() || latest.get().totalRecordCount().orElse(1L) == 0;
    }

    static void renameColumn(PaimonTable table, int fieldId, String newName)
            throws IOException
    {
        commit(table, current -> {
            DataField field = field(table, current, fieldId);
            checkNotKey(table, current, field, "rename");
            if (current.rowType().field(newName).isPresent()) {
                throw new TrinoException(ALREADY_EXISTS, "Table %s already has a column '%s'".formatted(table.name(), newName));
            }
            List<DataField> fields = new ArrayList<>();
            for (DataField existing : current.fields()) {
                fields.add(existing.id() == fieldId
                        ? new DataField(existing.id(), newName, existing.type(), existing.description(), existing.defaultValue())
                        : existing);
            }
            return new Evolution(fields, current.highestFieldId());
        });
    }

    static void dropColumn(PaimonTable table, int fieldId)
            throws IOException
    {
        commit(table, current -> {
            DataField field = field(table, current, fieldId);
            checkNotKey(table, current, field, "drop");
            if (current.fields().size() == 1) {
                throw new TrinoException(TARN_UNSUPPORTED_FEATURE, "Cannot drop the only column of table " + table.name());
            }
            return new Evolution(current.fields().stream().filter(existing -> existing.id() != fieldId).toList(), current.highestFieldId());
        });
    }

    private static DataField field(PaimonTable table, TableSchema schema, int fieldId)
    {
        return schema.fields().stream()
                .filter(field -> field.id() == fieldId)
                .findFirst()
                .orElseThrow(() -> new TrinoException(COLUMN_NOT_FOUND, "Table %s has no column with field id %s in its latest schema %s".formatted(table.name(), fieldId, schema.id())));
    }

    private static void checkNotKey(PaimonTable table, TableSchema schema, DataField field, String change)
    {
        if (schema.partitionKeys().contains(field.name()) || schema.primaryKeys().contains(field.name()) || schema.bucketKeys().contains(field.name())) {
            throw new TrinoException(TARN_UNSUPPORTED_FEATURE, "Cannot %s column '%s' of table %s: it is a partition, primary or bucket key".formatted(change, field.name(), table.name()));
        }
    }

    private static void commit(PaimonTable table, Change change)
            throws IOException
    {
        SchemaManager schemas = new SchemaManager(table.fileIO(), table.location(), table.branch());
        for (int attempt = 1; ; attempt++) {
            TableSchema current = table.latestSchema();
            Evolution evolution = change.apply(current);
            TableSchema next = new TableSchema(current.version(), current.id() + 1, evolution.fields(), evolution.highestFieldId(), current.partitionKeys(), current.primaryKeys(),
                    current.options(), current.comment(), System.currentTimeMillis());
            // as at CREATE: nothing is published that places files outside the table or that the
            // reader could not read back
            new TableOptions(table.name(), next.options()).checkPaths(table.location());
            NestingDepth.check(table.name(), next.fields());
            if (schemas.commit(next)) {
                return;
            }
            if (attempt == MAX_ATTEMPTS) {
                throw new CommitConflictException("Schema %s of table %s was written concurrently %s times in a row; run the change again".formatted(next.id(), table.name(), MAX_ATTEMPTS));
            }
            try {
                // apart, so that racing writers do not collide again at once
                Thread.sleep(ThreadLocalRandom.current().nextLong(1, 10L * attempt));
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CommitConflictException("Schema %s of table %s was written concurrently and the retry was interrupted".formatted(next.id(), table.name()));
            }
        }
    }
}
