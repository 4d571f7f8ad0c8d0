package io.tarn.storage.manifest;

import io.tarn.storage.CorruptFileException;
import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.binary.BinaryRow;
import io.tarn.storage.binary.SimpleStats;
import org.apache.avro.Schema;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

import static io.tarn.storage.manifest.AvroFields.simpleStatsValue;
import static io.tarn.storage.manifest.AvroFields.strings;
import static io.tarn.storage.manifest.AvroFields.toBytes;
import static io.tarn.storage.manifest.AvroFields.toInt;
import static io.tarn.storage.manifest.AvroFields.toList;
import static io.tarn.storage.manifest.AvroFields.toLong;
import static io.tarn.storage.manifest.AvroFields.toText;
import static java.util.Objects.requireNonNull;

/**
 * Decodes manifest rows straight into {@link ManifestEntry}s by a plan made once from the file's
 * writer schema: each writer field is matched by name to the field it fills, or skipped when
 * unknown, so every Paimon layout reads alike (missing fields are absent). A value of the
 * expected Avro type is read directly; any other type is decoded by Avro's generic reader and
 * converted as {@link AvroFields} does, which rejects it with the same message. With a
 * {@link ManifestEntryFilter}, the data file of an entry the filter refuses is skipped, not built.
 * <p>
 * Kept rather than reading rows with Avro's generic reader and converting them: on the planning
 * benchmark's table (103 manifests, 27,700 entries) it decoded them about twice as fast (median
 * 47 against 99 ms for all entries, 37 against 65 ms with a filter keeping one in a hundred, 35
 * against 66 ms with a level filter refusing all; one interleaved run on a shared 2-core machine).
 */
