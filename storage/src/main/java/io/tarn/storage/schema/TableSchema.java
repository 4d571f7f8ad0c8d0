package io.tarn.storage.schema;

import io.tarn.types.DataField;
import io.tarn.types.RowType;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * One version of a table's schema, as stored in {@code schema/schema-<id>} (format spec section 2).
 * {@code options} keeps the stored key order so that writing it back gives the same JSON.
 */
public record TableSchema(
        int version,
        long id,
        List<DataField> fields,
        int highestFieldId,
        List<String> partitionKeys,
        List<String> primaryKeys,
        Map<String, String> options,
        Optional<String> comment,
        long timeMillis)
{
    public static final int CURRENT_VERSION = 3;
    public static final String BUCKET_OPTION = "bucket";
    public static final String BUCKET_KEY_OPTION = "bucket-key";
    public static final String FILE_FORMAT_OPTION = "file.format";

    public TableSchema
    {
        fields = List.copyOf(requireNonNull(fields, "fields is null"));
        partitionKeys = List.copyOf(requireNonNull(partitionKeys, "partitionKeys is null"));
        primaryKeys = List.copyOf(requireNonNull(primaryKeys, "primaryKeys is null"));
        options = Collections.unmodifiableMap(new LinkedHashMap<>(requireNonNull(options, "options is null")));
        requireNonNull(comment, "comment is null");
    }

    public RowType rowType()
    {
        return RowType.of(fields);
    }

    /**
     * The partition columns in partition-key order (the order of the partition directories).
     */
    public RowType partitionType()
    {
        List<DataField> partitionFields = new ArrayList<>(partitionKeys.size());
        for (String key : partitionKeys) {
            partitionFields.add(field(key));
        }
        return RowType.of(partitionFields);
    }

    /**
     * The primary key without the partition keys: the key stored in data files and used for merging.
     */
    public List<String> trimmedPrimaryKeys()
    {
        return primaryKeys.stream()
                .filter(key -> !partitionKeys.contains(key))
                .toList();
    }

    /**
     * The columns hashed to choose a bucket: option {@code bucket-key}, else the trimmed primary key.
     */
    public List<String> bucketKeys()
    {
        String bucketKey = options.get(BUCKET_KEY_OPTION);
        if (bucketKey != null) {
            List<String> keys = new ArrayList<>();
            for (String key : bucketKey.split(",")) {
                if (!key.isBlank()) {
                    keys.add(key.trim());
                }
            }
            if (!keys.isEmpty()) {
                return List.copyOf(keys);
            }
        }
        return trimmedPrimaryKeys();
    }

    /**
     * Option {@code bucket}: a positive fixed bucket count, -1 for dynamic or unaware buckets,
     * -2 for postpone buckets. Absent means -1, Paimon 1.3's default.
     */
    public int numBuckets()
    {
        String value = options.get(BUCKET_OPTION);
        if (value == null) {
            return -1;
        }
        try {
            return Integer.parseInt(value.trim());
        }
        catch (NumberFormatException e) {
            throw new IllegalArgumentException("Invalid value '%s' of option 'bucket' in schema %s".formatted(value, id), e);
        }
    }

    public String option(String key, String defaultValue)
    {
        return options.getOrDefault(key, defaultValue);
    }

    public List<String> fieldNames()
    {
        return fields.stream().map(DataField::name).toList();
    }

    private DataField field(String name)
    {
        for (DataField field : fields) {
            if (field.name().equals(name)) {
                return field;
            }
        }
        throw new IllegalArgumentException("Schema %s has no column '%s'".formatted(id, name));
    }

    public TableSchema withId(long newId)
    {
        return new TableSchema(version, newId, fields, highestFieldId, partitionKeys, primaryKeys, options, comment, timeMillis);
    }
}
