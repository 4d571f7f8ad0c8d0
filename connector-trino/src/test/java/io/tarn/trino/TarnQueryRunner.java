package io.tarn.trino;

import io.trino.Session;
import io.trino.testing.DistributedQueryRunner;

import java.nio.file.Path;
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
        Session session = testSessionBuilder()
                .setCatalog(CATALOG)
                .setSchema("ref")
                .build();
        DistributedQueryRunner runner = DistributedQueryRunner.builder(session)
                .setWorkerCount(2)
                .addExtraProperty("query.max-memory-per-node", "256MB")
                .build();
        try {
            runner.installPlugin(new TarnPlugin());
            Map<String, String> properties = new java.util.HashMap<>(extraCatalogProperties);
            properties.put("warehouse", warehouse.toString());
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
