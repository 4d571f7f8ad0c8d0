package io.tarn.storage.manifest;

import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;

/**
 * The Avro schemas Paimon 1.3 writes for manifest lists, manifests and index manifests, built the
 * way Paimon's {@code AvroSchemaConverter} derives them from its row types: the top record is
 * {@code org.apache.paimon.avro.generated.record}, a nested record of field F in record R is named
 * {@code R_F}, array elements reuse the enclosing name, a nullable type is the union
 * {@code ["null", T]} with default null, and TINYINT is {@code int}. Every row starts with the
 * not-null {@code _VERSION} int.
 */
final class ManifestSchemas
{
    static final String RECORD = "org.apache.paimon.avro.generated.record";

    static final int MANIFEST_VERSION = 2;
    static final int INDEX_MANIFEST_VERSION = 1;

    static final Schema MANIFEST_LIST = manifestList();
    static final Schema MANIFEST_ENTRY = manifestEntry();
    static final Schema INDEX_MANIFEST_ENTRY = indexManifestEntry();

    private ManifestSchemas() {}

    static Schema simpleStats(String name)
    {
        return SchemaBuilder.record(name).fields()
                .name("_MIN_VALUES").type(bytes()).noDefault()
                .name("_MAX_VALUES").type(bytes()).noDefault()
                .name("_NULL_COUNTS").type(nullable(Schema.createArray(nullable(longType())))).withDefault(null)
                .endRecord();
    }

    private static Schema manifestList()
    {
        return SchemaBuilder.record(RECORD).fields()
                .name("_VERSION").type(intType()).noDefault()
                .name("_FILE_NAME").type(string()).noDefault()
                .name("_FILE_SIZE").type(longType()).noDefault()
                .name("_NUM_ADDED_FILES").type(longType()).noDefault()
                .name("_NUM_DELETED_FILES").type(longType()).noDefault()
                .name("_PARTITION_STATS").type(simpleStats(RECORD + "__PARTITION_STATS")).noDefault()
                .name("_SCHEMA_ID").type(longType()).noDefault()
                .name("_MIN_BUCKET").type(nullable(intType())).withDefault(null)
                .name("_MAX_BUCKET").type(nullable(intType())).withDefault(null)
                .name("_MIN_LEVEL").type(nullable(intType())).withDefault(null)
                .name("_MAX_LEVEL").type(nullable(intType())).withDefault(null)
                .endRecord();
    }

    private static Schema manifestEntry()
    {
        return SchemaBuilder.record(RECORD).fields()
                .name("_VERSION").type(intType()).noDefault()
                .name("_KIND").type(intType()).noDefault()
                .name("_PARTITION").type(bytes()).noDefault()
                .name("_BUCKET").type(intType()).noDefault()
                .name("_TOTAL_BUCKETS").type(intType()).noDefault()
                .name("_FILE").type(dataFileMeta(RECORD + "__FILE")).noDefault()
                .endRecord();
    }

    private static Schema dataFileMeta(String name)
    {
        return SchemaBuilder.record(name).fields()
                .name("_FILE_NAME").type(string()).noDefault()
                .name("_FILE_SIZE").type(longType()).noDefault()
                .name("_ROW_COUNT").type(longType()).noDefault()
                .name("_MIN_KEY").type(bytes()).noDefault()
                .name("_MAX_KEY").type(bytes()).noDefault()
                .name("_KEY_STATS").type(simpleStats(name + "__KEY_STATS")).noDefault()
                .name("_VALUE_STATS").type(simpleStats(name + "__VALUE_STATS")).noDefault()
                .name("_MIN_SEQUENCE_NUMBER").type(longType()).noDefault()
                .name("_MAX_SEQUENCE_NUMBER").type(longType()).noDefault()
                .name("_SCHEMA_ID").type(longType()).noDefault()
                .name("_LEVEL").type(intType()).noDefault()
                .name("_EXTRA_FILES").type(Schema.createArray(string())).noDefault()
                .name("_CREATION_TIME").type(nullable(LogicalTypes.timestampMillis().addToSchema(longType()))).withDefault(null)
                .name("_DELETE_ROW_COUNT").type(nullable(longType())).withDefault(null)
                .name("_EMBEDDED_FILE_INDEX").type(nullable(bytes())).withDefault(null)
                .name("_FILE_SOURCE").type(nullable(intType())).withDefault(null)
                .name("_VALUE_STATS_COLS").type(nullable(Schema.createArray(string()))).withDefault(null)
                .name("_EXTERNAL_PATH").type(nullable(string())).withDefault(null)
                .name("_FIRST_ROW_ID").type(nullable(longType())).withDefault(null)
                .name("_WRITE_COLS").type(nullable(Schema.createArray(string()))).withDefault(null)
                .endRecord();
    }

    private static Schema indexManifestEntry()
    {
        String rangesName = RECORD + "__DELETIONS_VECTORS_RANGES";
        Schema range = SchemaBuilder.record(rangesName).fields()
                .name("f0").type(string()).noDefault()
                .name("f1").type(intType()).noDefault()
                .name("f2").type(intType()).noDefault()
                .name("_CARDINALITY").type(nullable(longType())).withDefault(null)
                .endRecord();
        return SchemaBuilder.record(RECORD).fields()
                .name("_VERSION").type(intType()).noDefault()
                .name("_KIND").type(intType()).noDefault()
                .name("_PARTITION").type(bytes()).noDefault()
                .name("_BUCKET").type(intType()).noDefault()
                .name("_INDEX_TYPE").type(string()).noDefault()
                .name("_FILE_NAME").type(string()).noDefault()
                .name("_FILE_SIZE").type(longType()).noDefault()
                .name("_ROW_COUNT").type(longType()).noDefault()
                .name("_DELETIONS_VECTORS_RANGES").type(nullable(Schema.createArray(nullable(range)))).withDefault(null)
                .name("_EXTERNAL_PATH").type(nullable(string())).withDefault(null)
                .endRecord();
    }

    private static Schema nullable(Schema schema)
    {
        return Schema.createUnion(Schema.create(Schema.Type.NULL), schema);
    }

    private static Schema intType()
    {
        return Schema.create(Schema.Type.INT);
    }

    private static Schema longType()
    {
        return Schema.create(Schema.Type.LONG);
    }

    private static Schema string()
    {
        return Schema.create(Schema.Type.STRING);
    }

    private static Schema bytes()
    {
        return Schema.create(Schema.Type.BYTES);
    }
}
