package io.tarn.storage.snapshot;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import io.tarn.storage.CorruptFileException;

import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import static io.tarn.storage.snapshot.MetadataJson.optionalLong;
import static io.tarn.storage.snapshot.MetadataJson.optionalText;
import static io.tarn.storage.snapshot.MetadataJson.requiredInt;
import static io.tarn.storage.snapshot.MetadataJson.requiredLong;
import static java.util.Objects.requireNonNull;

/**
 * A table's statistics as of one snapshot, stored as JSON in {@code statistics/stat-<uuid>-<n>}
 * and named by the {@code statistics} key of every later snapshot until the schema changes
 * (Paimon's {@code Statistics}, written by Spark's {@code ANALYZE TABLE} and by Tarn's
 * {@code ANALYZE}). Query planners use it for what manifests do not carry: the number of
 * distinct values of a column, and value sizes.
 *
 * @param snapshotId the snapshot the statistics were computed on; later snapshots may have
 * changed the data since
 * @param schemaId the schema of that snapshot
 * @param mergedRecordCount the rows a reader sees (after merging keys and applying deletes)
 * @param mergedRecordSize the bytes of the data files that hold those rows
 * @param columns per column name
 */
public record SnapshotStatistics(
        long snapshotId,
        long schemaId,
        Optional<Long> mergedRecordCount,
        Optional<Long> mergedRecordSize,
        Map<String, ColumnStats> columns)
{
    public SnapshotStatistics
    {
        requireNonNull(mergedRecordCount, "mergedRecordCount is null");
        requireNonNull(mergedRecordSize, "mergedRecordSize is null");
        columns = Collections.unmodifiableMap(new LinkedHashMap<>(requireNonNull(columns, "columns is null")));
    }

    /**
     * The same statistics, said to be computed on snapshot {@code id}.
     */
    public SnapshotStatistics withSnapshotId(long id)
    {
        return new SnapshotStatistics(id, schemaId, mergedRecordCount, mergedRecordSize, columns);
    }

    /**
     * The statistics of one column. Minimum and maximum stay in Paimon's own string form, which
     * depends on the column's type, as read: Tarn's planners take ranges from the manifests, and
     * its {@code ANALYZE} writes none.
     *
     * @param columnId the field id of the column in the schema of {@code schemaId}
     * @param averageLength the average size of a value in bytes
     * @param maxLength the size of the largest value in bytes
     */
    public record ColumnStats(
            int columnId,
            Optional<Long> distinctCount,
            Optional<String> min,
            Optional<String> max,
            Optional<Long> nullCount,
            Optional<Long> averageLength,
            Optional<Long> maxLength)
    {
        public ColumnStats
        {
            requireNonNull(distinctCount, "distinctCount is null");
            requireNonNull(min, "min is null");
            requireNonNull(max, "max is null");
            requireNonNull(nullCount, "nullCount is null");
            requireNonNull(averageLength, "averageLength is null");
            requireNonNull(maxLength, "maxLength is null");
        }
    }

    /**
     * Parses a statistics file. Keys Paimon may add later are ignored, as Paimon ignores them.
     */
    public static SnapshotStatistics fromJson(byte[] json, String fileName)
            throws CorruptFileException
    {
        JsonNode root = MetadataJson.readObject(json, fileName);
        Map<String, ColumnStats> columns = new LinkedHashMap<>();
        JsonNode columnsNode = root.get("colStats");
        if (columnsNode != null && !columnsNode.isNull()) {
            if (!columnsNode.isObject()) {
                throw new CorruptFileException("Key 'colStats' of file %s is not a JSON object".formatted(fileName));
            }
            for (Map.Entry<String, JsonNode> entry : columnsNode.properties()) {
                JsonNode column = entry.getValue();
                String key = "colStats." + entry.getKey();
                if (!column.isObject()) {
                    throw new CorruptFileException("Key '%s' of file %s is not a JSON object".formatted(key, fileName));
                }
                columns.put(entry.getKey(), new ColumnStats(
                        requiredInt(column, "colId", fileName),
                        nonNegative(optionalLong(column, "distinctCount", fileName), key + ".distinctCount", fileName),
                        optionalText(column, "min", fileName),
                        optionalText(column, "max", fileName),
                        nonNegative(optionalLong(column, "nullCount", fileName), key + ".nullCount", fileName),
                        nonNegative(optionalLong(column, "avgLen", fileName), key + ".avgLen", fileName),
                        nonNegative(optionalLong(column, "maxLen", fileName), key + ".maxLen", fileName)));
            }
        }
        return new SnapshotStatistics(
                requiredLong(root, "snapshotId", fileName),
                requiredLong(root, "schemaId", fileName),
                nonNegative(optionalLong(root, "mergedRecordCount", fileName), "mergedRecordCount", fileName),
                nonNegative(optionalLong(root, "mergedRecordSize", fileName), "mergedRecordSize", fileName),
                columns);
    }

    /**
     * The JSON form, with Paimon's key names and layout; absent values are left out, as Paimon
     * leaves out its nulls.
     */
    public String toJson()
    {
        return MetadataJson.write(generator -> {
            generator.writeStartObject();
            generator.writeNumberField("snapshotId", snapshotId);
            generator.writeNumberField("schemaId", schemaId);
            if (mergedRecordCount.isPresent()) {
                generator.writeNumberField("mergedRecordCount", mergedRecordCount.get());
            }
            if (mergedRecordSize.isPresent()) {
                generator.writeNumberField("mergedRecordSize", mergedRecordSize.get());
            }
            generator.writeObjectFieldStart("colStats");
            for (Map.Entry<String, ColumnStats> entry : columns.entrySet()) {
                ColumnStats column = entry.getValue();
                generator.writeObjectFieldStart(entry.getKey());
                generator.writeNumberField("colId", column.columnId());
                writeOptional(generator, "distinctCount", column.distinctCount());
                if (column.min().isPresent()) {
                    generator.writeStringField("min", column.min().get());
                }
                if (column.max().isPresent()) {
                    generator.writeStringField("max", column.max().get());
                }
                writeOptional(generator, "nullCount", column.nullCount());
                writeOptional(generator, "avgLen", column.averageLength());
                writeOptional(generator, "maxLen", column.maxLength());
                generator.writeEndObject();
            }
            generator.writeEndObject();
            generator.writeEndObject();
        });
    }

    private static void writeOptional(JsonGenerator generator, String key, Optional<Long> value)
            throws IOException
    {
        if (value.isPresent()) {
            generator.writeNumberField(key, value.get());
        }
    }

    // a negative count or size would make a planner's estimates nonsense: the file is not Paimon's
    private static Optional<Long> nonNegative(Optional<Long> value, String key, String fileName)
            throws CorruptFileException
    {
        if (value.isPresent() && value.get() < 0) {
            throw new CorruptFileException("Key '%s' of file %s is negative: %d".formatted(key, fileName, value.get()));
        }
        return value;
    }
}
