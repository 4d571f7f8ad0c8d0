package io.tarn.trino;

import io.trino.Session;
import io.trino.plugin.tpch.TpchPlugin;
import io.trino.testing.DistributedQueryRunner;
import io.trino.tpch.TpchTable;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.trino.testing.TestingSession.testSessionBuilder;

/**
 * A coordinator and two workers with the Tarn plugin installed as catalog {@code tarn} over a
 * warehouse directory; schema {@code ref} (the reference tables' database) by default.
 */
final class TarnQueryRunner
{
    static final String CATALOG = "tarn";

    private TarnQueryRunner() {}

    static DistributedQueryRunner create(Path warehouse, Map<String, String> extraCatalogProperties)
            throws Exception
    {
        return create(warehouse, extraCatalogProperties, Map.of());
    }

    /**
     * With {@code serverProperties} over the runner's defaults ({@code query.max-memory-per-node}
     * 256MB) on every node.
     */
    static DistributedQueryRunner create(Path warehouse, Map<String, String> extraCatalogProperties, Map<String, String> serverProperties)
            throws Exception
    {
        return create(warehouse, extraCatalogProperties, serverProperties, "ref");
    }

    /**
     * With schema {@code tpch} by default, holding copies of the given TPC-H tiny tables made by
     * CREATE TABLE AS from Trino's {@code tpch} catalog, as Trino's connector tests expect.
     */
    static DistributedQueryRunner createWithTpch(Path warehouse, List<TpchTable<?>> tables)
            throws Exception
    {
        DistributedQueryRunner runner = create(warehouse, Map.of(), Map.of(), "tpch");
        try {
            runner.installPlugin(new TpchPlugin());
            runner.createCatalog("tpch", "tpch", Map.of());
            runner.execute("CREATE SCHEMA " + CATALOG + ".tpch");
            for (TpchTable<?> table : tables) {
                runner.execute("CREATE TABLE %s.tpch.%s AS SELECT * FROM tpch.tiny.%<s".formatted(CATALOG, table.getTableName()));
            }
            return runner;
        }
        catch (RuntimeException e) {
            runner.close();
            throw e;
        }
    }

    /**
     * A runner over a warehouse on an object store; {@code catalogProperties} say how to reach it.
     */
    static DistributedQueryRunner createOnObjectStore(String warehouse, Map<String, String> catalogProperties)
            throws Exception
    {
        return create(warehouse, catalogProperties, Map.of(), "ref");
    }

    private static DistributedQueryRunner create(Path warehouse, Map<String, String> extraCatalogProperties, Map<String, String> serverProperties, String defaultSchema)
            throws Exception
    {
        return create(warehouse.toString(), extraCatalogProperties, serverProperties, defaultSchema);
    }

    private static DistributedQueryRunner create(String warehouse, Map<String, String> extraCatalogProperties, Map<String, String> serverProperties, String defaultSchema)
            throws Exception
    {
        Map<String, String> server = new HashMap<>(Map.of("query.max-memory-per-node", "256MB"));
        server.putAll(serverProperties);
        Session session = testSessionBuilder()
                .setCatalog(CATALOG)
                .setSchema(defaultSchema)
                .build();
        DistributedQueryRunner runner = DistributedQueryRunner.builder(session)
                .setWorkerCount(2)
                .setExtraProperties(server)
                .build();
        try {
            runner.installPlugin(new TarnPlugin());
            Map<String, String> properties = new HashMap<>(extraCatalogProperties);
            properties.put("warehouse", warehouse);
            properties.putIfAbsent("metastore", "filesystem");
            runner.createCatalog(CATALOG, TarnConnectorFactory.NAME, properties);
            return runner;
        }
        catch (RuntimeException e) {
            runner.close();
            throw e;
        }
    }
}
