package io.tarn.trino;

import io.tarn.storage.schema.TableSchema;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The values of the table properties ({@link TarnTableProperties}) that a table's schema shows,
 * as {@code SHOW CREATE TABLE} prints them: the inverse of {@link TarnTableCreation}.
 */
final class TarnTablePropertyValues
{
    private TarnTablePropertyValues() {}

    static Map<String, Object> of(TableSchema schema)
    {
        Map<String, Object> properties = new LinkedHashMap<>();
        Map<String, String> options = new LinkedHashMap<>(schema.options());
        if (!schema.partitionKeys().isEmpty()) {
            properties.put(TarnTableProperties.PARTITIONED_BY, schema.partitionKeys());
        }
        if (!schema.primaryKeys().isEmpty()) {
            properties.put(TarnTableProperties.PRIMARY_KEY, schema.primaryKeys());
        }
        // only when set: a table without it has Paimon's default, which SHOW CREATE TABLE's text
        // then leaves to Paimon again
        if (options.remove(TableSchema.BUCKET_OPTION) != null) {
            properties.put(TarnTableProperties.BUCKET, schema.numBuckets());
        }
        String bucketKey = options.remove(TableSchema.BUCKET_KEY_OPTION);
        if (bucketKey != null) {
            properties.put(TarnTableProperties.BUCKET_KEY, columnList(bucketKey));
        }
        String bloom = options.remove(TarnTableProperties.BLOOM_FILTER_OPTION);
        if (bloom != null) {
            properties.put(TarnTableProperties.BLOOM_FILTER_COLUMNS, columnList(bloom));
        }
        String bitmap = options.remove(TarnTableProperties.BITMAP_OPTION);
        if (bitmap != null) {
            properties.put(TarnTableProperties.BITMAP_COLUMNS, columnList(bitmap));
        }
        // The remaining options stay out: Trino (476, 483) prints no map-valued table property in SHOW
        // CREATE TABLE (only strings, numbers, booleans and arrays), so "t$options" lists them.
        return properties;
    }

    private static List<String> columnList(String value)
    {
        return Arrays.stream(value.split(",")).map(String::trim).filter(name -> !name.isEmpty()).toList();
    }
}
