package io.tarn.storage.manifest;

import io.tarn.storage.UnsupportedTableFeatureException;
import org.apache.avro.Schema;

import java.util.Map;
import java.util.Set;

/**
 * The fields of every record in manifest lists, manifests and index manifests that Tarn knows:
 * those it reads, and those it knows it may leave unread because they never change which rows a
 * table holds. A file whose writer schema has any other field was written by a Paimon that
 * records something Tarn cannot tell the meaning of (say, a new kind of file or row selection),
 * so reading it is refused, naming the file and the field, rather than the field skipped.
 * Fields a file lacks are not checked here: older writers leave them out, and the decoders read
 * them as absent.
 */
final class ManifestFields
{
    private static final Set<String> SIMPLE_STATS = Set.of("_MIN_VALUES", "_MAX_VALUES", "_NULL_COUNTS");

    /**
     * The rows of a manifest list. Tarn does not read {@code _MIN_ROW_ID} and {@code _MAX_ROW_ID}
     * (Paimon 1.4): the row-id range of the manifest's files, which only prunes reads by row id.
     */
    static final Record MANIFEST_LIST = new Record(
            Set.of("_VERSION", "_FILE_NAME", "_FILE_SIZE", "_NUM_ADDED_FILES", "_NUM_DELETED_FILES", "_PARTITION_STATS", "_SCHEMA_ID",
                    "_MIN_BUCKET", "_MAX_BUCKET", "_MIN_LEVEL", "_MAX_LEVEL", "_MIN_ROW_ID", "_MAX_ROW_ID"),
            Map.of("_PARTITION_STATS", SIMPLE_STATS));

    /** The rows of a manifest, with their data file. */
    static final Record MANIFEST_ENTRY = new Record(
            Set.of("_VERSION", "_KIND", "_PARTITION", "_BUCKET", "_TOTAL_BUCKETS", "_FILE"),
            Map.of("_FILE", Set.of(
                    "_FILE_NAME", "_FILE_SIZE", "_ROW_COUNT", "_MIN_KEY", "_MAX_KEY", "_KEY_STATS", "_VALUE_STATS", "_MIN_SEQUENCE_NUMBER",
                    "_MAX_SEQUENCE_NUMBER", "_SCHEMA_ID", "_LEVEL", "_EXTRA_FILES", "_CREATION_TIME", "_DELETE_ROW_COUNT", "_EMBEDDED_FILE_INDEX",
                    "_FILE_SOURCE", "_VALUE_STATS_COLS", "_EXTERNAL_PATH", "_FIRST_ROW_ID", "_WRITE_COLS"),
                    "_KEY_STATS", SIMPLE_STATS,
                    "_VALUE_STATS", SIMPLE_STATS));

    /**
     * The rows of an index manifest, with their deletion-vector ranges (spelled two ways). Tarn
     * does not read {@code _GLOBAL_INDEX} (Paimon 1.4): the row range and field a global index file
     * covers, while Tarn uses deletion-vector index files only.
     */
    static final Record INDEX_MANIFEST_ENTRY = new Record(
            Set.of("_VERSION", "_KIND", "_PARTITION", "_BUCKET", "_INDEX_TYPE", "_FILE_NAME", "_FILE_SIZE", "_ROW_COUNT",
                    "_DELETIONS_VECTORS_RANGES", "_DELETION_VECTORS_RANGES", "_EXTERNAL_PATH", "_GLOBAL_INDEX"),
            Map.of("_DELETIONS_VECTORS_RANGES", Set.of("f0", "f1", "f2", "_CARDINALITY"),
                    "_DELETION_VECTORS_RANGES", Set.of("f0", "f1", "f2", "_CARDINALITY")));

    private ManifestFields() {}

    /**
     * The known fields of a top-level record and of the records nested in its fields (directly,
     * in an array, or in a nullable union), by the name of the field holding them.
     */
    record Record(Set<String> fields, Map<String, Set<String>> nested)
    {
        Record
        {
            fields = Set.copyOf(fields);
            nested = Map.copyOf(nested);
        }
    }

    /**
     * @throws UnsupportedTableFeatureException naming {@code what} file {@code fileName} and the
     * field, if the writer schema has a field Tarn does not know
     */
    static void check(Schema writerSchema, Record record, String what, String fileName)
            throws UnsupportedTableFeatureException
    {
        checkFields(writerSchema, record.fields(), what, fileName, "");
        for (Map.Entry<String, Set<String>> nested : record.nested().entrySet()) {
            Schema.Field field = writerSchema.getField(nested.getKey());
            if (field == null) {
                continue;
            }
            Schema nestedRecord = nestedRecord(field.schema());
            if (nestedRecord != null) {
                checkFields(nestedRecord, nested.getValue(), what, fileName, nested.getKey() + ".");
            }
        }
    }

    private static void checkFields(Schema schema, Set<String> known, String what, String fileName, String prefix)
            throws UnsupportedTableFeatureException
    {
        if (schema.getType() != Schema.Type.RECORD) {
            // a record of another shape is the decoders' to reject as corrupt
            return;
        }
        for (Schema.Field field : schema.getFields()) {
            if (!known.contains(field.name())) {
                throw new UnsupportedTableFeatureException("%s %s has field %s%s, which Tarn does not know; it may change how the table must be read"
                        .formatted(what, fileName, prefix, field.name()));
            }
        }
    }

    private static Schema nestedRecord(Schema schema)
    {
        return switch (schema.getType()) {
            case RECORD -> schema;
            case ARRAY -> nestedRecord(schema.getElementType());
            case UNION -> {
                for (Schema branch : schema.getTypes()) {
                    Schema nested = nestedRecord(branch);
                    if (nested != null) {
                        yield nested;
                    }
                }
                yield null;
            }
            default -> null;
        };
    }
}
