package io.tarn.storage.schema;

import io.tarn.storage.CorruptFileException;
import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.snapshot.PaimonTables;
import io.tarn.types.DataType;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataTypeJsonParser;
import org.apache.paimon.types.DataTypes;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestSchemaJson
{
    private PaimonTables paimon;
    private FileStoreTable allTypes;

    @BeforeClass
    public void setUp()
            throws Exception
    {
        paimon = new PaimonTables();
        Schema schema = Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("dt", DataTypes.STRING())
                .column("c_boolean", DataTypes.BOOLEAN(), "a description")
                .column("c_tinyint", DataTypes.TINYINT())
                .column("c_smallint", DataTypes.SMALLINT())
                .column("c_int", DataTypes.INT().notNull())
                .column("c_float", DataTypes.FLOAT())
                .column("c_double", DataTypes.DOUBLE())
                .column("c_decimal", DataTypes.DECIMAL(10, 2))
                .column("c_decimal38", DataTypes.DECIMAL(38, 18).notNull())
                .column("c_char", DataTypes.CHAR(5))
                .column("c_varchar", DataTypes.VARCHAR(20))
                .column("c_binary", DataTypes.BINARY(3))
                .column("c_varbinary", DataTypes.VARBINARY(7))
                .column("c_bytes", DataTypes.BYTES())
                .column("c_date", DataTypes.DATE())
                .column("c_time", DataTypes.TIME())
                .column("c_time3", DataTypes.TIME(3))
                .column("c_timestamp", DataTypes.TIMESTAMP())
                .column("c_timestamp3", DataTypes.TIMESTAMP(3))
                .column("c_timestamp9", DataTypes.TIMESTAMP(9).notNull())
                .column("c_ltz3", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3))
                .column("c_ltz6", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6))
                .column("c_variant", DataTypes.VARIANT())
                .column("c_array", DataTypes.ARRAY(DataTypes.INT().notNull()))
                .column("c_multiset", DataTypes.MULTISET(DataTypes.STRING()).notNull())
                .column("c_map", DataTypes.MAP(DataTypes.STRING().notNull(), DataTypes.ARRAY(DataTypes.ROW(
                        DataTypes.FIELD(100, "x", DataTypes.INT()),
                        DataTypes.FIELD(101, "y", DataTypes.DECIMAL(5, 1), "nested description")))))
                .column("c_row", DataTypes.ROW(
                        DataTypes.FIELD(200, "a", DataTypes.STRING()),
                        DataTypes.FIELD(201, "b", DataTypes.ROW(DataTypes.FIELD(202, "c", DataTypes.TIMESTAMP(3).notNull())).notNull())))
                .column("c_default", DataTypes.INT(), "with default", "42")
                .partitionKeys("dt")
                .primaryKey("id", "dt")
                .option("bucket", "2")
                .option("file.format", "parquet")
                .option("zeta", "last")
                .option("alpha", "first")
                .comment("all \"types\"\n")
                .build();
        allTypes = paimon.create("all_types", schema);
        Identifier identifier = Identifier.create("db", "all_types");
        paimon.catalog().alterTable(identifier, List.of(SchemaChange.addColumn("added", DataTypes.ARRAY(DataTypes.MAP(DataTypes.INT(), DataTypes.STRING())))), false);
        paimon.catalog().alterTable(identifier, List.of(SchemaChange.renameColumn("c_float", "c_real"), SchemaChange.setOption("snapshot.num-retained.min", "3")), false);
        paimon.catalog().alterTable(identifier, List.of(SchemaChange.dropColumn("c_tinyint"), SchemaChange.updateComment(null)), false);
        allTypes = paimon.table("all_types");
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
            throws Exception
    {
        paimon.close();
    }

    @Test
    public void testPaimonSchemaFiles()
            throws Exception
    {
        List<Long> ids = allTypes.schemaManager().listAllIds().stream().sorted().toList();
        assertThat(ids).containsExactly(0L, 1L, 2L, 3L);
        for (long id : ids) {
            Path file = Path.of(paimon.tableRoot("all_types"), "schema", "schema-" + id);
            String text = Files.readString(file);
            org.apache.paimon.schema.TableSchema expected = allTypes.schemaManager().schema(id);

            TableSchema actual = SchemaJson.parse(text.getBytes(StandardCharsets.UTF_8), file.toString());
            assertSameSchema(actual, expected);
            assertThat(SchemaJson.toJson(actual)).isEqualTo(text);
            assertThat(org.apache.paimon.schema.TableSchema.fromJson(SchemaJson.toJson(actual))).isEqualTo(expected);
        }
    }

    @Test
    public void testSchemaHelpers()
            throws Exception
    {
        org.apache.paimon.schema.TableSchema expected = allTypes.schema();
        TableSchema actual = SchemaJson.parse(Files.readAllBytes(Path.of(paimon.tableRoot("all_types"), "schema", "schema-" + expected.id())), "schema");
        assertThat(actual.trimmedPrimaryKeys()).isEqualTo(expected.trimmedPrimaryKeys());
        assertThat(actual.bucketKeys()).isEqualTo(expected.bucketKeys());
        assertThat(actual.numBuckets()).isEqualTo(expected.numBuckets());
        assertThat(actual.rowType().fields()).isEqualTo(PaimonTypes.fields(expected.logicalRowType().getFields()));
        assertThat(actual.partitionType().fields()).isEqualTo(PaimonTypes.fields(expected.logicalPartitionType().getFields()));
        assertThat(actual.option("alpha", "x")).isEqualTo("first");
        assertThat(actual.option("missing", "x")).isEqualTo("x");

        TableSchema withBucketKey = withOptions(actual, Map.of("bucket-key", "id"));
        org.apache.paimon.schema.TableSchema expectedWithBucketKey = expected.copy(Map.of("bucket-key", "id", "bucket", "2"));
        assertThat(withBucketKey.bucketKeys()).isEqualTo(expectedWithBucketKey.bucketKeys());
        assertThat(withOptions(actual, Map.of()).numBuckets()).isEqualTo(-1);
    }

    @Test
    public void testAtomicTypeSpellings()
            throws Exception
    {
        List<String> spellings = List.of(
                "BOOLEAN", "TINYINT", "SMALLINT", "INT", "INTEGER", "int not null", "BIGINT", "FLOAT", "DOUBLE", "DOUBLE PRECISION",
                "DECIMAL", "DECIMAL(5)", "DECIMAL(7, 3) NULL", "NUMERIC(12,4)", "DEC", "dec(38, 38) NOT NULL",
                "CHAR", "CHAR(9)", "VARCHAR", "VARCHAR(100) NOT NULL", "STRING", "string not null",
                "BINARY", "BINARY(16)", "VARBINARY", "VARBINARY(33)", "BYTES", "BYTES NOT NULL",
                "DATE", "TIME", "TIME(3)", "TIME(3) WITHOUT TIME ZONE",
                "TIMESTAMP", "TIMESTAMP(0)", "TIMESTAMP(9) NOT NULL", "TIMESTAMP(3) WITHOUT TIME ZONE",
                "TIMESTAMP WITH LOCAL TIME ZONE", "TIMESTAMP(3) WITH LOCAL TIME ZONE NOT NULL", "TIMESTAMP_LTZ", "TIMESTAMP_LTZ(9)",
                "VARIANT", "INT ARRAY", "STRING NOT NULL MULTISET NOT NULL", "BIGINT NOT NULL ARRAY");
        for (String spelling : spellings) {
            org.apache.paimon.types.DataType paimonType = DataTypeJsonParser.parseAtomicTypeSQLString(spelling);
            DataType expected = PaimonTypes.type(paimonType);
            DataType actual = parseType(spelling);
            assertThat(actual).as(spelling).isEqualTo(expected);
        }
    }

    @Test
    public void testTypeSpellingsWritten()
            throws Exception
    {
        // the schema JSON of every type is Paimon's
        List<org.apache.paimon.types.DataType> types = List.of(
                DataTypes.CHAR(1), DataTypes.VARCHAR(1), DataTypes.STRING().notNull(), DataTypes.BINARY(1), DataTypes.VARBINARY(2_147_483_646),
                DataTypes.BYTES(), DataTypes.DECIMAL(1, 0), DataTypes.TIME(9), DataTypes.TIMESTAMP(0), DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(9).notNull(),
                DataTypes.VARIANT().notNull(), DataTypes.MULTISET(DataTypes.MULTISET(DataTypes.DATE())),
                DataTypes.MAP(DataTypes.INT().notNull(), DataTypes.INT()).notNull(), DataTypes.ARRAY(DataTypes.ARRAY(DataTypes.BOOLEAN())).notNull());
        List<DataField> fields = new ArrayList<>();
        for (int i = 0; i < types.size(); i++) {
            fields.add(new DataField(i, "f" + i, types.get(i)));
        }
        org.apache.paimon.schema.TableSchema expected = new org.apache.paimon.schema.TableSchema(
                3, 4, fields, types.size() - 1, List.of(), List.of(), Map.of(), null, 12345);
        String text = org.apache.paimon.utils.JsonSerdeUtil.toJson(expected);
        TableSchema actual = SchemaJson.parse(text.getBytes(StandardCharsets.UTF_8), "schema-4");
        assertSameSchema(actual, expected);
        assertThat(SchemaJson.toJson(actual)).isEqualTo(text);
    }

    @Test
    public void testReadCompatibility()
            throws Exception
    {
        for (String json : List.of(
                "{\"id\":0,\"fields\":[],\"highestFieldId\":-1,\"partitionKeys\":[],\"primaryKeys\":[],\"options\":{}}",
                "{\"version\":1,\"id\":0,\"fields\":[],\"highestFieldId\":-1,\"partitionKeys\":[],\"primaryKeys\":[],\"options\":{\"bucket\":\"4\"}}",
                "{\"version\":2,\"id\":0,\"fields\":[],\"highestFieldId\":-1,\"partitionKeys\":[],\"primaryKeys\":[],\"options\":{\"a\":\"b\"},\"timeMillis\":5}",
                "{\"version\":2,\"id\":0,\"fields\":[],\"highestFieldId\":-1,\"partitionKeys\":[],\"primaryKeys\":[],\"options\":{\"file.format\":\"avro\"}}",
                "{\"version\":3,\"id\":0,\"fields\":[],\"highestFieldId\":-1,\"partitionKeys\":[],\"primaryKeys\":[],\"options\":{},\"extra\":{\"x\":[1]}}")) {
            org.apache.paimon.schema.TableSchema expected = org.apache.paimon.schema.TableSchema.fromJson(json);
            TableSchema actual = SchemaJson.parse(json.getBytes(StandardCharsets.UTF_8), "schema-0");
            assertSameSchema(actual, expected);
        }
        TableSchema old = SchemaJson.parse("{\"id\":0,\"fields\":[],\"highestFieldId\":-1,\"partitionKeys\":[],\"primaryKeys\":[],\"options\":{}}".getBytes(StandardCharsets.UTF_8), "schema-0");
        assertThat(old.options()).containsEntry("bucket", "1").containsEntry("file.format", "orc");
        assertThat(old.version()).isEqualTo(1);
    }

    @Test
    public void testMissingKeys()
    {
        String valid = "{\"version\":3,\"id\":0,\"fields\":[{\"id\":0,\"name\":\"a\",\"type\":\"INT\"}],\"highestFieldId\":0,\"partitionKeys\":[],\"primaryKeys\":[],\"options\":{}}";
        for (String key : List.of("id", "fields", "highestFieldId", "partitionKeys", "primaryKeys", "options")) {
            String broken = valid.replaceFirst(",?\"" + key + "\":(\\[[^]]*]|\\{}|[0-9]+)", "").replace("{,", "{");
            assertThat(broken).isNotEqualTo(valid);
            assertThatThrownBy(() -> SchemaJson.parse(broken.getBytes(StandardCharsets.UTF_8), "/t/schema/schema-0"))
                    .as(broken)
                    .isInstanceOf(CorruptFileException.class)
                    .hasMessageContaining("/t/schema/schema-0")
                    .hasMessageContaining("'" + key + "'");
        }
        String duplicate = valid.replace("[{\"id\":0,\"name\":\"a\",\"type\":\"INT\"}]", "[{\"id\":0,\"name\":\"a\",\"type\":\"INT\"},{\"id\":1,\"name\":\"a\",\"type\":\"INT\"}]");
        assertThat(duplicate).isNotEqualTo(valid);
        assertThatThrownBy(() -> SchemaJson.parse(duplicate.getBytes(StandardCharsets.UTF_8), "/t/schema/schema-0"))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("duplicate");
        for (String key : List.of("partitionKeys", "primaryKeys")) {
            String unknownKey = valid.replace("\"" + key + "\":[]", "\"" + key + "\":[\"zz\"]");
            assertThatThrownBy(() -> SchemaJson.parse(unknownKey.getBytes(StandardCharsets.UTF_8), "/t/schema/schema-0"))
                    .isInstanceOf(CorruptFileException.class)
                    .hasMessageContaining("'zz'");
        }
        assertThatThrownBy(() -> SchemaJson.parse(valid.replace("\"name\":\"a\",", "").getBytes(StandardCharsets.UTF_8), "/t/schema/schema-0"))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("'fields[0].name'");
    }

    @Test
    public void testBadTypes()
    {
        for (String type : List.of("\"FOO\"", "\"INT(\"", "\"DECIMAL(50, 2)\"", "\"TIMESTAMP(10)\"", "\"\"", "\"VARCHAR(0)\"", "\"INT NOT\"", "17",
                "{\"type\":\"ARRAY\"}", "{\"type\":\"LIST\",\"element\":\"INT\"}", "{\"type\":\"ROW\",\"fields\":{}}", "\"TIMESTAMP WITH TIME ZONE\"")) {
            String json = "{\"version\":3,\"id\":0,\"fields\":[{\"id\":0,\"name\":\"a\",\"type\":" + type + "}],\"highestFieldId\":0,\"partitionKeys\":[],\"primaryKeys\":[],\"options\":{}}";
            assertThatThrownBy(() -> SchemaJson.parse(json.getBytes(StandardCharsets.UTF_8), "/t/schema/schema-0"))
                    .as(type)
                    .isInstanceOf(CorruptFileException.class)
                    .hasMessageContaining("/t/schema/schema-0")
                    .hasMessageContaining("fields[0]");
        }
        String vector = "{\"version\":3,\"id\":0,\"fields\":[{\"id\":0,\"name\":\"a\",\"type\":\"BLOB\"}],\"highestFieldId\":0,\"partitionKeys\":[],\"primaryKeys\":[],\"options\":{}}";
        assertThatThrownBy(() -> SchemaJson.parse(vector.getBytes(StandardCharsets.UTF_8), "/t/schema/schema-0"))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("/t/schema/schema-0");
    }

    private static DataType parseType(String spelling)
            throws Exception
    {
        String json = "{\"version\":3,\"id\":0,\"fields\":[{\"id\":0,\"name\":\"a\",\"type\":\"" + spelling + "\"}],\"highestFieldId\":0,\"partitionKeys\":[],\"primaryKeys\":[],\"options\":{}}";
        return SchemaJson.parse(json.getBytes(StandardCharsets.UTF_8), "schema-0").fields().get(0).type();
    }

    private static TableSchema withOptions(TableSchema schema, Map<String, String> options)
    {
        return new TableSchema(schema.version(), schema.id(), schema.fields(), schema.highestFieldId(), schema.partitionKeys(), schema.primaryKeys(), options, schema.comment(), schema.timeMillis());
    }

    static void assertSameSchema(TableSchema actual, org.apache.paimon.schema.TableSchema expected)
    {
        assertThat(actual.version()).isEqualTo(expected.version());
        assertThat(actual.id()).isEqualTo(expected.id());
        assertThat(actual.fields()).isEqualTo(PaimonTypes.fields(expected.fields()));
        assertThat(actual.highestFieldId()).isEqualTo(expected.highestFieldId());
        assertThat(actual.partitionKeys()).isEqualTo(expected.partitionKeys());
        assertThat(actual.primaryKeys()).isEqualTo(expected.primaryKeys());
        // Paimon's in-memory map loses the file's order; the text comparisons check our order
        assertThat(actual.options()).isEqualTo(expected.options());
        assertThat(actual.comment()).isEqualTo(Optional.ofNullable(expected.comment()));
        assertThat(actual.timeMillis()).isEqualTo(expected.timeMillis());
    }
}
