package io.tarn.trino;

import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.testing.TemporaryDirectories;
import io.trino.Session;
import io.trino.testing.BaseConnectorTest;
import io.trino.testing.QueryRunner;
import io.trino.testing.TestingConnectorBehavior;
import io.trino.testing.sql.TestTable;

import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.abort;

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

    @Override
    protected void verifyVersionedQueryFailurePermissible(Exception e)
    {
        // Tarn time-travels (snapshot id, tag, timestamp) and refuses other types and unknown versions in its own words
        assertThat(e).hasMessageMatching(
                "FOR VERSION AS OF on .* takes a snapshot id or a tag name, not a .*" +
                        "|FOR TIMESTAMP AS OF on .* takes a timestamp, not a .*" +
                        "|Cannot read table .* at .*");
    }

    @Override
    protected void verifyAddNotNullColumnToNonEmptyTableFailurePermissible(Throwable e)
    {
        // a NOT NULL column is added to an empty table only: older rows would read it as null
        assertThat(e).hasMessageMatching("Unable to add NOT NULL column '.*' for non-empty table: .*");
    }

    @Override
    protected String errorMessageForInsertIntoNotNullColumn(String columnName)
    {
        // Trino enforces NOT NULL before the page sink sees a row
        return "NULL value not allowed for NOT NULL column: " + columnName;
    }

    @Override
    protected String errorMessageForCreateTableAsSelectNegativeDate(String date)
    {
        // Paimon's DATE starts at 0000-01-01; the writer refuses what it cannot store
        return "Cannot write date value .* into column dt of table .*: Paimon's DATE ranges from 0000-01-01 to 9999-12-31";
    }

    @Override
    protected String errorMessageForInsertNegativeDate(String date)
    {
        // as for CREATE TABLE AS
        return errorMessageForCreateTableAsSelectNegativeDate(date);
    }

    @Override
    protected TestTable createTableWithDefaultColumns()
    {
        // Trino 476's CREATE TABLE cannot declare column defaults, and Tarn writes none
        return abort("Tarn does not create columns with default values");
    }

    @Override
    protected Session withoutSmallFileThreshold(Session session)
    {
        // Tarn reads a small file like any other: there is no threshold to lift
        return session;
    }

    @Override
    protected boolean supportsPhysicalPushdown()
    {
        // a dereferenced ROW field is cut from the ROW column after it is read whole: projection
        // pushdown saves Trino the other fields, not the reader their bytes
        return false;
    }

    @Override
    protected OptionalInt maxSchemaNameLength()
    {
        // a database is the directory <name>.db: a file name of at most 255 bytes
        return OptionalInt.of(FileSystemCatalog.MAX_DATABASE_NAME_BYTES);
    }

    @Override
    protected void verifySchemaNameLengthFailurePermissible(Throwable e)
    {
        // refused before anything is created
        assertThat(e).hasMessageContaining("longer than the %s bytes a database name may have".formatted(FileSystemCatalog.MAX_DATABASE_NAME_BYTES));
    }

    @Override
    protected OptionalInt maxTableNameLength()
    {
        // a table is a directory: a file name of at most 255 bytes
        return OptionalInt.of(FileSystemCatalog.MAX_TABLE_NAME_BYTES);
    }

    @Override
    protected void verifyTableNameLengthFailurePermissible(Throwable e)
    {
        // refused before anything is created or moved
        assertThat(e).hasMessageContaining("longer than the %s bytes a table name may have".formatted(FileSystemCatalog.MAX_TABLE_NAME_BYTES));
    }

    @Override
    protected Optional<DataMappingTestSetup> filterDataMappingSmokeTestData(DataMappingTestSetup dataMappingTestSetup)
    {
        // Paimon keeps TIME values as milliseconds, so CREATE TABLE refuses a finer TIME
        if (dataMappingTestSetup.getTrinoTypeName().equals("time(6)")) {
            return Optional.of(dataMappingTestSetup.asUnsupported());
        }
        return Optional.of(dataMappingTestSetup);
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
            // Paimon schemas hold no column defaults (Trino 483 added them to the SPI)
            case SUPPORTS_DEFAULT_COLUMN_VALUE, SUPPORTS_SET_DEFAULT_COLUMN_VALUE, SUPPORTS_DROP_DEFAULT_COLUMN_VALUE -> Optional.of(false);
            // applyLimit narrows the splits read but does not guarantee the limit, so Trino keeps its Limit
            case SUPPORTS_LIMIT_PUSHDOWN -> Optional.of(false);
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
