package io.tarn.storage.snapshot;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import io.tarn.storage.CorruptFileException;
import io.tarn.storage.UnsupportedTableFeatureException;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import static io.tarn.storage.snapshot.MetadataJson.optionalLong;
import static io.tarn.storage.snapshot.MetadataJson.optionalStringMap;
import static io.tarn.storage.snapshot.MetadataJson.optionalText;
import static io.tarn.storage.snapshot.MetadataJson.requiredLong;
import static io.tarn.storage.snapshot.MetadataJson.requiredText;

/**
 * The JSON form of snapshots and tags (format spec sections 3.1 and 10). Keys are written in
 * Paimon 1.3's order; {@code changelogManifestList}, {@code totalRecordCount} and
 * {@code deltaRecordCount} are always written (possibly {@code null}),
 * {@code logOffsets} and {@code properties} whenever present (possibly {@code { }}), the other
 * optional keys only when present. A tag adds {@code tagCreateTime} (Jackson's
 * {@code LocalDateTime} array) and {@code tagTimeRetained} (decimal seconds).
 */
final class SnapshotJson
{
    private static final BigDecimal NANOS_PER_SECOND = BigDecimal.valueOf(1_000_000_000L);

    private SnapshotJson() {}

    public static Snapshot parse(byte[] json, String fileName)
            throws CorruptFileException, UnsupportedTableFeatureException
    {
        return parse(MetadataJson.readObject(json, fileName), fileName);
    }

    public static Tag parseTag(byte[] json, String fileName)
            throws CorruptFileException, UnsupportedTableFeatureException
    {
        JsonNode root = MetadataJson.readObject(json, fileName);
        Snapshot snapshot = parse(root, fileName);
        return new Tag(snapshot, parseLocalDateTime(root.get("tagCreateTime"), fileName), parseDuration(root.get("tagTimeRetained"), fileName));
    }

    private static Snapshot parse(JsonNode root, String fileName)
            throws CorruptFileException, UnsupportedTableFeatureException
    {
        int version = MetadataJson.optionalInt(root, "version", fileName).orElse(1);
        if (version > Snapshot.CURRENT_VERSION) {
            throw new UnsupportedTableFeatureException("Snapshot file %s has version %s, newer than the supported version %s".formatted(fileName, version, Snapshot.CURRENT_VERSION));
        }
        if (version < 1) {
            throw new CorruptFileException("Snapshot file %s has invalid version %s".formatted(fileName, version));
        }
        String commitKindText = requiredText(root, "commitKind", fileName);
        CommitKind commitKind;
        try {
            commitKind = CommitKind.valueOf(commitKindText);
        }
        catch (IllegalArgumentException e) {
            throw new CorruptFileException("Key 'commitKind' of file %s has unknown value '%s'".formatted(fileName, commitKindText), e);
        }
        return new Snapshot(
                version,
                requiredLong(root, "id", fileName),
                requiredLong(root, "schemaId", fileName),
                requiredText(root, "baseManifestList", fileName),
                optionalLong(root, "baseManifestListSize", fileName),
                requiredText(root, "deltaManifestList", fileName),
                optionalLong(root, "deltaManifestListSize", fileName),
                optionalText(root, "changelogManifestList", fileName),
                optionalLong(root, "changelogManifestListSize", fileName),
                optionalText(root, "indexManifest", fileName),
                requiredText(root, "commitUser", fileName),
                requiredLong(root, "commitIdentifier", fileName),
                commitKind,
                requiredLong(root, "timeMillis", fileName),
                parseLogOffsets(root.get("logOffsets"), fileName),
                optionalLong(root, "totalRecordCount", fileName),
                optionalLong(root, "deltaRecordCount", fileName),
                optionalLong(root, "changelogRecordCount", fileName),
                optionalLong(root, "watermark", fileName),
                optionalText(root, "statistics", fileName),
                optionalStringMap(root, "properties", fileName),
                optionalLong(root, "nextRowId", fileName));
    }

