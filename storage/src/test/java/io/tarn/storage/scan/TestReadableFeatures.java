package io.tarn.storage.scan;

import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.schema.TableSchema;
import io.tarn.types.DataField;
import io.tarn.types.DataTypes;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestReadableFeatures
{
    @DataProvider
    public Object[][] refused()
    {
        return new Object[][] {
                {"type", "format-table"},
                {"type", "lance-table"},
                {"data-evolution.enabled", "true"},
                {"chain-table.enabled", "true"},
                {"scan.fallback-branch", "fallback"},
                {"scan.primary-branch", "primary"},
                {"scan.fallback-snapshot-branch", "snapshots"},
                {"scan.fallback-delta-branch", "deltas"},
                {"blob-field", "picture"},
                {"blob-descriptor-field", "picture"},
                {"blob-external-storage-field", "picture"},
                {"blob-as-descriptor", "true"},
                {"vector-field", "embedding"},
                {"vector.file.format", "lance"},
                {"variant.shreddingSchema", "{}"},
                {"variant.inferShreddingSchema", "true"},
                {"pk-clustering-override", "true"},
                {"row-tracking.enabled", "yes"},
                {"file.format", "lance"},
                {"file.format", "vortex"},
                {"file.format", "csv"},
                {"file.format.per.level", "0:avro,3:lance"},
        };
    }

    @Test(dataProvider = "refused")
    public void testRefusedOptions(String key, String value)
    {
        assertThatThrownBy(() -> ReadableFeatures.checkOptions("db.t", schema(Map.of(key, value))))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageStartingWith("Table db.t sets option " + key + " = '" + value + "' (")
                .hasMessageContaining("which Tarn does not read");
    }

    @DataProvider
    public Object[][] read()
    {
        return new Object[][] {
                {"type", "table"},
                {"type", "MATERIALIZED-TABLE"},
                {"data-evolution.enabled", "false"},
                {"row-tracking.enabled", "true"},
                {"row-tracking.enabled", "false"},
                {"chain-table.enabled", "FALSE"},
                {"scan.fallback-branch", " "},
                {"file.format", "parquet"},
                {"file.format", "ORC"},
                {"file.format", "avro"},
                {"file.format.per.level", "0:avro,3:parquet"},
                {"deletion-vectors.modifiable", "true"},
                {"postpone.batch-write-fixed-bucket", "false"},
        };
    }

    @Test(dataProvider = "read")
    public void testReadOptions(String key, String value)
    {
        assertThatCode(() -> ReadableFeatures.checkOptions("db.t", schema(Map.of(key, value)))).doesNotThrowAnyException();
    }

    @Test
    public void testDataFileExtensions()
            throws Exception
    {
        for (String name : List.of("data-1-0.parquet", "data-1-0.orc", "data-1-0.avro", "data-1-0.zstd.PARQUET")) {
            ReadableFeatures.checkDataFile("db.t", name);
        }
        for (String name : List.of("data-1-0.lance", "data-1-0.vortex", "data-1-0.blob", "data-1-0.csv.gz", "data-1-0")) {
            assertThatThrownBy(() -> ReadableFeatures.checkDataFile("db.t", name))
                    .isInstanceOf(UnsupportedTableFeatureException.class)
                    .hasMessageContaining("db.t")
                    .hasMessageContaining(name);
        }
    }

    private static TableSchema schema(Map<String, String> options)
    {
        return new TableSchema(3, 0, List.of(new DataField(0, "id", DataTypes.integer())), 0, List.of(), List.of(), options, Optional.empty(), 0);
    }
}
