package io.tarn.trino;

import io.trino.spi.TrinoException;
import io.trino.spi.session.PropertyMetadata;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.TypeManager;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

import static io.trino.spi.StandardErrorCode.INVALID_TABLE_PROPERTY;
import static io.trino.spi.session.PropertyMetadata.integerProperty;
import static io.trino.spi.type.TypeDescriptor.mapType;
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

    private static final Pattern OPTION_KEY = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
    // options Paimon keeps in the schema itself, and those the other table properties set
    private static final Map<String, String> DEDICATED_OPTIONS = Map.of(
            "bucket", BUCKET,
            "bucket-key", BUCKET_KEY,
            "primary-key", PRIMARY_KEY,
            "partition", PARTITIONED_BY,
            BLOOM_FILTER_OPTION, BLOOM_FILTER_COLUMNS,
            BITMAP_OPTION, BITMAP_COLUMNS);

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
                        "Other Paimon table options, as a map from option key to value",
                        typeManager.getType(mapType(VARCHAR.getTypeDescriptor(), VARCHAR.getTypeDescriptor())),
                        Map.class,
                        Map.of(),
                        false,
                        value -> options((Map<?, ?>) value),
                        value -> value));
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

    /**
     * The options, checked: keys are Paimon option keys (letters, digits, {@code . - _}), values
     * are not null, and what a dedicated table property sets is not set here as well.
     */
    private static Map<String, String> options(Map<?, ?> entries)
    {
        Map<String, String> map = new LinkedHashMap<>();
        for (Map.Entry<?, ?> entry : entries.entrySet()) {
            String key = (String) entry.getKey();
            if (key == null || !OPTION_KEY.matcher(key).matches()) {
                throw new TrinoException(INVALID_TABLE_PROPERTY, "Table option key '%s' is not a Paimon option key (letters, digits, '.', '-' and '_')".formatted(key));
            }
            String dedicated = DEDICATED_OPTIONS.get(key);
            if (dedicated != null) {
                throw new TrinoException(INVALID_TABLE_PROPERTY, "Table option '%s' is set through the table property %s, not through %s".formatted(key, dedicated, OPTIONS));
            }
            if (entry.getValue() == null) {
                throw new TrinoException(INVALID_TABLE_PROPERTY, "Table option '%s' has a null value".formatted(key));
            }
            map.put(key, (String) entry.getValue());
        }
        return map;
    }
}
