package io.tarn.trino;

import io.tarn.testing.TemporaryDirectories;
import io.trino.testing.BaseConnectorSmokeTest;
import io.trino.testing.QueryRunner;
import io.trino.testing.TestingConnectorBehavior;

import java.nio.file.Path;

/**
 * Trino's smoke test of a connector (JUnit 5, as Trino's testing classes are) over a warehouse
 * that holds copies of the TPC-H tiny tables.
 */
public class TestTarnConnectorSmokeTest
        extends BaseConnectorSmokeTest
{
    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        Path warehouse = TemporaryDirectories.create("tarn-trino-smoke");
        closeAfterClass(() -> TemporaryDirectories.deleteRecursively(warehouse));
        return TarnQueryRunner.createWithTpch(warehouse, REQUIRED_TPCH_TABLES);
    }

    @Override
    protected boolean hasBehavior(TestingConnectorBehavior connectorBehavior)
    {
        return TestTarnConnectorTest.hasTarnBehavior(connectorBehavior)
                .orElseGet(() -> super.hasBehavior(connectorBehavior));
    }
}
