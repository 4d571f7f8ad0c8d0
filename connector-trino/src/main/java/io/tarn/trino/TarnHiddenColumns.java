package io.tarn.trino;

import io.tarn.storage.read.RowTrackingFields;
import io.tarn.storage.schema.TableSchema;
import io.tarn.types.DataField;
import io.trino.spi.connector.ColumnMetadata;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

import static io.trino.spi.type.BigintType.BIGINT;

/**
 * The hidden columns of a table version: {@code _row_id} and {@code _sequence_number} of a table
 * that tracks rows ({@code row-tracking.enabled}), which {@code SELECT *} leaves out and a query
 * names to get them, as Paimon's engines expose them. A table column of the same name wins: Trino
 * names columns case-insensitively, and Paimon only forbids the upper-case spellings.
 */
final class TarnHiddenColumns
{
    private TarnHiddenColumns() {}

    static List<DataField> fields(String tableName, TableSchema schema)
    {
        return RowTrackingFields.of(tableName, schema).stream()
                .filter(field -> schema.fields().stream().noneMatch(column -> column.name().equalsIgnoreCase(field.name())))
                .toList();
    }

    /**
     * The hidden column of this field id in this table version, if it has one.
     */
    static Optional<DataField> field(String tableName, TableSchema schema, int fieldId)
    {
        return fields(tableName, schema).stream().filter(field -> field.id() == fieldId).findFirst();
    }

    static String columnName(DataField field)
    {
        return field.name().toLowerCase(Locale.ROOT);
    }

    static TarnColumnHandle handle(DataField field)
    {
        return TarnColumnHandle.base(columnName(field), field.id(), BIGINT);
    }

    static ColumnMetadata metadata(DataField field)
    {
        String description = field.id() == RowTrackingFields.ROW_ID.id()
                ? "The row's id, unique in the table and kept when compaction rewrites the row"
                : "The sequence number of the commit that last wrote the row";
        return ColumnMetadata.builder()
                .setName(columnName(field))
                .setType(BIGINT)
                .setNullable(false)
                .setHidden(true)
                .setComment(Optional.of(description))
                .build();
    }
}
