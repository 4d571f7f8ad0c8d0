package io.tarn.trino;

import io.airlift.units.DataSize;
import io.airlift.units.Duration;
import io.tarn.testing.TemporaryDirectories;
import io.trino.Session;
import io.trino.execution.QueryStats;
import io.trino.spi.connector.ConnectorSession;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.QueryRunner.MaterializedResultWithPlan;
import io.trino.testing.TestingConnectorSession;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Session properties override their catalog settings for one query. The catalog here turns file
 * indexes off and does not wait for dynamic filters, so that a session turning them on shows.
 */
public class TestTarnSessionProperties
{
    private Path warehouse;
    private DistributedQueryRunner runner;

    @BeforeClass
    public void setUp()
            throws Exception
    {
        warehouse = TemporaryDirectories.create("tarn-trino-session");
        runner = TarnQueryRunner.create(warehouse, Map.of("tarn.file-index.enabled", "false", "tarn.dynamic-filtering.wait-timeout", "0s"));
        runner.execute("CREATE SCHEMA tarn.p");
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        if (runner != null) {
            runner.close();
            runner = null;
        }
        if (warehouse != null) {
            TemporaryDirectories.deleteRecursively(warehouse);
            warehouse = null;
        }
    }

    @Test
    public void testScanSettingsOverrideTheCatalog()
    {
        TarnConfig catalog = new TarnConfig()
                .setWarehouse("/w")
                .setFileIndexEnabled(false)
                .setFileIndexPlanningMaxFiles(7)
                .setDynamicFilteringWaitTimeout(new Duration(0, TimeUnit.SECONDS));
        TarnSessionProperties properties = new TarnSessionProperties(catalog);

        TarnConfig defaults = TarnSessionProperties.scanConfig(catalog, session(properties, Map.of()));
        assertThat(defaults.getSplitTargetSize()).isEqualTo(DataSize.of(128, DataSize.Unit.MEGABYTE));
        assertThat(defaults.getDynamicFilteringWaitTimeout()).isEqualTo(new Duration(0, TimeUnit.SECONDS));
        assertThat(defaults.isFileIndexEnabled()).isFalse();

        TarnConfig overridden = TarnSessionProperties.scanConfig(catalog, session(properties, Map.of(
                TarnSessionProperties.SPLIT_TARGET_SIZE, "2MB",
                TarnSessionProperties.DYNAMIC_FILTERING_WAIT_TIMEOUT, "3s",
                TarnSessionProperties.FILE_INDEX_ENABLED, true)));
        assertThat(overridden.getSplitTargetSize()).isEqualTo(DataSize.of(2, DataSize.Unit.MEGABYTE));
        assertThat(overridden.getDynamicFilteringWaitTimeout()).isEqualTo(new Duration(3, TimeUnit.SECONDS));
        assertThat(overridden.isFileIndexEnabled()).isTrue();
        assertThat(overridden.getFileIndexPlanningMaxFiles()).isEqualTo(7);
        // the catalog's settings stay as they were
        assertThat(catalog.isFileIndexEnabled()).isFalse();
        assertThat(catalog.getSplitTargetSize()).isEqualTo(DataSize.of(128, DataSize.Unit.MEGABYTE));
    }

    private static ConnectorSession session(TarnSessionProperties properties, Map<String, Object> values)
    {
        return TestingConnectorSession.builder()
                .setPropertyMetadata(properties.properties())
                .setPropertyValues(values)
                .build();
    }

    @Test
    public void testInvalidValuesAreRefused()
    {
        assertThatThrownBy(() -> runner.execute(session(Map.of(TarnSessionProperties.SPLIT_TARGET_SIZE, "1kB")), "SELECT 1"))
                .hasMessageContaining("split_target_size must be between 1MB and 8GB");
        assertThatThrownBy(() -> runner.execute(session(Map.of(TarnSessionProperties.DYNAMIC_FILTERING_WAIT_TIMEOUT, "2h")), "SELECT 1"))
                .hasMessageContaining("dynamic_filtering_wait_timeout must be at most 1.00h");
    }

    @Test
    public void testFileIndexes()
    {
        runner.execute("CREATE TABLE tarn.p.indexed (id integer, name varchar) WITH (file_index_bloom_filter_columns = ARRAY['name'])");
        // both files' min/max take in 'b'; only the first file's Bloom filter rules it out
        runner.execute("INSERT INTO tarn.p.indexed VALUES (1, 'a'), (2, 'c')");
        runner.execute("INSERT INTO tarn.p.indexed VALUES (3, 'b'), (4, 'a'), (5, 'c')");
        String query = "SELECT id FROM tarn.p.indexed WHERE name = 'b'";
        String withoutIndexes = explainAnalyze(Map.of(), query);
        assertThat(ConnectorMetrics.sum(withoutIndexes, "planning.files_skipped_embedded_index") + ConnectorMetrics.sum(withoutIndexes, "planning.files_skipped_index_file")).as(withoutIndexes).isZero();
        String withIndexes = explainAnalyze(Map.of(TarnSessionProperties.FILE_INDEX_ENABLED, "true"), query);
        assertThat(ConnectorMetrics.sum(withIndexes, "planning.files_skipped_embedded_index") + ConnectorMetrics.sum(withIndexes, "planning.files_skipped_index_file")).as(withIndexes).isEqualTo(1);
        assertThat(runner.execute(session(Map.of(TarnSessionProperties.FILE_INDEX_ENABLED, "true")), query).getOnlyValue()).isEqualTo(3);
    }

