package io.tarn.storage.manifest;

import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.binary.SimpleStats;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.testng.annotations.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Manifest files with fields Tarn does not know are refused; the fields Paimon 1.4 added, which
 * Tarn knows and leaves unread, are not.
 */
public class TestManifestFields
{
    private static final ManifestFileMeta ROW = new ManifestFileMeta("manifest-a-0", 100, 2, 1, SimpleStats.EMPTY, 0,
            OptionalInt.of(0), OptionalInt.of(3), OptionalInt.of(0), OptionalInt.of(5));

    @Test
    public void testPaimon14FieldsAreKnown()
            throws Exception
    {
        byte[] file = withExtraFields(ManifestListFile.write(List.of(ROW)), "_MIN_ROW_ID", "_MAX_ROW_ID");
        assertThat(ManifestListFile.read(file, "manifest-list-14")).containsExactly(ROW);
    }

    @Test
    public void testUnknownFieldIsRefused()
            throws Exception
    {
        byte[] file = withExtraFields(ManifestListFile.write(List.of(ROW)), "_MIN_ROW_ID", "_FUTURE_SELECTION");
        assertThatThrownBy(() -> ManifestListFile.read(file, "manifest-list-future"))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("manifest-list-future")
                .hasMessageContaining("_FUTURE_SELECTION");
    }

    @Test
    public void testUnknownNestedFieldIsRefused()
            throws Exception
    {
        Schema stats = ManifestSchemas.simpleStats(ManifestSchemas.RECORD + "__PARTITION_STATS");
        Schema extendedStats = extend(stats, "_FUTURE_STAT");
        List<Schema.Field> fields = new ArrayList<>();
        for (Schema.Field field : ManifestSchemas.MANIFEST_LIST.getFields()) {
            fields.add(new Schema.Field(field.name(), field.name().equals("_PARTITION_STATS") ? extendedStats : field.schema(), null, field.defaultVal()));
        }
        Schema schema = Schema.createRecord(ManifestSchemas.MANIFEST_LIST.getName(), null, ManifestSchemas.MANIFEST_LIST.getNamespace(), false, fields);
        List<GenericRecord> records = new ArrayList<>();
        for (GenericRecord original : AvroRecords.read(ManifestListFile.write(List.of(ROW)), "original")) {
            GenericData.Record record = new GenericData.Record(schema);
            for (Schema.Field field : ManifestSchemas.MANIFEST_LIST.getFields()) {
                record.put(field.name(), original.get(field.name()));
            }
            GenericRecord originalStats = (GenericRecord) original.get("_PARTITION_STATS");
            GenericData.Record statsRecord = new GenericData.Record(extendedStats);
            for (Schema.Field field : stats.getFields()) {
                statsRecord.put(field.name(), originalStats.get(field.name()));
            }
            record.put("_PARTITION_STATS", statsRecord);
            records.add(record);
        }
        byte[] file = AvroRecords.write(schema, records, "none");
        assertThatThrownBy(() -> ManifestListFile.read(file, "manifest-list-nested"))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("manifest-list-nested")
                .hasMessageContaining("_PARTITION_STATS._FUTURE_STAT");
    }

    // the file's records with nullable long fields appended, all null
    private static byte[] withExtraFields(byte[] file, String... names)
            throws Exception
    {
        Schema schema = extend(ManifestSchemas.MANIFEST_LIST, names);
        List<GenericRecord> records = new ArrayList<>();
        for (GenericRecord original : AvroRecords.read(file, "original")) {
            GenericData.Record record = new GenericData.Record(schema);
            for (Schema.Field field : ManifestSchemas.MANIFEST_LIST.getFields()) {
                record.put(field.name(), original.get(field.name()));
            }
            records.add(record);
        }
        return AvroRecords.write(schema, records, "none");
    }

    private static Schema extend(Schema record, String... names)
    {
        List<Schema.Field> fields = new ArrayList<>();
        for (Schema.Field field : record.getFields()) {
            fields.add(new Schema.Field(field, field.schema()));
        }
        for (String name : names) {
            fields.add(new Schema.Field(name, Schema.createUnion(Schema.create(Schema.Type.NULL), Schema.create(Schema.Type.LONG)), null, Schema.Field.NULL_DEFAULT_VALUE));
        }
        return Schema.createRecord(record.getName(), null, record.getNamespace(), false, fields);
    }
}
