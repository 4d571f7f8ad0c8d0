package io.tarn.storage.manifest;

import io.tarn.storage.CorruptFileException;
import io.tarn.storage.UnsupportedTableFeatureException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

import java.util.ArrayList;
import java.util.List;

import static io.tarn.storage.manifest.AvroFields.checkVersion;
import static io.tarn.storage.manifest.AvroFields.longValue;
import static io.tarn.storage.manifest.AvroFields.optionalInt;
import static io.tarn.storage.manifest.AvroFields.simpleStats;
import static io.tarn.storage.manifest.AvroFields.simpleStatsRecord;
import static io.tarn.storage.manifest.AvroFields.string;
import static java.util.Objects.requireNonNull;

/**
 * Codec of manifest-list files ({@code manifest/manifest-list-*}): Avro rows of version 2, one
 * {@link ManifestFileMeta} per manifest. Reads every field layout Paimon 0.8 to 1.3 wrote (fields
 * are matched by name; the bucket and level ranges are absent before 1.1) and writes Paimon 1.3's.
 */
public final class ManifestListFile
{
    private static final String WHAT = "Manifest list";

    private ManifestListFile() {}

    /**
     * @throws CorruptFileException naming {@code fileName} if the file is not a valid manifest list
     * @throws UnsupportedTableFeatureException if its rows have a version other than 2 or a field Tarn does not know ({@link ManifestFields})
     */
    public static List<ManifestFileMeta> read(byte[] file, String fileName)
            throws CorruptFileException, UnsupportedTableFeatureException
    {
        List<GenericRecord> records = AvroRecords.read(file, fileName);
        List<ManifestFileMeta> result = new ArrayList<>(records.size());
        for (int i = 0; i < records.size(); i++) {
            GenericRecord record = records.get(i);
            try {
                checkVersion(record, ManifestSchemas.MANIFEST_VERSION, WHAT, fileName);
                result.add(new ManifestFileMeta(
                        string(record, "_FILE_NAME"),
                        longValue(record, "_FILE_SIZE"),
                        longValue(record, "_NUM_ADDED_FILES"),
                        longValue(record, "_NUM_DELETED_FILES"),
                        simpleStats(record, "_PARTITION_STATS"),
                        longValue(record, "_SCHEMA_ID"),
                        optionalInt(record, "_MIN_BUCKET"),
                        optionalInt(record, "_MAX_BUCKET"),
                        optionalInt(record, "_MIN_LEVEL"),
                        optionalInt(record, "_MAX_LEVEL")));
            }
            catch (IllegalArgumentException e) {
                throw new CorruptFileException(WHAT + " " + fileName + " has an invalid row " + i + ": " + e.getMessage(), e);
            }
        }
        // after decoding, so that a file that is no manifest list at all is reported as corrupt
        if (!records.isEmpty()) {
            ManifestFields.check(records.get(0).getSchema(), ManifestFields.MANIFEST_LIST, WHAT, fileName);
        }
        return List.copyOf(result);
    }

    /** Writes the rows with Paimon's default manifest compression, zstd. */
    public static byte[] write(List<ManifestFileMeta> rows)
    {
        return write(rows, "zstd");
    }

    /**
     * @param compression Paimon's {@code manifest.compression}: {@code zstd}, {@code none}, or an Avro codec name
     */
    public static byte[] write(List<ManifestFileMeta> rows, String compression)
    {
        requireNonNull(rows, "rows is null");
        Schema schema = ManifestSchemas.MANIFEST_LIST;
        Schema statsSchema = AvroFields.fieldSchema(schema, "_PARTITION_STATS");
        List<GenericRecord> records = new ArrayList<>(rows.size());
        for (ManifestFileMeta row : rows) {
            GenericData.Record record = new GenericData.Record(schema);
            record.put("_VERSION", ManifestSchemas.MANIFEST_VERSION);
            record.put("_FILE_NAME", row.fileName());
            record.put("_FILE_SIZE", row.fileSize());
            record.put("_NUM_ADDED_FILES", row.numAddedFiles());
            record.put("_NUM_DELETED_FILES", row.numDeletedFiles());
            record.put("_PARTITION_STATS", simpleStatsRecord(statsSchema, row.partitionStats()));
            record.put("_SCHEMA_ID", row.schemaId());
            record.put("_MIN_BUCKET", row.minBucket().isPresent() ? row.minBucket().getAsInt() : null);
            record.put("_MAX_BUCKET", row.maxBucket().isPresent() ? row.maxBucket().getAsInt() : null);
            record.put("_MIN_LEVEL", row.minLevel().isPresent() ? row.minLevel().getAsInt() : null);
            record.put("_MAX_LEVEL", row.maxLevel().isPresent() ? row.maxLevel().getAsInt() : null);
            records.add(record);
        }
        return AvroRecords.write(schema, records, compression);
    }
}
