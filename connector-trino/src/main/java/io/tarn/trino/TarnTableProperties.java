package io.tarn.trino;

import io.trino.spi.TrinoException;
import io.trino.spi.session.PropertyMetadata;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.TypeManager;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static io.trino.spi.StandardErrorCode.INVALID_TABLE_PROPERTY;
import static io.trino.spi.session.PropertyMetadata.integerProperty;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.util.Objects.requireNonNull;

/**
 * The table properties {@code SHOW CREATE TABLE} shows and {@code CREATE TABLE} accepts: the
 * partition keys, the primary key, the bucket count and keys, file indexes, and every other
 * Paimon option through {@code options}.
 */
final class TarnTableProperties
{
    static final String PARTITIONED_BY = "partitioned_by";
    static final String PRIMARY_KEY = "primary_key";
    static final String BUCKET = "bucket";
    static final String BUCKET_KEY = "bucket_key";
    static final String BLOOM_FILTER_COLUMNS = "file_index_bloom_filter_columns";
    static final String BITMAP_COLUMNS = "file_index_bitmap_columns";
    static final String OPTIONS = "options";

    static final String BLOOM_FILTER_OPTION = "file-index.bloom-filter.columns";
    static final String BITMAP_OPTION = "file-index.bitmap.columns";

    private final List<PropertyMetadata<?>> properties;

    TarnTableProperties(TypeManager typeManager)
    {
        requireNonNull(typeManager, "typeManager is null");
        properties = List.of(
                columnList(PARTITIONED_BY, "Partition columns"),
                columnList(PRIMARY_KEY, "Primary key columns"),
                integerProperty(BUCKET, "Number of buckets (-1: dynamic or unaware)", null, false),
                columnList(BUCKET_KEY, "Columns hashed to choose a bucket"),
                columnList(BLOOM_FILTER_COLUMNS, "Columns with a Bloom-filter file index"),
                columnList(BITMAP_COLUMNS, "Columns with a bitmap file index"),
                new PropertyMetadata<>(
                        OPTIONS,
                        "Other Paimon table options, as 'key=value' entries",
                        new ArrayType(VARCHAR),
                        Map.class,
                        Map.of(),
                        false,
                        value -> options((List<?>) value),
                        value -> encodeOptions((Map<?, ?>) value)));
    }

    List<PropertyMetadata<?>> properties()
    {
        return properties;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static PropertyMetadata<?> columnList(String name, String description)
    {
        return new PropertyMetadata<>(
                name,
                description,
                new ArrayType(VARCHAR),
                List.class,
                List.of(),
                false,
                value -> ((List<?>) value).stream().map(column -> ((String) column).toLowerCase(Locale.ROOT)).toList(),
                value -> value);
    }

    private static List<String> encodeOptions(Map<?, ?> options)
    {
        return options.entrySet().stream().map(entry -> entry.getKey() + "=" + entry.getValue()).toList();
    }

    /**
     * The options as a map; SHOW CREATE TABLE cannot print a map literal, so the property is
     * an array of {@code key=value} entries.
     */
    private static Map<String, String> options(List<?> entries)
    {
        Map<String, String> map = new LinkedHashMap<>();
        for (Object entry : entries) {
            String text = (String) entry;
            int equals = text.indexOf('=');
            if (equals <= 0) {
                throw new TrinoException(INVALID_TABLE_PROPERTY, "Table option '%s' is not of the form key=value".formatted(text));
            }
            map.put(text.substring(0, equals).trim(), text.substring(equals + 1).trim());
        }
        return map;
    }
}
