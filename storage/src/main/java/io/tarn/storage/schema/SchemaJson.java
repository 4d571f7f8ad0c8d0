package io.tarn.storage.schema;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import io.tarn.storage.CorruptFileException;
import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.snapshot.MetadataJson;
import io.tarn.types.ArrayType;
import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.MapType;
import io.tarn.types.MultisetType;
import io.tarn.types.RowType;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.tarn.storage.snapshot.MetadataJson.optionalLong;
import static io.tarn.storage.snapshot.MetadataJson.optionalStringMap;
import static io.tarn.storage.snapshot.MetadataJson.optionalText;
import static io.tarn.storage.snapshot.MetadataJson.required;
import static io.tarn.storage.snapshot.MetadataJson.requiredInt;
import static io.tarn.storage.snapshot.MetadataJson.requiredLong;
import static io.tarn.storage.snapshot.MetadataJson.toInt;
import static io.tarn.storage.snapshot.MetadataJson.toText;

/**
 * The JSON form of a {@link TableSchema} (format spec section 2). Atomic types are SQL strings
 * ({@code "DECIMAL(10, 2) NOT NULL"}); ARRAY, MULTISET, MAP and ROW are objects whose {@code type}
 * is the word with an optional {@code " NOT NULL"}. Keys are written in Paimon's order; unknown
 * keys are ignored on read.
 */
public final class SchemaJson
{
    private SchemaJson() {}

    public static TableSchema parse(byte[] json, String fileName)
            throws CorruptFileException, UnsupportedTableFeatureException
    {
        JsonNode root = MetadataJson.readObject(json, fileName);
        int version = MetadataJson.optionalInt(root, "version", fileName).orElse(1);
        long id = requiredLong(root, "id", fileName);
        List<DataField> fields = parseFields(required(root, "fields", fileName), "fields", fileName);
        int highestFieldId = requiredInt(root, "highestFieldId", fileName);
        List<String> partitionKeys = parseStrings(required(root, "partitionKeys", fileName), "partitionKeys", fileName);
        List<String> primaryKeys = parseStrings(required(root, "primaryKeys", fileName), "primaryKeys", fileName);
        Map<String, String> options = new LinkedHashMap<>(optionalStringMap(root, "options", fileName)
                .orElseThrow(() -> new CorruptFileException("File %s is missing required key 'options'".formatted(fileName))));
        Optional<String> comment = optionalText(root, "comment", fileName);
        long timeMillis = optionalLong(root, "timeMillis", fileName).orElse(0L);

        // Older writers relied on other defaults; Paimon fills them in the same way on read.
        if (version <= 1) {
            options.putIfAbsent(TableSchema.BUCKET_OPTION, "1");
        }
        if (version <= 2) {
            options.putIfAbsent(TableSchema.FILE_FORMAT_OPTION, "orc");
        }

        List<String> fieldNames = fields.stream().map(DataField::name).toList();
        if (fieldNames.stream().distinct().count() != fieldNames.size()) {
            throw new CorruptFileException("File %s has duplicate column names: %s".formatted(fileName, fieldNames));
        }
        for (String key : partitionKeys) {
            if (!fieldNames.contains(key)) {
                throw new CorruptFileException("Partition key '%s' in file %s is not a column".formatted(key, fileName));
            }
        }
        for (String key : primaryKeys) {
            if (!fieldNames.contains(key)) {
                throw new CorruptFileException("Primary key '%s' in file %s is not a column".formatted(key, fileName));
            }
        }
        return new TableSchema(version, id, fields, highestFieldId, partitionKeys, primaryKeys, options, comment, timeMillis);
    }

    /**
     * Parses one type as it appears under a {@code type} key: a JSON string or object.
     */
    public static DataType parseType(JsonNode node, String key, String fileName)
            throws CorruptFileException, UnsupportedTableFeatureException
    {
        if (node.isTextual()) {
            try {
                return AtomicTypeParser.parse(node.textValue());
            }
            catch (AtomicTypeParser.UnsupportedTypeException e) {
                throw new UnsupportedTableFeatureException("Key '%s' of file %s: %s".formatted(key, fileName, e.getMessage()), e);
            }
            catch (IllegalArgumentException e) {
                throw new CorruptFileException("Key '%s' of file %s has an invalid type: %s".formatted(key, fileName, e.getMessage()), e);
            }
        }
        if (!node.isObject()) {
            throw new CorruptFileException("Key '%s' of file %s is not a type: %s".formatted(key, fileName, MetadataJson.abbreviate(node)));
        }
        String typeText = toText(requiredIn(node, "type", key, fileName), key + ".type", fileName).trim();
        boolean nullable = true;
        String word = typeText;
        if (typeText.endsWith(" NOT NULL")) {
            nullable = false;
            word = typeText.substring(0, typeText.length() - " NOT NULL".length()).trim();
        }
        return switch (word) {
            case "ARRAY" -> new ArrayType(parseType(requiredIn(node, "element", key, fileName), key + ".element", fileName), nullable);
            case "MULTISET" -> new MultisetType(parseType(requiredIn(node, "element", key, fileName), key + ".element", fileName), nullable);
            case "MAP" -> new MapType(
                    parseType(requiredIn(node, "key", key, fileName), key + ".key", fileName),
                    parseType(requiredIn(node, "value", key, fileName), key + ".value", fileName),
                    nullable);
            case "ROW" -> new RowType(parseFields(requiredIn(node, "fields", key, fileName), key + ".fields", fileName), nullable);
            case "VECTOR" -> throw new UnsupportedTableFeatureException("Key '%s' of file %s: type VECTOR is not supported".formatted(key, fileName));
            default -> throw new CorruptFileException("Key '%s' of file %s has an unknown composite type '%s'".formatted(key, fileName, typeText));
        };
    }