final class ManifestEntryDecoder
        implements AvroBlocks.BlockReader
{
    private static final String WHAT = "Manifest file";

    // top-level fields
    private static final int VERSION = 0;
    private static final int KIND = 1;
    private static final int PARTITION = 2;
    private static final int BUCKET = 3;
    private static final int TOTAL_BUCKETS = 4;
    private static final int FILE = 5;
    private static final List<String> ENTRY_FIELDS = List.of("_VERSION", "_KIND", "_PARTITION", "_BUCKET", "_TOTAL_BUCKETS", "_FILE");

    // _FILE fields
    private static final int FILE_NAME = 0;
    private static final int FILE_SIZE = 1;
    private static final int ROW_COUNT = 2;
    private static final int MIN_KEY = 3;
    private static final int MAX_KEY = 4;
    private static final int KEY_STATS = 5;
    private static final int VALUE_STATS = 6;
    private static final int MIN_SEQUENCE_NUMBER = 7;
    private static final int MAX_SEQUENCE_NUMBER = 8;
    private static final int SCHEMA_ID = 9;
    private static final int LEVEL = 10;
    private static final int EXTRA_FILES = 11;
    private static final int CREATION_TIME = 12;
    private static final int DELETE_ROW_COUNT = 13;
    private static final int EMBEDDED_FILE_INDEX = 14;
    private static final int FILE_SOURCE = 15;
    private static final int VALUE_STATS_COLS = 16;
    private static final int EXTERNAL_PATH = 17;
    private static final int FIRST_ROW_ID = 18;
    private static final int WRITE_COLS = 19;
    private static final List<String> FILE_FIELDS = List.of(
            "_FILE_NAME", "_FILE_SIZE", "_ROW_COUNT", "_MIN_KEY", "_MAX_KEY", "_KEY_STATS", "_VALUE_STATS", "_MIN_SEQUENCE_NUMBER",
            "_MAX_SEQUENCE_NUMBER", "_SCHEMA_ID", "_LEVEL", "_EXTRA_FILES", "_CREATION_TIME", "_DELETE_ROW_COUNT", "_EMBEDDED_FILE_INDEX",
            "_FILE_SOURCE", "_VALUE_STATS_COLS", "_EXTERNAL_PATH", "_FIRST_ROW_ID", "_WRITE_COLS");

    // _KEY_STATS / _VALUE_STATS fields
    private static final int MIN_VALUES = 0;
    private static final int MAX_VALUES = 1;
    private static final int NULL_COUNTS = 2;
    private static final List<String> STATS_FIELDS = List.of("_MIN_VALUES", "_MAX_VALUES", "_NULL_COUNTS");

    private final String fileName;
    private final ManifestEntryFilter filter;
    private final List<ManifestEntry> entries;
    private final Layout entryLayout;
    // the entry can be filtered before _FILE: every field the filter sees comes first, _FILE is a plain record
    private final boolean filterBeforeFile;
    private final Map<Schema, FileDecoder> fileDecoders = new IdentityHashMap<>();
    private final Map<Schema, Layout> statsLayouts = new IdentityHashMap<>();

    // the value a read... method read, and whether it was present (not null)
    private boolean present;

    // interned values: consecutive entries mostly share them
    private final RowCache partitionCache = new RowCache();
    private final RowCache minKeyCache = new RowCache();
    private final RowCache maxKeyCache = new RowCache();
    private final StatsCache keyStatsCache = new StatsCache();
    private final StatsCache valueStatsCache = new StatsCache();
    private List<String> lastStatsColumns;
    private Long[] nullCountsScratch = new Long[16];

    /**
     * @param filter null to decode every entry
     */
    ManifestEntryDecoder(Schema writerSchema, String fileName, ManifestEntryFilter filter, List<ManifestEntry> entries)
    {
        this.fileName = requireNonNull(fileName, "fileName is null");
        this.filter = filter;
        this.entries = requireNonNull(entries, "entries is null");
        this.entryLayout = new Layout(writerSchema, ENTRY_FIELDS);
        int filePosition = entryLayout.position(FILE);
        boolean beforeFile = filePosition >= 0 && entryLayout.schemas[filePosition].getType() == Schema.Type.RECORD;
        for (int slot = VERSION; slot <= TOTAL_BUCKETS; slot++) {
            int position = entryLayout.position(slot);
            beforeFile &= position >= 0 && position < filePosition;
        }
        this.filterBeforeFile = beforeFile;
    }

    @Override
    public void read(byte[] bytes, int offset, int length, long count, long firstIndex)
            throws IOException
    {
        AvroCursor cursor = new AvroCursor(bytes, offset, offset + length);
        for (long i = 0; i < count; i++) {
            decode(cursor, firstIndex + i);
        }
        if (cursor.remaining() != 0) {
            throw new CorruptFileException(cursor.remaining() + " undecoded bytes at the end of a block");
        }
    }

    private void decode(AvroCursor cursor, long index)
            throws IOException
    {
        try {
            decodeEntry(cursor);
        }
        catch (IllegalArgumentException e) {
            throw new AvroBlocks.InvalidRowException(new CorruptFileException(
                    WHAT + " " + fileName + " has an invalid row " + index + ": " + e.getMessage(), e));
        }
    }

    private void decodeEntry(AvroCursor cursor)
            throws IOException
    {
        int version = 0;
        boolean hasVersion = false;
        int kindValue = 0;
        boolean hasKind = false;
        BinaryRow partition = null;
        int bucket = 0;
        boolean hasBucket = false;
        int totalBuckets = 0;
        boolean hasTotalBuckets = false;
        DataFileMeta file = null;
        FileKind kind = null;

        Schema[] schemas = entryLayout.schemas;
        int[] slots = entryLayout.slots;
        for (int i = 0; i < schemas.length; i++) {
            Schema schema = schemas[i];
            switch (slots[i]) {
                case VERSION -> {
                    version = readInt(schema, cursor, "_VERSION");
                    hasVersion = present;
                }
                case KIND -> {
                    kindValue = readInt(schema, cursor, "_KIND");
                    hasKind = present;
                }
                case PARTITION -> partition = readRow(schema, cursor, "_PARTITION", partitionCache);
                case BUCKET -> {
                    bucket = readInt(schema, cursor, "_BUCKET");
                    hasBucket = present;
                }
                case TOTAL_BUCKETS -> {
                    totalBuckets = readInt(schema, cursor, "_TOTAL_BUCKETS");
                    hasTotalBuckets = present;
                }
                case FILE -> {
                    if (filter != null && filterBeforeFile) {
                        kind = checkEntry(hasVersion, version, hasKind, kindValue, partition, hasBucket, hasTotalBuckets);
                        FileDecoder fileDecoder = fileDecoder(schema);
                        if (!filter.test(kind, partition, bucket, totalBuckets)) {
                            cursor.skip(schema);
                            skipFrom(i + 1, cursor);
                            return;
                        }
                        if (filter.testsLevel() && fileDecoder.levelReadable) {
                            int start = cursor.position();
                            int level = fileDecoder.skipToLevel(cursor);
                            if (!filter.testLevel(kind, level)) {
                                fileDecoder.skipAfterLevel(cursor);
                                skipFrom(i + 1, cursor);
                                return;
                            }
                            cursor.rewind(start);
                        }
                    }
                    file = readFile(schema, cursor);
                }
                default -> cursor.skip(schema);
            }
        }
        boolean filtered = kind != null;
        if (kind == null) {
            kind = checkEntry(hasVersion, version, hasKind, kindValue, partition, hasBucket, hasTotalBuckets);
        }
        if (file == null) {
            throw new IllegalArgumentException("Required field _FILE is missing or null");
        }
        if (filter != null && !filtered) {
            if (!filter.test(kind, partition, bucket, totalBuckets) || (filter.testsLevel() && !filter.testLevel(kind, file.level()))) {
                return;
            }
        }
        entries.add(new ManifestEntry(kind, partition, bucket, totalBuckets, file));
    }

    /** The checks of the fields before _FILE, in the order the generic reader made them. */
    private FileKind checkEntry(boolean hasVersion, int version, boolean hasKind, int kindValue, BinaryRow partition, boolean hasBucket, boolean hasTotalBuckets)
            throws UnsupportedTableFeatureException
    {
        if (!hasVersion) {
            throw missing("_VERSION");
        }
        if (version != ManifestSchemas.MANIFEST_VERSION) {
            throw new UnsupportedTableFeatureException(WHAT + " " + fileName + " has rows of version " + version
                    + "; only version " + ManifestSchemas.MANIFEST_VERSION + " is supported");
        }
        if (!hasKind) {
            throw missing("_KIND");
        }
        FileKind kind = FileKind.fromByteValue(kindValue);
        if (partition == null) {
            throw new IllegalArgumentException("Field _PARTITION is not a valid BinaryRow: Required field _PARTITION is missing or null");
        }
        if (!hasBucket) {
            throw missing("_BUCKET");
        }
        if (!hasTotalBuckets) {
            throw missing("_TOTAL_BUCKETS");
        }
        return kind;
    }

    private void skipFrom(int position, AvroCursor cursor)
            throws IOException
    {
        Schema[] schemas = entryLayout.schemas;
        for (int i = position; i < schemas.length; i++) {
            cursor.skip(schemas[i]);
        }
    }

    /**
     * Reads a BinaryRow field; when its bytes equal the previous value read through
     * {@code cache}, returns that instance (rows are immutable) without copying.
     */
    private static BinaryRow readRow(Schema schema, AvroCursor cursor, String name, RowCache cache)
            throws IOException
    {
        if (schema.getType() != Schema.Type.BYTES) {
            return readRow(schema, cursor, name);
        }
        int length = cursor.readLength();
        int start = cursor.skipFixed(length);
        byte[] bytes = cursor.array();
        if (cache.serialized != null && Arrays.equals(bytes, start, start + length, cache.serialized, 0, cache.serialized.length)) {
            return cache.row;
        }
        byte[] serialized = Arrays.copyOfRange(bytes, start, start + length);
        BinaryRow row = row(serialized, name);
        cache.serialized = serialized;
        cache.row = row;
        return row;
    }

    /** The last row read from one field. */
    private static final class RowCache
    {
        byte[] serialized;
        BinaryRow row;
    }

    /** The last statistics read from one field. */
    private static final class StatsCache
    {
        final RowCache min = new RowCache();
        final RowCache max = new RowCache();
        SimpleStats stats;
    }

    private FileDecoder fileDecoder(Schema recordSchema)
    {
        return fileDecoders.computeIfAbsent(recordSchema, FileDecoder::new);
    }

    private DataFileMeta readFile(Schema schema, AvroCursor cursor)
            throws IOException
    {
        if (schema.getType() == Schema.Type.UNION) {
            schema = cursor.readUnionBranch(schema);
        }
        if (schema.getType() == Schema.Type.NULL) {
            return null;
        }
        if (schema.getType() != Schema.Type.RECORD) {
            cursor.decode(schema);
            throw new IllegalArgumentException("Field _FILE is not a record");
        }
        return fileDecoder(schema).decode(cursor);
    }

    /** The plan of one record schema: for each writer field, its schema and the slot it fills (-1 to skip). */
    private static final class Layout
    {
        final Schema[] schemas;
        final int[] slots;

        Layout(Schema record, List<String> known)
        {
            List<Schema.Field> fields = record.getFields();
            schemas = new Schema[fields.size()];
            slots = new int[fields.size()];
            for (int i = 0; i < fields.size(); i++) {
                schemas[i] = fields.get(i).schema();
                slots[i] = known.indexOf(fields.get(i).name());
            }
        }

        int position(int slot)
        {
            for (int i = 0; i < slots.length; i++) {
                if (slots[i] == slot) {
                    return i;
                }
            }
            return -1;
        }
    }

    private final class FileDecoder
    {
        private final Layout layout;
        private final int levelPosition;
        // _LEVEL is a plain int, so it can be read ahead of the rest of the record
        private final boolean levelReadable;

        FileDecoder(Schema record)
        {
            layout = new Layout(record, FILE_FIELDS);
            levelPosition = layout.position(LEVEL);
            levelReadable = levelPosition >= 0 && layout.schemas[levelPosition].getType() == Schema.Type.INT;
        }

        int skipToLevel(AvroCursor cursor)
                throws IOException
        {
            for (int i = 0; i < levelPosition; i++) {
                cursor.skip(layout.schemas[i]);
            }
            return cursor.readInt();
        }

        void skipAfterLevel(AvroCursor cursor)
                throws IOException
        {
            for (int i = levelPosition + 1; i < layout.schemas.length; i++) {
                cursor.skip(layout.schemas[i]);
            }
        }

        DataFileMeta decode(AvroCursor cursor)
                throws IOException
        {
            String name = null;
            long fileSize = 0;
            boolean hasFileSize = false;
            long rowCount = 0;
            boolean hasRowCount = false;
            BinaryRow minKey = null;
            BinaryRow maxKey = null;
            SimpleStats keyStats = null;
            SimpleStats valueStats = null;
            long minSequenceNumber = 0;
            boolean hasMinSequenceNumber = false;
            long maxSequenceNumber = 0;
            boolean hasMaxSequenceNumber = false;
            long schemaId = 0;
            boolean hasSchemaId = false;
            int level = 0;
            boolean hasLevel = false;
            List<String> extraFiles = null;
            OptionalLong creationTime = OptionalLong.empty();
            OptionalLong deleteRowCount = OptionalLong.empty();
            byte[] embeddedIndex = null;
            OptionalInt fileSource = OptionalInt.empty();
            List<String> valueStatsCols = null;
            String externalPath = null;
            OptionalLong firstRowId = OptionalLong.empty();
            List<String> writeCols = null;

            Schema[] schemas = layout.schemas;
            int[] slots = layout.slots;
            for (int i = 0; i < schemas.length; i++) {
                Schema schema = schemas[i];
                switch (slots[i]) {
                    case FILE_NAME -> name = readString(schema, cursor, "_FILE_NAME");
                    case FILE_SIZE -> {
                        fileSize = readLong(schema, cursor, "_FILE_SIZE");
                        hasFileSize = present;
                    }
                    case ROW_COUNT -> {
                        rowCount = readLong(schema, cursor, "_ROW_COUNT");
                        hasRowCount = present;
                    }
                    case MIN_KEY -> minKey = readRow(schema, cursor, "_MIN_KEY", minKeyCache);
                    case MAX_KEY -> maxKey = readRow(schema, cursor, "_MAX_KEY", maxKeyCache);
                    case KEY_STATS -> keyStats = readStats(schema, cursor, "_KEY_STATS", keyStatsCache);
                    case VALUE_STATS -> valueStats = readStats(schema, cursor, "_VALUE_STATS", valueStatsCache);
                    case MIN_SEQUENCE_NUMBER -> {
                        minSequenceNumber = readLong(schema, cursor, "_MIN_SEQUENCE_NUMBER");
                        hasMinSequenceNumber = present;
                    }
                    case MAX_SEQUENCE_NUMBER -> {
                        maxSequenceNumber = readLong(schema, cursor, "_MAX_SEQUENCE_NUMBER");
                        hasMaxSequenceNumber = present;
                    }
                    case SCHEMA_ID -> {
                        schemaId = readLong(schema, cursor, "_SCHEMA_ID");
                        hasSchemaId = present;
                    }
                    case LEVEL -> {
                        level = readInt(schema, cursor, "_LEVEL");
                        hasLevel = present;
                    }
                    case EXTRA_FILES -> extraFiles = readStrings(schema, cursor, "_EXTRA_FILES");
                    case CREATION_TIME -> {
                        long value = readLong(schema, cursor, "_CREATION_TIME");
                        creationTime = present ? OptionalLong.of(value) : OptionalLong.empty();
                    }
                    case DELETE_ROW_COUNT -> {
                        long value = readLong(schema, cursor, "_DELETE_ROW_COUNT");
                        deleteRowCount = present ? OptionalLong.of(value) : OptionalLong.empty();
                    }
                    case EMBEDDED_FILE_INDEX -> embeddedIndex = readBytes(schema, cursor, "_EMBEDDED_FILE_INDEX");
                    case FILE_SOURCE -> {
                        int value = readInt(schema, cursor, "_FILE_SOURCE");
                        fileSource = present ? OptionalInt.of(value) : OptionalInt.empty();
                    }
                    case VALUE_STATS_COLS -> valueStatsCols = internColumns(readStrings(schema, cursor, "_VALUE_STATS_COLS"));
                    case EXTERNAL_PATH -> externalPath = readString(schema, cursor, "_EXTERNAL_PATH");
                    case FIRST_ROW_ID -> {
                        long value = readLong(schema, cursor, "_FIRST_ROW_ID");
                        firstRowId = present ? OptionalLong.of(value) : OptionalLong.empty();
                    }
                    case WRITE_COLS -> writeCols = readStrings(schema, cursor, "_WRITE_COLS");
                    default -> cursor.skip(schema);
                }
            }
            // required fields, checked in the order the generic reader checked them
            if (name == null) {
                throw missing("_FILE_NAME");
            }
            if (!hasFileSize) {
                throw missing("_FILE_SIZE");
            }
            if (!hasRowCount) {
                throw missing("_ROW_COUNT");
            }
            if (minKey == null) {
                throw missingRow("_MIN_KEY");
            }
            if (maxKey == null) {
                throw missingRow("_MAX_KEY");
            }
            if (keyStats == null) {
                throw missing("_KEY_STATS");
            }
            if (valueStats == null) {
                throw missing("_VALUE_STATS");
            }
            if (!hasMinSequenceNumber) {
                throw missing("_MIN_SEQUENCE_NUMBER");
            }
            if (!hasMaxSequenceNumber) {
                throw missing("_MAX_SEQUENCE_NUMBER");
            }
            if (!hasSchemaId) {
                throw missing("_SCHEMA_ID");
            }
            if (!hasLevel) {
                throw missing("_LEVEL");
            }
            if (extraFiles == null) {
                throw missing("_EXTRA_FILES");
            }
            return new DataFileMeta(name, fileSize, rowCount, minKey, maxKey, keyStats, valueStats, minSequenceNumber, maxSequenceNumber,
                    schemaId, level, extraFiles, creationTime, deleteRowCount, embeddedIndex, fileSource, Optional.ofNullable(valueStatsCols),
                    Optional.ofNullable(externalPath), firstRowId, Optional.ofNullable(writeCols));
        }
    }

    private List<String> internColumns(List<String> columns)
    {
        if (columns == null) {
            return null;
        }
        if (columns.equals(lastStatsColumns)) {
            return lastStatsColumns;
        }
        lastStatsColumns = columns;
        return columns;
    }

    private SimpleStats readStats(Schema schema, AvroCursor cursor, String name, StatsCache cache)
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
        Layout layout = statsLayouts.computeIfAbsent(schema, record -> new Layout(record, STATS_FIELDS));
        BinaryRow min = null;
        BinaryRow max = null;
        List<Long> nullCounts = List.of();
        for (int i = 0; i < layout.schemas.length; i++) {
            Schema field = layout.schemas[i];
            switch (layout.slots[i]) {
                case MIN_VALUES -> min = readRow(field, cursor, "_MIN_VALUES", cache.min);
                case MAX_VALUES -> max = readRow(field, cursor, "_MAX_VALUES", cache.max);
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
        SimpleStats last = cache.stats;
        if (last != null && last.minValues() == min && last.maxValues() == max && last.nullCounts().equals(nullCounts)) {
            // the key statistics of append tables, for one, are the same empty rows in every entry
            return last;
        }
        SimpleStats stats = new SimpleStats(min, max, nullCounts);
        cache.stats = stats;
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

    // Readers of one value of a field. Each sets present to false when the value is null.

    private int readInt(Schema schema, AvroCursor cursor, String name)
            throws IOException
    {
        present = true;
        if (schema.getType() == Schema.Type.UNION) {
            schema = cursor.readUnionBranch(schema);
        }
        return switch (schema.getType()) {
            case INT -> cursor.readInt();
            case NULL -> {
                present = false;
                yield 0;
            }
            default -> toInt(name, cursor.decode(schema));
        };
    }

    private long readLong(Schema schema, AvroCursor cursor, String name)
            throws IOException
    {
        present = true;
        if (schema.getType() == Schema.Type.UNION) {
            schema = cursor.readUnionBranch(schema);
        }
        return switch (schema.getType()) {
            case LONG -> cursor.readLong();
            case INT -> cursor.readInt();
            case NULL -> {
                present = false;
                yield 0;
            }
            default -> toLong(name, cursor.decode(schema));
        };
    }

    private static String readString(Schema schema, AvroCursor cursor, String name)
            throws IOException
    {
        if (schema.getType() == Schema.Type.UNION) {
            schema = cursor.readUnionBranch(schema);
        }
        return switch (schema.getType()) {
            case STRING -> cursor.readString();
            case NULL -> null;
            default -> toText(name, cursor.decode(schema));
        };
    }

    private static byte[] readBytes(Schema schema, AvroCursor cursor, String name)
            throws IOException
    {
        if (schema.getType() == Schema.Type.UNION) {
            schema = cursor.readUnionBranch(schema);
        }
        return switch (schema.getType()) {
            case BYTES -> cursor.readBytes();
            case NULL -> null;
            default -> toBytes(name, cursor.decode(schema));
        };
    }

    private static BinaryRow readRow(Schema schema, AvroCursor cursor, String name)
            throws IOException
    {
        try {
            byte[] bytes = readBytes(schema, cursor, name);
            return bytes == null ? null : row(bytes, name);
        }
        catch (IllegalArgumentException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("Field " + name + " is not a valid BinaryRow")) {
                throw e;
            }
            throw new IllegalArgumentException("Field " + name + " is not a valid BinaryRow: " + e.getMessage(), e);
        }
    }

    private static BinaryRow row(byte[] serialized, String name)
    {
        try {
            return BinaryRow.fromSerialized(serialized);
        }
        catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Field " + name + " is not a valid BinaryRow: " + e.getMessage(), e);
        }
    }

    private static List<String> readStrings(Schema schema, AvroCursor cursor, String name)
            throws IOException
    {
        if (schema.getType() == Schema.Type.UNION) {
            schema = cursor.readUnionBranch(schema);
        }
        if (schema.getType() == Schema.Type.NULL) {
            return null;
        }
        if (schema.getType() != Schema.Type.ARRAY || schema.getElementType().getType() != Schema.Type.STRING) {
            return strings(name, toList(name, cursor.decode(schema)));
        }
        List<String> values = null;
        for (long count = cursor.readBlockCount(); count != 0; count = cursor.readBlockCount()) {
            if (values == null) {
                values = new ArrayList<>((int) count);
            }
            for (long i = 0; i < count; i++) {
                values.add(cursor.readString());
            }
        }
        return values == null ? List.of() : List.copyOf(values);
    }

    private static IllegalArgumentException missing(String name)
    {
        return new IllegalArgumentException("Required field " + name + " is missing or null");
    }

    private static IllegalArgumentException missingRow(String name)
    {
        return new IllegalArgumentException("Field " + name + " is not a valid BinaryRow: Required field " + name + " is missing or null");
    }
}
