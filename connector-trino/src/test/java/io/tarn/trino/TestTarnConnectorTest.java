package io.tarn.trino;

import io.tarn.testing.TemporaryDirectories;
import io.trino.testing.BaseConnectorTest;
import io.trino.testing.QueryRunner;
import io.trino.testing.TestingConnectorBehavior;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Trino's conformance test of a connector (JUnit 5, as Trino's testing classes are): a
 * coordinator and two workers over a warehouse that holds copies of the TPC-H tiny tables.
 * {@link #hasTarnBehavior} says what Tarn supports; every other override of the base class
 * states why Tarn differs.
 */
public class TestTarnConnectorTest
        extends BaseConnectorTest
{
    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        Path warehouse = TemporaryDirectories.create("tarn-trino-conformance");
        closeAfterClass(() -> TemporaryDirectories.deleteRecursively(warehouse));
        return TarnQueryRunner.createWithTpch(warehouse, REQUIRED_TPCH_TABLES);
    }

    @Override
    protected boolean hasBehavior(TestingConnectorBehavior connectorBehavior)
    {
        return hasTarnBehavior(connectorBehavior).orElseGet(() -> super.hasBehavior(connectorBehavior));
    }

    /**
     * What Tarn supports where Trino's default assumption differs; empty where the default holds.
     */
    static Optional<Boolean> hasTarnBehavior(TestingConnectorBehavior connectorBehavior)
    {
        return switch (connectorBehavior) {
            // writes append files; there is no row-level write path (deletion vectors are read only)
            case SUPPORTS_DELETE, SUPPORTS_UPDATE, SUPPORTS_MERGE, SUPPORTS_TRUNCATE -> Optional.of(false);
            // only a TupleDomain is pushed down, never an expression or a TopN
            case SUPPORTS_PREDICATE_EXPRESSION_PUSHDOWN, SUPPORTS_TOPN_PUSHDOWN -> Optional.of(false);
            // only count(*) is answered from the manifests, no other aggregate
            case SUPPORTS_AGGREGATION_PUSHDOWN -> Optional.of(false);
            // split enumeration waits for dynamic filters and page sources apply them
            case SUPPORTS_DYNAMIC_FILTER_PUSHDOWN -> Optional.of(true);
            // a database is a directory; renaming it is not implemented
            case SUPPORTS_RENAME_SCHEMA -> Optional.of(false);
            // Paimon has no replace; a table is dropped and created again
            case SUPPORTS_CREATE_OR_REPLACE_TABLE -> Optional.of(false);
            // comments are set at CREATE TABLE and ADD COLUMN only
            case SUPPORTS_COMMENT_ON_TABLE, SUPPORTS_COMMENT_ON_COLUMN -> Optional.of(false);
            // only top-level columns change; nested fields and types stay as created
            case SUPPORTS_ADD_FIELD, SUPPORTS_DROP_FIELD, SUPPORTS_RENAME_FIELD, SUPPORTS_SET_COLUMN_TYPE -> Optional.of(false);
            // the filesystem catalog stores tables only
            case SUPPORTS_CREATE_VIEW, SUPPORTS_CREATE_MATERIALIZED_VIEW -> Optional.of(false);
            // NOT NULL is kept in the schema but never dropped by ALTER TABLE
            case SUPPORTS_DROP_NOT_NULL_CONSTRAINT -> Optional.of(false);
            // Paimon dates start at 0000-01-01
            case SUPPORTS_NEGATIVE_DATE -> Optional.of(false);
            // there is no query pass-through
            case SUPPORTS_NATIVE_QUERY -> Optional.of(false);
            default -> Optional.empty();
        };
    }
}
