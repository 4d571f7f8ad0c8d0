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
import static io.tarn.storage.manifest.AvroFields.intValue;
import static io.tarn.storage.manifest.AvroFields.longValue;
import static io.tarn.storage.manifest.AvroFields.optionalList;
import static io.tarn.storage.manifest.AvroFields.optionalLong;
import static io.tarn.storage.manifest.AvroFields.optionalString;
import static io.tarn.storage.manifest.AvroFields.string;
import static java.util.Objects.requireNonNull;

/**
 * Codec of index manifests ({@code manifest/index-manifest-*}): Avro rows of version 1, one
 * {@link IndexManifestEntry} each. The deletion-vector ranges field is read under both of its
 * spellings ({@code _DELETION_VECTORS_RANGES} before Paimon 1.0, {@code _DELETIONS_VECTORS_RANGES}
 * since) and written under the 1.3 one.
 */
public final class IndexManifestFile
{
    private static final String WHAT = "Index manifest";
    private static final String RANGES = "_DELETIONS_VECTORS_RANGES";
    private static final String LEGACY_RANGES = "_DELETION_VECTORS_RANGES";

    private IndexManifestFile() {}

    /**
     * @throws CorruptFileException naming {@code fileName} if the file is not a valid index manifest
     * @throws UnsupportedTableFeatureException if its rows have a version other than 1 or a field Tarn does not know ({@link ManifestFields})
     */
    public static List<IndexManifestEntry> read(byte[] file, String fileName)
            throws CorruptFileException, UnsupportedTableFeatureException
    {
        List<GenericRecord> records = AvroRecords.read(file, fileName);
        List<IndexManifestEntry> result = new ArrayList<>(records.size());
        for (int i = 0; i < records.size(); i++) {
            GenericRecord record = records.get(i);
            try {
                checkVersion(record, ManifestSchemas.INDEX_MANIFEST_VERSION, WHAT, fileName);
                String rangesField = record.getSchema().getField(RANGES) != null ? RANGES : LEGACY_RANGES;
                result.add(new IndexManifestEntry(
                        FileKind.fromByteValue(intValue(record, "_KIND")),
                        binaryRow(record, "_PARTITION"),
                        intValue(record, "_BUCKET"),
                        string(record, "_INDEX_TYPE"),
                        string(record, "_FILE_NAME"),
                        longValue(record, "_FILE_SIZE"),
                        longValue(record, "_ROW_COUNT"),
                        optionalList(record, rangesField).map(IndexManifestFile::ranges),
                        optionalString(record, "_EXTERNAL_PATH")));
            }
            catch (IllegalArgumentException e) {
                throw new CorruptFileException(WHAT + " " + fileName + " has an invalid row " + i + ": " + e.getMessage(), e);
            }
        }
        // after decoding, so that a file that is no index manifest at all is reported as corrupt
        if (!records.isEmpty()) {
            ManifestFields.check(records.get(0).getSchema(), ManifestFields.INDEX_MANIFEST_ENTRY, WHAT, fileName);
        }
        return List.copyOf(result);
    }

    private static List<DeletionVectorMeta> ranges(List<?> values)
    {
        List<DeletionVectorMeta> ranges = new ArrayList<>(values.size());
        for (Object value : values) {
            if (!(value instanceof GenericRecord range)) {
                throw new IllegalArgumentException("Deletion vector range is not a record: " + value);
            }
            ranges.add(new DeletionVectorMeta(
                    string(range, "f0"),
                    intValue(range, "f1"),
                    intValue(range, "f2"),
                    optionalLong(range, "_CARDINALITY")));
        }
        return ranges;
    }

    /** Writes the entries with Paimon's default manifest compression, zstd. */
    public static byte[] write(List<IndexManifestEntry> entries)
    {
        return write(entries, "zstd");
    }

    /**
     * @param compression Paimon's {@code manifest.compression}: {@code zstd}, {@code none}, or an Avro codec name
     */
    public static byte[] write(List<IndexManifestEntry> entries, String compression)
    {
        requireNonNull(entries, "entries is null");
        Schema schema = ManifestSchemas.INDEX_MANIFEST_ENTRY;
        Schema rangeSchema = schema.getField(RANGES).schema().getTypes().get(1).getElementType().getTypes().get(1);
        List<GenericRecord> records = new ArrayList<>(entries.size());
        for (IndexManifestEntry entry : entries) {
            GenericData.Record record = new GenericData.Record(schema);
            record.put("_VERSION", ManifestSchemas.INDEX_MANIFEST_VERSION);
            record.put("_KIND", entry.kind().byteValue());
            record.put("_PARTITION", byteBuffer(entry.partition().toSerialized()));
            record.put("_BUCKET", entry.bucket());
            record.put("_INDEX_TYPE", entry.indexType());
            record.put("_FILE_NAME", entry.fileName());
            record.put("_FILE_SIZE", entry.fileSize());
            record.put("_ROW_COUNT", entry.rowCount());
            record.put(RANGES, entry.deletionVectorRanges().map(ranges -> rangeRecords(rangeSchema, ranges)).orElse(null));
            record.put("_EXTERNAL_PATH", entry.externalPath().orElse(null));
            records.add(record);
        }
        return AvroRecords.write(schema, records, compression);
    }

    private static List<GenericRecord> rangeRecords(Schema rangeSchema, List<DeletionVectorMeta> ranges)
    {
        List<GenericRecord> records = new ArrayList<>(ranges.size());
        for (DeletionVectorMeta range : ranges) {
            GenericData.Record record = new GenericData.Record(rangeSchema);
            record.put("f0", range.dataFileName());
            record.put("f1", range.offset());
            record.put("f2", range.length());
            record.put("_CARDINALITY", range.cardinality().isPresent() ? range.cardinality().getAsLong() : null);
            records.add(record);
        }
        return records;
    }
}
