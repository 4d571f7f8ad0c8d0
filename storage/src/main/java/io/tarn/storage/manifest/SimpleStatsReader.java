package io.tarn.storage.manifest;

import io.tarn.storage.binary.BinaryRow;
import io.tarn.storage.binary.SimpleStats;
import org.apache.avro.Schema;

import java.io.IOException;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import static io.tarn.storage.manifest.AvroFields.simpleStatsValue;
import static io.tarn.storage.manifest.AvroFields.toList;
import static io.tarn.storage.manifest.AvroFields.toLong;
import static io.tarn.storage.manifest.FieldValueReader.missingRow;

/**
 * Reads the {@link SimpleStats} values of one statistics field ({@code _KEY_STATS} or
 * {@code _VALUE_STATS}), returning the previous instance when a value equals it.
 */
final class SimpleStatsReader
{
    // _KEY_STATS / _VALUE_STATS fields
    private static final int MIN_VALUES = 0;
    private static final int MAX_VALUES = 1;
    private static final int NULL_COUNTS = 2;
    private static final List<String> STATS_FIELDS = List.of("_MIN_VALUES", "_MAX_VALUES", "_NULL_COUNTS");

    private final Map<Schema, RecordLayout> layouts = new IdentityHashMap<>();
    private final InterningRowReader minValues = new InterningRowReader();
    private final InterningRowReader maxValues = new InterningRowReader();
    // the last statistics read
    private SimpleStats last;
    private Long[] nullCountsScratch = new Long[16];

    SimpleStats read(Schema schema, AvroCursor cursor, String name)
            throws IOException
    {
        if (schema.getType() == Schema.Type.UNION) {
            schema = cursor.readUnionBranch(schema);
        }
        if (schema.getType() == Schema.Type.NULL) {
            return null;
        }
        if (schema.getType() != Schema.Type.RECORD) {
            return simpleStatsValue(name, cursor.decode(schema));
        }
        RecordLayout layout = layouts.computeIfAbsent(schema, record -> new RecordLayout(record, STATS_FIELDS));
        BinaryRow min = null;
        BinaryRow max = null;
        List<Long> nullCounts = List.of();
        for (int i = 0; i < layout.schemas.length; i++) {
            Schema field = layout.schemas[i];
            switch (layout.slots[i]) {
                case MIN_VALUES -> min = minValues.read(field, cursor, "_MIN_VALUES");
                case MAX_VALUES -> max = maxValues.read(field, cursor, "_MAX_VALUES");
                case NULL_COUNTS -> nullCounts = readNullCounts(field, cursor, name + "._NULL_COUNTS");
                default -> cursor.skip(field);
            }
        }
        if (min == null) {
            throw missingRow("_MIN_VALUES");
        }
        if (max == null) {
            throw missingRow("_MAX_VALUES");
        }
        if (last != null && last.minValues() == min && last.maxValues() == max && last.nullCounts().equals(nullCounts)) {
            // the key statistics of append tables, for one, are the same empty rows in every entry
            return last;
        }
        SimpleStats stats = new SimpleStats(min, max, nullCounts);
        last = stats;
        return stats;
    }

    private List<Long> readNullCounts(Schema schema, AvroCursor cursor, String name)
            throws IOException
    {
        if (schema.getType() == Schema.Type.UNION) {
            schema = cursor.readUnionBranch(schema);
        }
        if (schema.getType() == Schema.Type.NULL) {
            return List.of();
        }
        if (schema.getType() != Schema.Type.ARRAY) {
            toList(name, cursor.decode(schema));
            throw new IllegalStateException("Unreachable: a non-array value was accepted as an array");
        }
        Schema element = schema.getElementType();
        Long[] counts = nullCountsScratch;
        int size = 0;
        for (long count = cursor.readBlockCount(); count != 0; count = cursor.readBlockCount()) {
            for (long i = 0; i < count; i++) {
                Schema item = element;
                if (item.getType() == Schema.Type.UNION) {
                    item = cursor.readUnionBranch(item);
                }
                Long value = switch (item.getType()) {
                    case NULL -> null;
                    // small counts come from Long's cache
                    case LONG -> cursor.readLong();
                    case INT -> (long) cursor.readInt();
                    default -> toLong(name, cursor.decode(item));
                };
                if (size == counts.length) {
                    counts = Arrays.copyOf(counts, size * 2);
                    nullCountsScratch = counts;
                }
                counts[size++] = value;
            }
        }
        return Arrays.asList(Arrays.copyOf(counts, size));
    }
}