    private static Optional<Map<Integer, Long>> parseLogOffsets(JsonNode node, String fileName)
            throws CorruptFileException
    {
        if (node == null || node.isNull()) {
            return Optional.empty();
        }
        if (!node.isObject()) {
            throw new CorruptFileException("Key 'logOffsets' of file %s is not a JSON object".formatted(fileName));
        }
        Map<Integer, Long> offsets = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> entries = node.fields();
        while (entries.hasNext()) {
            Map.Entry<String, JsonNode> entry = entries.next();
            int bucket;
            try {
                bucket = Integer.parseInt(entry.getKey());
            }
            catch (NumberFormatException e) {
                throw new CorruptFileException("Key 'logOffsets' of file %s has a non-integer bucket '%s'".formatted(fileName, entry.getKey()), e);
            }
            offsets.put(bucket, MetadataJson.toLong(entry.getValue(), "logOffsets." + entry.getKey(), fileName));
        }
        return Optional.of(offsets);
    }

    private static Optional<LocalDateTime> parseLocalDateTime(JsonNode node, String fileName)
            throws CorruptFileException
    {
        if (node == null || node.isNull()) {
            return Optional.empty();
        }
        try {
            if (node.isTextual()) {
                return Optional.of(LocalDateTime.parse(node.textValue()));
            }
            if (node.isArray() && node.size() >= 5 && node.size() <= 7) {
                int[] parts = new int[7];
                for (int i = 0; i < node.size(); i++) {
                    parts[i] = MetadataJson.toInt(node.get(i), "tagCreateTime[" + i + "]", fileName);
                }
                return Optional.of(LocalDateTime.of(parts[0], parts[1], parts[2], parts[3], parts[4], parts[5], parts[6]));
            }
        }
        catch (DateTimeException e) {
            throw new CorruptFileException("Key 'tagCreateTime' of file %s is not a valid date-time: %s".formatted(fileName, MetadataJson.abbreviate(node)), e);
        }
        throw new CorruptFileException("Key 'tagCreateTime' of file %s is not a date-time array: %s".formatted(fileName, MetadataJson.abbreviate(node)));
    }

    private static Optional<Duration> parseDuration(JsonNode node, String fileName)
            throws CorruptFileException
    {
        if (node == null || node.isNull()) {
            return Optional.empty();
        }
        try {
            if (node.isTextual()) {
                return Optional.of(Duration.parse(node.textValue()));
            }
            if (node.isNumber()) {
                BigDecimal seconds = node.decimalValue();
                BigInteger nanos = seconds.multiply(NANOS_PER_SECOND).toBigIntegerExact();
                BigInteger[] parts = nanos.divideAndRemainder(NANOS_PER_SECOND.toBigInteger());
                return Optional.of(Duration.ofSeconds(parts[0].longValueExact(), parts[1].longValueExact()));
            }
        }
        catch (ArithmeticException | DateTimeParseException e) {
            throw new CorruptFileException("Key 'tagTimeRetained' of file %s is not a valid duration: %s".formatted(fileName, MetadataJson.abbreviate(node)), e);
        }
        throw new CorruptFileException("Key 'tagTimeRetained' of file %s is not a number of seconds: %s".formatted(fileName, MetadataJson.abbreviate(node)));
    }

    public static String toJson(Snapshot snapshot)
    {
        return MetadataJson.write(generator -> {
            generator.writeStartObject();
            writeSnapshotFields(generator, snapshot);
            generator.writeEndObject();
        });
    }

    public static String toJson(Tag tag)
    {
        return MetadataJson.write(generator -> {
            generator.writeStartObject();
            writeSnapshotFields(generator, tag.snapshot());
            if (tag.tagCreateTime().isPresent()) {
                LocalDateTime time = tag.tagCreateTime().get();
                generator.writeArrayFieldStart("tagCreateTime");
                generator.writeNumber(time.getYear());
                generator.writeNumber(time.getMonthValue());
                generator.writeNumber(time.getDayOfMonth());
                generator.writeNumber(time.getHour());
                generator.writeNumber(time.getMinute());
                // Jackson's array form drops trailing zero seconds and nanos; Paimon writes it that way.
                if (time.getSecond() > 0 || time.getNano() > 0) {
                    generator.writeNumber(time.getSecond());
                    if (time.getNano() > 0) {
                        generator.writeNumber(time.getNano());
                    }
                }
                generator.writeEndArray();
            }
            if (tag.tagTimeRetained().isPresent()) {
                generator.writeFieldName("tagTimeRetained");
                generator.writeNumber(durationSeconds(tag.tagTimeRetained().get()));
            }
            generator.writeEndObject();
        });
    }

