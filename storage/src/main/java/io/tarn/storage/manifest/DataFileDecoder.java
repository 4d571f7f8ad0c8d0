package io.tarn.storage.manifest;

import io.tarn.storage.binary.BinaryRow;
import io.tarn.storage.binary.SimpleStats;
import org.apache.avro.Schema;

import java.io.IOException;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

import static io.tarn.storage.manifest.FieldValueReader.missing;
import static io.tarn.storage.manifest.FieldValueReader.missingRow;
import static io.tarn.storage.manifest.FieldValueReader.readBytes;
import static io.tarn.storage.manifest.FieldValueReader.readString;
import static io.tarn.storage.manifest.FieldValueReader.readStrings;

/**
 * Decodes the {@code _FILE} records of the entries of one manifest file into {@link DataFileMeta}s,
 * for {@link ManifestEntryDecoder}, by a plan made once per record schema ({@link #layout}).
 */
final class DataFileDecoder
{
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

    private final Map<Schema, FileLayout> layouts = new IdentityHashMap<>();
    private final FieldValueReader values = new FieldValueReader();

    // interned values: consecutive entries mostly share them
    private final InterningRowReader minKeyReader = new InterningRowReader();
    private final InterningRowReader maxKeyReader = new InterningRowReader();
    private final SimpleStatsReader keyStatsReader = new SimpleStatsReader();
    private final SimpleStatsReader valueStatsReader = new SimpleStatsReader();
    private List<String> lastStatsColumns;

    FileLayout layout(Schema record)
    {
        return layouts.computeIfAbsent(record, FileLayout::new);
    }

    DataFileMeta decode(Schema record, AvroCursor cursor)
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

        RecordLayout layout = layout(record).fields;
        Schema[] schemas = layout.schemas;
        int[] slots = layout.slots;
        for (int i = 0; i < schemas.length; i++) {
            Schema schema = schemas[i];
            switch (slots[i]) {
                case FILE_NAME -> name = readString(schema, cursor, "_FILE_NAME");
                case FILE_SIZE -> {
                    fileSize = values.readLong(schema, cursor, "_FILE_SIZE");
                    hasFileSize = values.present();
                }
                case ROW_COUNT -> {
                    rowCount = values.readLong(schema, cursor, "_ROW_COUNT");
                    hasRowCount = values.present();
                }
                case MIN_KEY -> minKey = minKeyReader.read(schema, cursor, "_MIN_KEY");
                case MAX_KEY -> maxKey = maxKeyReader.read(schema, cursor, "_MAX_KEY");
                case KEY_STATS -> keyStats = keyStatsReader.read(schema, cursor, "_KEY_STATS");
                case VALUE_STATS -> valueStats = valueStatsReader.read(schema, cursor, "_VALUE_STATS");
                case MIN_SEQUENCE_NUMBER -> {
                    minSequenceNumber = values.readLong(schema, cursor, "_MIN_SEQUENCE_NUMBER");
                    hasMinSequenceNumber = values.present();
                }
                case MAX_SEQUENCE_NUMBER -> {
                    maxSequenceNumber = values.readLong(schema, cursor, "_MAX_SEQUENCE_NUMBER");
                    hasMaxSequenceNumber = values.present();
                }
                case SCHEMA_ID -> {
                    schemaId = values.readLong(schema, cursor, "_SCHEMA_ID");
                    hasSchemaId = values.present();
                }
                case LEVEL -> {
                    level = values.readInt(schema, cursor, "_LEVEL");
                    hasLevel = values.present();
                }
                case EXTRA_FILES -> extraFiles = readStrings(schema, cursor, "_EXTRA_FILES");
                case CREATION_TIME -> {
                    long value = values.readLong(schema, cursor, "_CREATION_TIME");
                    creationTime = values.present() ? OptionalLong.of(value) : OptionalLong.empty();
                }
                case DELETE_ROW_COUNT -> {
                    long value = values.readLong(schema, cursor, "_DELETE_ROW_COUNT");
                    deleteRowCount = values.present() ? OptionalLong.of(value) : OptionalLong.empty();
                }
                case EMBEDDED_FILE_INDEX -> embeddedIndex = readBytes(schema, cursor, "_EMBEDDED_FILE_INDEX");
                case FILE_SOURCE -> {
                    int value = values.readInt(schema, cursor, "_FILE_SOURCE");
                    fileSource = values.present() ? OptionalInt.of(value) : OptionalInt.empty();
                }
                case VALUE_STATS_COLS -> valueStatsCols = internColumns(readStrings(schema, cursor, "_VALUE_STATS_COLS"));
                case EXTERNAL_PATH -> externalPath = readString(schema, cursor, "_EXTERNAL_PATH");
                case FIRST_ROW_ID -> {
                    long value = values.readLong(schema, cursor, "_FIRST_ROW_ID");
                    firstRowId = values.present() ? OptionalLong.of(value) : OptionalLong.empty();
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

    /** The plan of one {@code _FILE} record schema, and where in it {@code _LEVEL} is. */
    static final class FileLayout
    {
        private final RecordLayout fields;
        private final int levelPosition;
        // _LEVEL is a plain int, so it can be read ahead of the rest of the record
        private final boolean levelReadable;

        private FileLayout(Schema record)
        {
            fields = new RecordLayout(record, FILE_FIELDS);
            levelPosition = fields.position(LEVEL);
            levelReadable = levelPosition >= 0 && fields.schemas[levelPosition].getType() == Schema.Type.INT;
        }

        boolean levelReadable()
        {
            return levelReadable;
        }

        int skipToLevel(AvroCursor cursor)
                throws IOException
        {
            for (int i = 0; i < levelPosition; i++) {
                cursor.skip(fields.schemas[i]);
            }
            return cursor.readInt();
        }

        void skipAfterLevel(AvroCursor cursor)
                throws IOException
        {
            for (int i = levelPosition + 1; i < fields.schemas.length; i++) {
                cursor.skip(fields.schemas[i]);
            }
        }
    }
}
