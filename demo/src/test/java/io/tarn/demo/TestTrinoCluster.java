package io.tarn.demo;

import io.tarn.s3server.S3ProxyServer;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.ReferenceTable;
import io.tarn.testing.ReferenceTables;
import io.tarn.testing.TemporaryDirectories;
import io.trino.jdbc.TrinoResultSet;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real Trino cluster over a warehouse on an object store: a coordinator and a worker, two
 * server processes started by Trino's launcher, with the Tarn plugin reading the reference tables
 * Apache Paimon wrote from a real S3-compatible server (S3Proxy on 127.0.0.1). Answers equal the
 * oracle's, and the tasks of a query run on both nodes.
 */
public class TestTrinoCluster
{
    private static final List<ReferenceTable> TABLES = List.of(ReferenceTables.APPEND_PARTITIONED, ReferenceTables.APPEND_BUCKETED, ReferenceTables.PK_DV);

    private Path directory;
    private Path local;
    private S3ProxyServer objectStore;
    private TrinoCluster cluster;

    @BeforeClass
    public void startCluster()
            throws IOException
    {
        directory = TemporaryDirectories.create("tarn-cluster");
        local = directory.resolve("warehouse");
        for (ReferenceTable table : TABLES) {
            ReferenceTables.create(local, table);
        }
        objectStore = S3ProxyServer.start(directory.resolve("s3"));
        objectStore.copyIntoBucket(local, "tarn-lake", "warehouse");
        Map<String, String> catalog = new LinkedHashMap<>();
        catalog.put("connector.name", "tarn");
        catalog.put("warehouse", "s3://tarn-lake/warehouse");
        catalog.putAll(objectStore.clientProperties());
        Path plugin = Path.of(System.getProperty("tarn.plugin.dir", "../connector-trino/target/tarn-plugin"));
        assertThat(plugin.resolve(".")).as("Tarn plugin directory (package connector-trino first)").isDirectory();
        cluster = TrinoCluster.start(TrinoInstallation.fromSystemProperties(), TrinoServerConfig.in(directory.resolve("coordinator"))
                .withPlugin("tarn", plugin)
                .withCatalog("tarn", catalog)
                .withJvmOptions(List.of("-XX:TieredStopAtLevel=1")), directory.resolve("worker"), Duration.ofMinutes(4));
    }

    @AfterClass(alwaysRun = true)
    public void stopCluster()
            throws IOException
    {
        try {
            if (cluster != null) {
                cluster.stop();
            }
        }
        finally {
            if (objectStore != null) {
                objectStore.close();
            }
            TemporaryDirectories.deleteRecursively(directory);
        }
    }

    @Test
    public void testReadsFromS3EqualPaimonsOnTwoNodes()
            throws Exception
    {
        assertThat(cluster.activeNodes()).isEqualTo(2);
        for (ReferenceTable table : TABLES) {
            assertThat(TestTrinoServer.canonical(cluster.coordinator().query("SELECT * FROM tarn." + table.identifier())).text())
                    .as(table.identifier())
                    .isEqualTo(ReferenceReader.read(local, table.identifier()).text());
        }
    }

    @Test
    public void testTasksRunOnBothNodes()
            throws Exception
    {
        try (Connection connection = cluster.coordinator().connect();
                Statement statement = connection.createStatement()) {
            String queryId;
            long groups = 0;
            // a grouped aggregation has a hash-partitioned stage, with a task on every node
            try (ResultSet rows = statement.executeQuery("SELECT id % 7, count(*) FROM tarn." + ReferenceTables.APPEND_BUCKETED.identifier() + " GROUP BY 1")) {
                while (rows.next()) {
                    groups++;
                }
                queryId = rows.unwrap(TrinoResultSet.class).getQueryId();
            }
            assertThat(groups).isPositive();
            try (ResultSet nodes = statement.executeQuery("SELECT count(DISTINCT node_id) FROM system.runtime.tasks WHERE query_id = '" + queryId + "'")) {
                assertThat(nodes.next()).isTrue();
                assertThat(nodes.getLong(1)).as("nodes that ran tasks of " + queryId).isEqualTo(2);
            }
        }
    }
}
