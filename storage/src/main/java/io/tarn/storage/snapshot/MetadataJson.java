package io.tarn.storage.snapshot;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tarn.storage.CorruptFileException;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Reading and writing of Paimon's JSON metadata files (schemas, snapshots, tags). Reading treats
 * the bytes as untrusted: every failure is a {@link CorruptFileException} naming the file and the
 * key. Writing uses Jackson's default pretty printer (two-space indent, {@code " : "}), as Paimon
 * does, so that files Tarn writes diff cleanly against files Paimon writes.
 */
public final class MetadataJson
{
    // a file with anything after its object was not written by Paimon or Tarn
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    private static final JsonFactory FACTORY = new JsonFactory();

    private MetadataJson() {}

    /**
     * Writes one JSON document to a string.
     */
    public interface Writer
    {
        void write(JsonGenerator generator)
                throws IOException;
    }

    public static String write(Writer writer)
    {
        StringWriter output = new StringWriter();
        try (JsonGenerator generator = FACTORY.createGenerator(output)) {
            generator.useDefaultPrettyPrinter();
            writer.write(generator);
        }
        catch (IOException e) {
            // a StringWriter does not fail
            throw new UncheckedIOException(e);
        }
        return output.toString();
    }

    public static JsonNode readObject(byte[] json, String fileName)
            throws CorruptFileException
    {
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        }
        catch (JsonProcessingException e) {
            throw new CorruptFileException("File %s is not valid JSON: %s".formatted(fileName, e.getOriginalMessage()), e);
        }
        catch (IOException e) {
            throw new CorruptFileException("File %s cannot be parsed as JSON".formatted(fileName), e);
        }
        if (root == null || !root.isObject()) {
            throw new CorruptFileException("File %s does not hold a JSON object".formatted(fileName));
        }
        return root;
    }

    public static JsonNode required(JsonNode object, String key, String fileName)
            throws CorruptFileException
    {
        JsonNode value = object.get(key);
        if (value == null || value.isNull()) {
            throw new CorruptFileException("File %s is missing required key '%s'".formatted(fileName, key));
        }
        return value;
    }

    public static long requiredLong(JsonNode object, String key, String fileName)
            throws CorruptFileException
    {
        return toLong(required(object, key, fileName), key, fileName);
    }

    public static int requiredInt(JsonNode object, String key, String fileName)
            throws CorruptFileException
    {
        return toInt(required(object, key, fileName), key, fileName);
    }

    public static String requiredText(JsonNode object, String key, String fileName)
            throws CorruptFileException
    {
        return toText(required(object, key, fileName), key, fileName);
    }

    public static Optional<Long> optionalLong(JsonNode object, String key, String fileName)
            throws CorruptFileException
    {
        JsonNode value = object.get(key);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        return Optional.of(toLong(value, key, fileName));
    }

    public static Optional<Integer> optionalInt(JsonNode object, String key, String fileName)
            throws CorruptFileException
    {
        JsonNode value = object.get(key);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        return Optional.of(toInt(value, key, fileName));
    }

    public static Optional<String> optionalText(JsonNode object, String key, String fileName)
            throws CorruptFileException
    {
        JsonNode value = object.get(key);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        return Optional.of(toText(value, key, fileName));
    }

    /**
     * A JSON object of string values, in file order; absent or null gives an empty optional.
     */
    public static Optional<Map<String, String>> optionalStringMap(JsonNode object, String key, String fileName)
            throws CorruptFileException
    {
        JsonNode value = object.get(key);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isObject()) {
            throw new CorruptFileException("Key '%s' of file %s is not a JSON object".formatted(key, fileName));
        }
        Map<String, String> result = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> entries = value.fields();
        while (entries.hasNext()) {
            Map.Entry<String, JsonNode> entry = entries.next();
            JsonNode entryValue = entry.getValue();
            if (!entryValue.isValueNode() || entryValue.isNull()) {
                throw new CorruptFileException("Entry '%s' of key '%s' in file %s is not a string".formatted(entry.getKey(), key, fileName));
            }
            result.put(entry.getKey(), entryValue.asText());
        }
        return Optional.of(result);
    }

    public static long toLong(JsonNode value, String key, String fileName)
            throws CorruptFileException
    {
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            throw new CorruptFileException("Key '%s' of file %s is not a 64-bit integer: %s".formatted(key, fileName, abbreviate(value)));
        }
        return value.longValue();
    }

    public static int toInt(JsonNode value, String key, String fileName)
            throws CorruptFileException
    {
        if (!value.isIntegralNumber() || !value.canConvertToInt()) {
            throw new CorruptFileException("Key '%s' of file %s is not a 32-bit integer: %s".formatted(key, fileName, abbreviate(value)));
        }
        return value.intValue();
    }

    public static String toText(JsonNode value, String key, String fileName)
            throws CorruptFileException
    {
        if (!value.isTextual()) {
            throw new CorruptFileException("Key '%s' of file %s is not a string: %s".formatted(key, fileName, abbreviate(value)));
        }
        return value.textValue();
    }

    public static String abbreviate(JsonNode value)
    {
        String text = value.toString();
        return text.length() > 100 ? text.substring(0, 100) + "..." : text;
    }
}
