package io.tarn.storage.manifest;

import io.tarn.storage.CorruptFileException;
import io.tarn.storage.UnsupportedTableFeatureException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static io.tarn.storage.manifest.AvroFields.byteBuffer;
import static io.tarn.storage.manifest.AvroFields.fieldSchema;
import static io.tarn.storage.manifest.AvroFields.simpleStatsRecord;
import static java.util.Objects.requireNonNull;

/**
 * Codec of data and changelog manifests ({@code manifest/manifest-*}): Avro rows of version 2,
 * one {@link ManifestEntry} each, with the data file in the nested {@code _FILE} record. Reads
 * every {@code _FILE} layout Paimon 0.8 to 1.3 wrote (15 to 20 fields, matched by name; later
 * fields absent) and writes Paimon 1.3's 20-field layout. Rows are decoded by
 * {@link ManifestEntryDecoder}, straight from the bytes, optionally skipping the data files of
 * entries a {@link ManifestEntryFilter} refuses.
 */
public final class ManifestFile
{
    private ManifestFile() {}

    /**
     * @throws CorruptFileException naming {@code fileName} if the file is not a valid manifest
     * @throws UnsupportedTableFeatureException if its rows have a version other than 2 or a field Tarn does not know ({@link ManifestFields})
     */
    public static List<ManifestEntry> read(byte[] file, String fileName)
            throws CorruptFileException, UnsupportedTableFeatureException
    {
        return read(file, fileName, null);
    }

    /**
     * Reads the entries {@code filter} accepts; the data files of the others are skipped, not
     * decoded.
     *
     * @param filter null to read every entry
     * @throws CorruptFileException naming {@code fileName} if the file is not a valid manifest
     * @throws UnsupportedTableFeatureException if its rows have a version other than 2 or a field Tarn does not know ({@link ManifestFields})
     */
    public static List<ManifestEntry> read(byte[] file, String fileName, ManifestEntryFilter filter)
            throws CorruptFileException, UnsupportedTableFeatureException
    {
        List<ManifestEntry> entries = new ArrayList<>();
        List<Schema> writerSchemas = new ArrayList<>(1);
        AvroBlocks.read(file, fileName, schema -> {
            writerSchemas.add(schema);
            return new ManifestEntryDecoder(schema, fileName, filter, entries);
        });
        // after decoding, so that a file that is no manifest at all is reported as corrupt
        for (Schema schema : writerSchemas) {
            ManifestFields.check(schema, ManifestFields.MANIFEST_ENTRY, "Manifest file", fileName);
        }
        return Collections.unmodifiableList(entries);
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
        return AvroRecords.write(schema, records, compression);
    }
}
