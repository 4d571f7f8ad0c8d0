package io.tarn.storage.manifest;

import io.tarn.storage.CorruptFileException;
import io.tarn.storage.UnsupportedTableFeatureException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

import java.util.ArrayList;
import java.util.List;

import static io.tarn.storage.manifest.AvroFields.binaryRow;
import static io.tarn.storage.manifest.AvroFields.byteBuffer;
import static io.tarn.storage.manifest.AvroFields.checkVersion;
import static io.tarn.storage.manifest.AvroFields.fieldSchema;
import static io.tarn.storage.manifest.AvroFields.intValue;
import static io.tarn.storage.manifest.AvroFields.list;
import static io.tarn.storage.manifest.AvroFields.longValue;
import static io.tarn.storage.manifest.AvroFields.optionalBytes;
import static io.tarn.storage.manifest.AvroFields.optionalInt;
import static io.tarn.storage.manifest.AvroFields.optionalList;
import static io.tarn.storage.manifest.AvroFields.optionalLong;
import static io.tarn.storage.manifest.AvroFields.optionalString;
import static io.tarn.storage.manifest.AvroFields.record;
import static io.tarn.storage.manifest.AvroFields.simpleStats;
import static io.tarn.storage.manifest.AvroFields.simpleStatsRecord;
import static io.tarn.storage.manifest.AvroFields.string;
import static io.tarn.storage.manifest.AvroFields.strings;
import static java.util.Objects.requireNonNull;

/**
 * Codec of data and changelog manifests ({@code manifest/manifest-*}): Avro rows of version 2,
 * one {@link ManifestEntry} each, with the data file in the nested {@code _FILE} record. Reads
 * every {@code _FILE} layout Paimon 0.8 to 1.3 wrote (15 to 20 fields, matched by name; later
 * fields absent) and writes Paimon 1.3's 20-field layout.
 */
public final class ManifestFile
{
    private static final String WHAT = "Manifest file";

    private ManifestFile() {}

    /**
     * @throws CorruptFileException naming {@code fileName} if the file is not a valid manifest
     * @throws UnsupportedTableFeatureException if its rows have a version other than 2
     */
    public static List<ManifestEntry> read(byte[] file, String fileName)
            throws CorruptFileException, UnsupportedTableFeatureException
    {
        List<GenericRecord> records = ManifestListFile.readRecords(file, fileName);
        List<ManifestEntry> result = new ArrayList<>(records.size());
        for (int i = 0; i < records.size(); i++) {
            GenericRecord record = records.get(i);
            try {
                checkVersion(record, ManifestSchemas.MANIFEST_VERSION, WHAT, fileName);
                result.add(new ManifestEntry(
                        FileKind.fromByteValue(intValue(record, "_KIND")),
                        binaryRow(record, "_PARTITION"),
                        intValue(record, "_BUCKET"),
                        intValue(record, "_TOTAL_BUCKETS"),
                        dataFileMeta(record(record, "_FILE"))));
            }
            catch (IllegalArgumentException e) {
                throw new CorruptFileException(WHAT + " " + fileName + " has an invalid row " + i + ": " + e.getMessage(), e);
            }
        }
        return List.copyOf(result);
    }

    private static DataFileMeta dataFileMeta(GenericRecord file)
    {
        return new DataFileMeta(
                string(file, "_FILE_NAME"),
                longValue(file, "_FILE_SIZE"),
                longValue(file, "_ROW_COUNT"),
                binaryRow(file, "_MIN_KEY"),
                binaryRow(file, "_MAX_KEY"),
                simpleStats(file, "_KEY_STATS"),
                simpleStats(file, "_VALUE_STATS"),
                longValue(file, "_MIN_SEQUENCE_NUMBER"),
                longValue(file, "_MAX_SEQUENCE_NUMBER"),
                longValue(file, "_SCHEMA_ID"),
                intValue(file, "_LEVEL"),
                strings("_EXTRA_FILES", list(file, "_EXTRA_FILES")),
                optionalLong(file, "_CREATION_TIME"),
                optionalLong(file, "_DELETE_ROW_COUNT"),
                optionalBytes(file, "_EMBEDDED_FILE_INDEX"),
                optionalInt(file, "_FILE_SOURCE"),
                optionalList(file, "_VALUE_STATS_COLS").map(values -> strings("_VALUE_STATS_COLS", values)),
                optionalString(file, "_EXTERNAL_PATH"),
                optionalLong(file, "_FIRST_ROW_ID"),
                optionalList(file, "_WRITE_COLS").map(values -> strings("_WRITE_COLS", values)));
    }

