package io.tarn.trino;

import io.tarn.storage.schema.SchemaJson;
import io.tarn.storage.schema.TableSchema;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorTableMetadata;
import io.trino.spi.connector.SchemaTableName;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static io.tarn.trino.TarnErrorCode.TARN_INVALID_TABLE_PROPERTY;

/**
 * The first schema of a table created through SQL: columns with Paimon field ids, partition and
 * primary keys, and the options the table properties set.
 */
final class TarnTableCreation
{
    private TarnTableCreation() {}

    @SuppressWarnings("unchecked")
    static TableSchema schema(ConnectorTableMetadata metadata)
    {
        Map<String, Object> properties = metadata.getProperties();
        List<String> partitionKeys = (List<String>) properties.getOrDefault(TarnTableProperties.PARTITIONED_BY, List.of());
        List<String> primaryKeys = (List<String>) properties.getOrDefault(TarnTableProperties.PRIMARY_KEY, List.of());
        AtomicInteger highestFieldId = new AtomicInteger(-1);
        List<DataField> fields = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (ColumnMetadata column : metadata.getColumns()) {
            if (column.isHidden()) {
                continue;
            }
            int id = highestFieldId.incrementAndGet();
            DataType type = TarnWriteTypes.toPaimonType(column.getType(), highestFieldId);
            // Paimon keeps primary-key columns NOT NULL
            if (!column.isNullable() || primaryKeys.contains(column.getName())) {
                type = type.withNullable(false);
            }
            fields.add(new DataField(id, column.getName(), type, column.getComment(), Optional.empty()));
            names.add(column.getName());
        }
        checkColumns(TarnTableProperties.PARTITIONED_BY, partitionKeys, names);
        checkColumns(TarnTableProperties.PRIMARY_KEY, primaryKeys, names);
        if (!primaryKeys.isEmpty() && !primaryKeys.containsAll(partitionKeys)) {
            throw new TrinoException(TARN_INVALID_TABLE_PROPERTY, "The primary key %s of table %s must contain the partition keys %s".formatted(primaryKeys, metadata.getTable(), partitionKeys));
        }

        Map<String, String> options = new LinkedHashMap<>((Map<String, String>) properties.getOrDefault(TarnTableProperties.OPTIONS, Map.of()));
        Object bucket = properties.get(TarnTableProperties.BUCKET);
        if (bucket != null) {
            options.put(TableSchema.BUCKET_OPTION, bucket.toString());
        }
        List<String> bucketKey = (List<String>) properties.getOrDefault(TarnTableProperties.BUCKET_KEY, List.of());
        checkColumns(TarnTableProperties.BUCKET_KEY, bucketKey, names);
        if (!bucketKey.isEmpty()) {
            options.put(TableSchema.BUCKET_KEY_OPTION, String.join(",", bucketKey));
        }
        List<String> bloom = (List<String>) properties.getOrDefault(TarnTableProperties.BLOOM_FILTER_COLUMNS, List.of());
        checkColumns(TarnTableProperties.BLOOM_FILTER_COLUMNS, bloom, names);
        if (!bloom.isEmpty()) {
            options.put(TarnTableProperties.BLOOM_FILTER_OPTION, String.join(",", bloom));
        }
        List<String> bitmap = (List<String>) properties.getOrDefault(TarnTableProperties.BITMAP_COLUMNS, List.of());
        checkColumns(TarnTableProperties.BITMAP_COLUMNS, bitmap, names);
        if (!bitmap.isEmpty()) {
            options.put(TarnTableProperties.BITMAP_OPTION, String.join(",", bitmap));
        }
        return new TableSchema(TableSchema.CURRENT_VERSION, 0, fields, highestFieldId.get(), partitionKeys, primaryKeys, options,
                metadata.getComment(), System.currentTimeMillis());
    }

    /**
     * The schema as it travels in a {@link TarnWriteHandle}: the JSON of its schema file.
     */
    static String toJson(TableSchema schema)
    {
        return new String(SchemaJson.toJsonBytes(schema), StandardCharsets.UTF_8);
    }

    static TableSchema parse(SchemaTableName table, String json)
    {
        try {
            return SchemaJson.parse(json.getBytes(StandardCharsets.UTF_8), "first schema of table " + table);
        }
        catch (IOException e) {
            throw TarnExceptions.translate("Cannot create table " + table, e);
        }
    }

    private static void checkColumns(String property, List<String> columns, List<String> names)
    {
        for (String column : columns) {
            if (!names.contains(column)) {
                throw new TrinoException(TARN_INVALID_TABLE_PROPERTY, "Table property %s names column '%s', which the table does not have; columns are %s".formatted(property, column, names));
            }
        }
    }
}