    private static List<DataField> parseFields(JsonNode node, String key, String fileName)
            throws CorruptFileException, UnsupportedTableFeatureException
    {
        if (!node.isArray()) {
            throw new CorruptFileException("Key '%s' of file %s is not an array".formatted(key, fileName));
        }
        List<DataField> fields = new ArrayList<>(node.size());
        for (int i = 0; i < node.size(); i++) {
            JsonNode field = node.get(i);
            String fieldKey = key + "[" + i + "]";
            if (!field.isObject()) {
                throw new CorruptFileException("Key '%s' of file %s is not an object".formatted(fieldKey, fileName));
            }
            int id = toInt(requiredIn(field, "id", fieldKey, fileName), fieldKey + ".id", fileName);
            String name = toText(requiredIn(field, "name", fieldKey, fileName), fieldKey + ".name", fileName);
            DataType type = parseType(requiredIn(field, "type", fieldKey, fileName), fieldKey + ".type", fileName);
            Optional<String> description = optionalText(field, "description", fileName);
            Optional<String> defaultValue = optionalText(field, "defaultValue", fileName);
            fields.add(new DataField(id, name, type, description, defaultValue));
        }
        return fields;
    }

    private static JsonNode requiredIn(JsonNode object, String key, String parentKey, String fileName)
            throws CorruptFileException
    {
        JsonNode value = object.get(key);
        if (value == null || value.isNull()) {
            throw new CorruptFileException("File %s is missing required key '%s.%s'".formatted(fileName, parentKey, key));
        }
        return value;
    }

    private static List<String> parseStrings(JsonNode node, String key, String fileName)
            throws CorruptFileException
    {
        if (!node.isArray()) {
            throw new CorruptFileException("Key '%s' of file %s is not an array".formatted(key, fileName));
        }
        List<String> values = new ArrayList<>(node.size());
        for (int i = 0; i < node.size(); i++) {
            values.add(toText(node.get(i), key + "[" + i + "]", fileName));
        }
        return values;
    }

    public static String toJson(TableSchema schema)
    {
        return MetadataJson.write(generator -> {
            generator.writeStartObject();
            generator.writeNumberField("version", schema.version());
            generator.writeNumberField("id", schema.id());
            generator.writeFieldName("fields");
            writeFields(generator, schema.fields());
            generator.writeNumberField("highestFieldId", schema.highestFieldId());
            writeStrings(generator, "partitionKeys", schema.partitionKeys());
            writeStrings(generator, "primaryKeys", schema.primaryKeys());
            generator.writeObjectFieldStart("options");
            for (Map.Entry<String, String> option : schema.options().entrySet()) {
                generator.writeStringField(option.getKey(), option.getValue());
            }
            generator.writeEndObject();
            if (schema.comment().isPresent()) {
                generator.writeStringField("comment", schema.comment().get());
            }
            generator.writeNumberField("timeMillis", schema.timeMillis());
            generator.writeEndObject();
        });
    }

    public static byte[] toJsonBytes(TableSchema schema)
    {
        return toJson(schema).getBytes(StandardCharsets.UTF_8);
    }

    private static void writeStrings(JsonGenerator generator, String key, List<String> values)
            throws IOException
    {
        generator.writeArrayFieldStart(key);
        for (String value : values) {
            generator.writeString(value);
        }
        generator.writeEndArray();
    }

    private static void writeFields(JsonGenerator generator, List<DataField> fields)
            throws IOException
    {
        generator.writeStartArray();
        for (DataField field : fields) {
            generator.writeStartObject();
            generator.writeNumberField("id", field.id());
            generator.writeStringField("name", field.name());
            generator.writeFieldName("type");
            writeType(generator, field.type());
            if (field.description().isPresent()) {
                generator.writeStringField("description", field.description().get());
            }
            if (field.defaultValue().isPresent()) {
                generator.writeStringField("defaultValue", field.defaultValue().get());
            }
            generator.writeEndObject();
        }
        generator.writeEndArray();
    }

    private static void writeType(JsonGenerator generator, DataType type)
            throws IOException
    {
        if (type instanceof AtomicType atomic) {
            generator.writeString(atomic.asSqlString());
            return;
        }
        String suffix = type.nullable() ? "" : " NOT NULL";
        generator.writeStartObject();
        if (type instanceof ArrayType array) {
            generator.writeStringField("type", "ARRAY" + suffix);
            generator.writeFieldName("element");
            writeType(generator, array.element());
        }
        else if (type instanceof MultisetType multiset) {
            generator.writeStringField("type", "MULTISET" + suffix);
            generator.writeFieldName("element");
            writeType(generator, multiset.element());
        }
        else if (type instanceof MapType map) {
            generator.writeStringField("type", "MAP" + suffix);
            generator.writeFieldName("key");
            writeType(generator, map.key());
            generator.writeFieldName("value");
            writeType(generator, map.value());
        }
        else if (type instanceof RowType row) {
            generator.writeStringField("type", "ROW" + suffix);
            generator.writeFieldName("fields");
            writeFields(generator, row.fields());
        }
        else {
            throw new IllegalArgumentException("Unexpected type: " + type);
        }
        generator.writeEndObject();
    }
}