    /** Writes the entries with Paimon's default manifest compression, zstd. */
    public static byte[] write(List<ManifestEntry> entries)
    {
        return write(entries, "zstd");
    }

    /**
     * @param compression Paimon's {@code manifest.compression}: {@code zstd}, {@code none}, or an Avro codec name
     */
    public static byte[] write(List<ManifestEntry> entries, String compression)
    {
        requireNonNull(entries, "entries is null");
        Schema schema = ManifestSchemas.MANIFEST_ENTRY;
        Schema fileSchema = fieldSchema(schema, "_FILE");
        Schema keyStatsSchema = fieldSchema(fileSchema, "_KEY_STATS");
        Schema valueStatsSchema = fieldSchema(fileSchema, "_VALUE_STATS");
        List<GenericRecord> records = new ArrayList<>(entries.size());
        for (ManifestEntry entry : entries) {
            DataFileMeta meta = entry.file();
            GenericData.Record file = new GenericData.Record(fileSchema);
            file.put("_FILE_NAME", meta.fileName());
            file.put("_FILE_SIZE", meta.fileSize());
            file.put("_ROW_COUNT", meta.rowCount());
            file.put("_MIN_KEY", byteBuffer(meta.minKey().toSerialized()));
            file.put("_MAX_KEY", byteBuffer(meta.maxKey().toSerialized()));
            file.put("_KEY_STATS", simpleStatsRecord(keyStatsSchema, meta.keyStats()));
            file.put("_VALUE_STATS", simpleStatsRecord(valueStatsSchema, meta.valueStats()));
            file.put("_MIN_SEQUENCE_NUMBER", meta.minSequenceNumber());
            file.put("_MAX_SEQUENCE_NUMBER", meta.maxSequenceNumber());
            file.put("_SCHEMA_ID", meta.schemaId());
            file.put("_LEVEL", meta.level());
            file.put("_EXTRA_FILES", meta.extraFiles());
            file.put("_CREATION_TIME", meta.creationTime().isPresent() ? meta.creationTime().getAsLong() : null);
            file.put("_DELETE_ROW_COUNT", meta.deleteRowCount().isPresent() ? meta.deleteRowCount().getAsLong() : null);
            file.put("_EMBEDDED_FILE_INDEX", byteBuffer(meta.embeddedIndex()));
            file.put("_FILE_SOURCE", meta.fileSource().isPresent() ? meta.fileSource().getAsInt() : null);
            file.put("_VALUE_STATS_COLS", meta.valueStatsCols().orElse(null));
            file.put("_EXTERNAL_PATH", meta.externalPath().orElse(null));
            file.put("_FIRST_ROW_ID", meta.firstRowId().isPresent() ? meta.firstRowId().getAsLong() : null);
            file.put("_WRITE_COLS", meta.writeCols().orElse(null));

            GenericData.Record record = new GenericData.Record(schema);
            record.put("_VERSION", ManifestSchemas.MANIFEST_VERSION);
            record.put("_KIND", entry.kind().byteValue());
            record.put("_PARTITION", byteBuffer(entry.partition().toSerialized()));
            record.put("_BUCKET", entry.bucket());
            record.put("_TOTAL_BUCKETS", entry.totalBuckets());
            record.put("_FILE", file);
            records.add(record);
        }
        return AvroContainer.write(schema, records, compression);
    }
}