    public static byte[] toJsonBytes(Snapshot snapshot)
    {
        return toJson(snapshot).getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] toJsonBytes(Tag tag)
    {
        return toJson(tag).getBytes(StandardCharsets.UTF_8);
    }

    // Same decimal as Jackson's duration timestamps: nine fraction digits, "0.0" for zero.
    private static BigDecimal durationSeconds(Duration duration)
    {
        if (duration.isZero()) {
            return BigDecimal.ZERO.setScale(1);
        }
        return BigDecimal.valueOf(duration.getSeconds()).add(BigDecimal.valueOf(duration.getNano(), 9));
    }

    private static void writeSnapshotFields(JsonGenerator generator, Snapshot snapshot)
            throws IOException
    {
        generator.writeNumberField("version", snapshot.version());
        generator.writeNumberField("id", snapshot.id());
        generator.writeNumberField("schemaId", snapshot.schemaId());
        generator.writeStringField("baseManifestList", snapshot.baseManifestList());
        writeOptionalLong(generator, "baseManifestListSize", snapshot.baseManifestListSize());
        generator.writeStringField("deltaManifestList", snapshot.deltaManifestList());
        writeOptionalLong(generator, "deltaManifestListSize", snapshot.deltaManifestListSize());
        // always written, as null when absent
        generator.writeStringField("changelogManifestList", snapshot.changelogManifestList().orElse(null));
        writeOptionalLong(generator, "changelogManifestListSize", snapshot.changelogManifestListSize());
        if (snapshot.indexManifest().isPresent()) {
            generator.writeStringField("indexManifest", snapshot.indexManifest().get());
        }
        generator.writeStringField("commitUser", snapshot.commitUser());
        generator.writeNumberField("commitIdentifier", snapshot.commitIdentifier());
        generator.writeStringField("commitKind", snapshot.commitKind().name());
        generator.writeNumberField("timeMillis", snapshot.timeMillis());
        if (snapshot.logOffsets().isPresent()) {
            generator.writeObjectFieldStart("logOffsets");
            for (Map.Entry<Integer, Long> entry : snapshot.logOffsets().get().entrySet()) {
                generator.writeNumberField(String.valueOf(entry.getKey()), entry.getValue());
            }
            generator.writeEndObject();
        }
        // Paimon always writes these two, as null when unknown
        writeNullableLong(generator, "totalRecordCount", snapshot.totalRecordCount());
        writeNullableLong(generator, "deltaRecordCount", snapshot.deltaRecordCount());
        writeOptionalLong(generator, "changelogRecordCount", snapshot.changelogRecordCount());
        writeOptionalLong(generator, "watermark", snapshot.watermark());
        if (snapshot.statistics().isPresent()) {
            generator.writeStringField("statistics", snapshot.statistics().get());
        }
        if (snapshot.properties().isPresent()) {
            generator.writeObjectFieldStart("properties");
            for (Map.Entry<String, String> entry : snapshot.properties().get().entrySet()) {
                generator.writeStringField(entry.getKey(), entry.getValue());
            }
            generator.writeEndObject();
        }
        writeOptionalLong(generator, "nextRowId", snapshot.nextRowId());
    }

    private static void writeNullableLong(JsonGenerator generator, String key, Optional<Long> value)
            throws IOException
    {
        generator.writeFieldName(key);
        if (value.isPresent()) {
            generator.writeNumber(value.get());
        }
        else {
            generator.writeNull();
        }
    }

    private static void writeOptionalLong(JsonGenerator generator, String key, Optional<Long> value)
            throws IOException
    {
        if (value.isPresent()) {
            generator.writeNumberField(key, value.get());
        }
    }
}
