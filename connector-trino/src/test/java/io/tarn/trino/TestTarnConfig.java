package io.tarn.trino;

import io.airlift.units.DataSize;
import io.airlift.units.Duration;
import io.trino.spi.TrinoException;
import org.testng.annotations.Test;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.airlift.configuration.testing.ConfigAssertions.assertFullMapping;
import static io.airlift.configuration.testing.ConfigAssertions.assertRecordedDefaults;
import static io.airlift.configuration.testing.ConfigAssertions.recordDefaults;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestTarnConfig
{
    @Test
    public void testDefaults()
    {
        assertRecordedDefaults(recordDefaults(TarnConfig.class)
                .setWarehouse(null)
                .setMetastore(null)
                .setSpillDirectory(null)
                .setSplitTargetSize(DataSize.of(128, DataSize.Unit.MEGABYTE))
                .setDynamicFilteringWaitTimeout(new Duration(1, TimeUnit.SECONDS))
                .setDynamicFilteringSmallScanSize(DataSize.of(32, DataSize.Unit.MEGABYTE))
                .setFileIndexEnabled(true)
                .setCollectStatisticsOnWrite(true)
                .setProjectionPushdownEnabled(true)
                .setFileIndexPlanningMaxFiles(1000)
                .setMetadataCacheSize(1000)
                .setMetadataCacheTtl(new Duration(1, TimeUnit.MINUTES))
                .setManifestCacheSize(DataSize.of(64, DataSize.Unit.MEGABYTE))
                .setMaxConcurrentFileReads(64)
                .setReaderMaxMemory(DataSize.ofBytes(Runtime.getRuntime().maxMemory() / 4).succinct()));
    }

    @Test
    public void testExplicitPropertyMappings()
    {
        Map<String, String> properties = Map.ofEntries(
                Map.entry("warehouse", "/data/warehouse"),
                Map.entry("metastore", "filesystem"),
                Map.entry("tarn.spill-directory", "/data/spill"),
                Map.entry("tarn.split-target-size", "32MB"),
                Map.entry("tarn.dynamic-filtering.wait-timeout", "5s"),
                Map.entry("tarn.dynamic-filtering.small-scan-size", "1MB"),
                Map.entry("tarn.file-index.enabled", "false"),
                Map.entry("tarn.collect-statistics-on-write", "false"),
                Map.entry("tarn.projection-pushdown-enabled", "false"),
                Map.entry("tarn.file-index.planning-max-files", "5"),
                Map.entry("tarn.metadata-cache.size", "10"),
                Map.entry("tarn.metadata-cache.ttl", "30s"),
                Map.entry("tarn.manifest-cache.size", "16MB"),
                Map.entry("tarn.max-concurrent-file-reads", "8"),
                Map.entry("tarn.reader.max-memory", "96MB"));
        TarnConfig expected = new TarnConfig()
                .setWarehouse("/data/warehouse")
                .setMetastore("filesystem")
                .setSpillDirectory("/data/spill")
                .setSplitTargetSize(DataSize.of(32, DataSize.Unit.MEGABYTE))
                .setDynamicFilteringWaitTimeout(new Duration(5, TimeUnit.SECONDS))
                .setDynamicFilteringSmallScanSize(DataSize.of(1, DataSize.Unit.MEGABYTE))
                .setFileIndexEnabled(false)
                .setCollectStatisticsOnWrite(false)
                .setProjectionPushdownEnabled(false)
                .setFileIndexPlanningMaxFiles(5)
                .setMetadataCacheSize(10)
                .setMetadataCacheTtl(new Duration(30, TimeUnit.SECONDS))
                .setManifestCacheSize(DataSize.of(16, DataSize.Unit.MEGABYTE))
                .setMaxConcurrentFileReads(8)
                .setReaderMaxMemory(DataSize.of(96, DataSize.Unit.MEGABYTE));
        assertFullMapping(properties, expected);
    }

    @Test
    public void testPaimonFilesystemCatalogPropertiesBind()
    {
        TarnConfig config = TarnConnectorFactory.bind("paimon", Map.of("warehouse", "/tmp/warehouse", "metastore", "filesystem"));
        assertThat(config.getWarehouse()).isEqualTo("/tmp/warehouse");
    }

    @Test
    public void testUnsupportedMetastoreIsAStartUpError()
    {
        for (String metastore : new String[] {"hive", "jdbc", "rest"}) {
            assertThatThrownBy(() -> TarnConnectorFactory.bind("paimon", Map.of("warehouse", "/tmp/warehouse", "metastore", metastore)))
                    .isInstanceOf(TrinoException.class)
                    .hasMessageContaining("metastore must be 'filesystem'")
                    .hasMessageContaining("not supported yet");
        }
    }

    @Test
    public void testMissingWarehouse()
    {
        assertThatThrownBy(() -> TarnConnectorFactory.bind("tarn", Map.of()))
                .isInstanceOf(TrinoException.class)
                .hasMessageContaining("warehouse is required");
    }

    @Test
    public void testUnknownPropertyIsAnError()
    {
        assertThatThrownBy(() -> TarnConnectorFactory.bind("tarn", Map.of("warehouse", "/tmp/w", "tarn.no-such-setting", "1")))
                .isInstanceOf(TrinoException.class)
                .hasMessageContaining("tarn.no-such-setting");
    }

    @Test
    public void testInvalidValues()
    {
        assertThatThrownBy(() -> TarnConnectorFactory.bind("tarn", Map.of("warehouse", "/tmp/w", "tarn.max-concurrent-file-reads", "0")))
                .isInstanceOf(TrinoException.class)
                .hasMessageContaining("maxConcurrentFileReads");
        assertThatThrownBy(() -> TarnConnectorFactory.bind("tarn", Map.of("warehouse", "/tmp/w", "tarn.split-target-size", "1kB")))
                .isInstanceOf(TrinoException.class)
                .hasMessageContaining("splitTargetSize");
    }

    @Test
    public void testWarehouseMustExist()
    {
        assertThatThrownBy(() -> TarnConnector.warehouseDirectory("tarn", "/no/such/warehouse"))
                .isInstanceOf(TrinoException.class)
                .hasMessageContaining("does not exist");
        assertThatThrownBy(() -> TarnConnector.warehouseDirectory("tarn", "hdfs://namenode/warehouse"))
                .isInstanceOf(TrinoException.class)
                .hasMessageContaining("local directories (a path or a file: URI) and object stores");
        assertThatThrownBy(() -> TarnConnector.warehouse("tarn", "s3://bucket/warehouse", Map.of("s3.path-style-access", "maybe")))
                .isInstanceOf(TrinoException.class)
                .hasMessageContaining("Catalog tarn: s3.path-style-access must be true or false: maybe");
    }

    @Test
    public void testStoragePropertiesAreKeptApart()
    {
        Map<String, String> paimonCatalogFile = Map.of(
                "warehouse", "s3://bucket/warehouse",
                "fs.native-s3.enabled", "true",
                "s3.endpoint", "http://127.0.0.1:9000",
                "s3.access-key", "a",
                "s3.secret-key", "s");
        assertThat(TarnConnectorFactory.bind("paimon", paimonCatalogFile).getWarehouse()).isEqualTo("s3://bucket/warehouse");
        assertThat(TarnConnectorFactory.storageProperties(paimonCatalogFile)).containsOnlyKeys("fs.native-s3.enabled", "s3.endpoint", "s3.access-key", "s3.secret-key");
        assertThatThrownBy(() -> TarnConnectorFactory.bind("tarn", Map.of("warehouse", "s3://b/w", "s3.endpiont", "http://x")))
                .isInstanceOf(TrinoException.class)
                .hasMessageContaining("Unknown properties of Tarn catalog 'tarn': s3.endpiont");
    }
}