    @Test
    public void testDynamicFilteringWait()
    {
        runner.execute("CREATE TABLE tarn.p.facts AS SELECT n AS k, n * 10 AS v FROM UNNEST(sequence(1, 1000)) t(n)");
        runner.execute("CREATE TABLE tarn.p.dimension AS SELECT n AS k, CAST(n AS varchar) AS label FROM UNNEST(sequence(1, 10)) t(n)");
        String query = "SELECT sum(f.v) FROM tarn.p.facts f JOIN tarn.p.dimension d ON f.k = d.k WHERE d.label = '7'";
        // a scan this small (a few kB) is not held back for a dynamic filter: planned without it
        String small = explainAnalyze(Map.of(TarnSessionProperties.DYNAMIC_FILTERING_WAIT_TIMEOUT, "30s"), query);
        assertThat(ConnectorMetrics.sum(small, "dynamic_filter_wait_skipped_small_scan")).as(small).isEqualTo(1);
        assertThat(ConnectorMetrics.sum(small, "planning.dynamic_filter_used")).as(small).isZero();
        // any scan larger than the session's small-scan size waits, and plans with the filter
        String waited = explainAnalyze(Map.of(TarnSessionProperties.DYNAMIC_FILTERING_WAIT_TIMEOUT, "30s", TarnSessionProperties.DYNAMIC_FILTERING_SMALL_SCAN_SIZE, "0B"), query);
        assertThat(ConnectorMetrics.sum(waited, "planning.dynamic_filter_used")).as(waited).isEqualTo(1);
        assertThat(ConnectorMetrics.sum(waited, "dynamic_filter_wait_skipped_small_scan")).as(waited).isZero();
        assertThat(runner.execute(query).getOnlyValue()).isEqualTo(70L);
        assertThat(runner.execute(session(Map.of(TarnSessionProperties.DYNAMIC_FILTERING_WAIT_TIMEOUT, "30s")), query).getOnlyValue()).isEqualTo(70L);
    }

    @Test
    public void testProjectionPushdownAndPhysicalInput()
    {
        runner.execute("CREATE TABLE tarn.p.nested AS SELECT n AS id, CAST(ROW(n + 1, CAST(n AS varchar)) AS ROW(leaf1 bigint, leaf2 varchar)) AS root FROM UNNEST(sequence(1, 1000)) t(n)");
        String query = "SELECT root.leaf1 FROM tarn.p.nested";
        QueryStats pushed = stats(Map.of(), query);
        QueryStats notPushed = stats(Map.of(TarnSessionProperties.PROJECTION_PUSHDOWN_ENABLED, "false"), query);
        // the bytes read from the files, as the page sources count them
        assertThat(pushed.getPhysicalInputDataSize().toBytes()).isPositive();
        assertThat(pushed.getPhysicalInputPositions()).isEqualTo(1000);
        // the reader reads the whole ROW column either way; pushed down, the page source hands
        // Trino only the field
        assertThat(notPushed.getPhysicalInputDataSize()).isEqualTo(pushed.getPhysicalInputDataSize());
        assertThat(notPushed.getProcessedInputDataSize()).isGreaterThan(pushed.getProcessedInputDataSize());
        assertThat(runner.execute(session(Map.of(TarnSessionProperties.PROJECTION_PUSHDOWN_ENABLED, "false")), "SELECT sum(root.leaf1) FROM tarn.p.nested").getOnlyValue())
                .isEqualTo(501_500L);
    }

    private QueryStats stats(Map<String, String> properties, String query)
    {
        MaterializedResultWithPlan result = runner.executeWithPlan(session(properties), query);
        return runner.getCoordinator().getQueryManager().getFullQueryInfo(result.queryId()).getQueryStats();
    }

    private String explainAnalyze(Map<String, String> properties, String query)
    {
        return (String) runner.execute(session(properties), "EXPLAIN ANALYZE VERBOSE " + query).getOnlyValue();
    }

    private Session session(Map<String, String> properties)
    {
        Session.SessionBuilder builder = Session.builder(runner.getDefaultSession());
        properties.forEach((name, value) -> builder.setCatalogSessionProperty(TarnQueryRunner.CATALOG, name, value));
        return builder.build();
    }
}
