package io.tarn.trino;

import io.tarn.testing.CanonicalRows;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.TemporaryDirectories;
import io.trino.testing.DistributedQueryRunner;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Schemas and table names through SQL: DROP SCHEMA, names longer than a file name, and Trino's
 * wording where a statement is refused.
 */
public class TestTarnSchemas
{
    private Path warehouse;
    private DistributedQueryRunner runner;

    @BeforeClass
    public void setUp()
            throws Exception
    {
        warehouse = TemporaryDirectories.create("tarn-trino-schemas");
        runner = TarnQueryRunner.create(warehouse, Map.of());
        runner.execute("CREATE SCHEMA tarn.s");
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
    public void testDropSchema()
    {
        runner.execute("CREATE SCHEMA tarn.dropped");
        runner.execute("CREATE TABLE tarn.dropped.t AS SELECT 1 AS id");
        assertThatThrownBy(() -> runner.execute("DROP SCHEMA tarn.dropped"))
                .hasMessageEndingWith("Cannot drop non-empty schema 'dropped'");
        assertThat(runner.execute("SELECT * FROM tarn.dropped.t").getOnlyValue()).isEqualTo(1);

        runner.execute("DROP TABLE tarn.dropped.t");
        runner.execute("DROP SCHEMA tarn.dropped");
        assertThat(runner.execute("SHOW SCHEMAS FROM tarn").getOnlyColumnAsSet()).doesNotContain("dropped");
        assertThat(warehouse.resolve("dropped.db")).doesNotExist();
        assertThatThrownBy(() -> runner.execute("DROP SCHEMA tarn.dropped"))
                .hasMessageContaining("Schema 'tarn.dropped' does not exist");
    }

    @Test
    public void testDropSchemaCascade()
            throws Exception
    {
        runner.execute("CREATE SCHEMA tarn.cascaded");
        runner.execute("CREATE TABLE tarn.cascaded.a AS SELECT 1 AS id");
        runner.execute("CREATE TABLE tarn.cascaded.b (id integer)");
        // cached by the read, which must not answer for the table once it is gone
        assertThat(runner.execute("SELECT * FROM tarn.cascaded.a").getOnlyValue()).isEqualTo(1);
        // a link in the database leads outside the warehouse: deleted, never followed
        Path outside = Files.createTempDirectory("tarn-outside");
        Files.writeString(outside.resolve("keep"), "keep");
        Files.createSymbolicLink(warehouse.resolve("cascaded.db/a/link"), outside);

        runner.execute("DROP SCHEMA tarn.cascaded CASCADE");
        assertThat(runner.execute("SHOW SCHEMAS FROM tarn").getOnlyColumnAsSet()).doesNotContain("cascaded");
        assertThat(warehouse.resolve("cascaded.db")).doesNotExist();
        assertThat(outside.resolve("keep")).hasContent("keep");
        TemporaryDirectories.deleteRecursively(outside);

        // the same names again start empty
        runner.execute("CREATE SCHEMA tarn.cascaded");
        runner.execute("CREATE TABLE tarn.cascaded.a (id integer, name varchar)");
        assertThat(runner.execute("SELECT count(*) FROM tarn.cascaded.a").getOnlyValue()).isEqualTo(0L);
        assertThat(runner.execute("SHOW COLUMNS FROM tarn.cascaded.a").getRowCount()).isEqualTo(2);
        runner.execute("DROP SCHEMA tarn.cascaded CASCADE");
    }

    @Test
    public void testNamesLongerThanAFileName()
    {
        String longestTable = "t".repeat(255);
        runner.execute("CREATE TABLE tarn.s.%s (id integer)".formatted(longestTable));
        runner.execute("INSERT INTO tarn.s.%s VALUES 7".formatted(longestTable));
        assertThat(ReferenceReader.read(warehouse, "s." + longestTable)).isEqualTo(CanonicalRows.of(List.of("7")));
        for (String sql : List.of(
                "CREATE TABLE tarn.s.%s (id integer)".formatted("t".repeat(256)),
                "CREATE TABLE tarn.s.%s AS SELECT 1 AS id".formatted("t".repeat(256)),
                "ALTER TABLE tarn.s.%s RENAME TO tarn.s.%s".formatted(longestTable, "u".repeat(256)))) {
            assertThatThrownBy(() -> runner.execute(sql))
                    .as(sql)
                    .hasMessageContaining("256 bytes long in UTF-8, longer than the 255 bytes a table name may have")
                    .hasMessageNotContaining("File name too long");
        }
        assertThat(runner.execute("SHOW TABLES FROM tarn.s").getOnlyColumnAsSet()).contains(longestTable).noneMatch(name -> name.toString().length() > 255);

        runner.execute("CREATE SCHEMA tarn.%s".formatted("d".repeat(252)));
        assertThatThrownBy(() -> runner.execute("CREATE SCHEMA tarn.%s".formatted("d".repeat(253))))
                .hasMessageContaining("253 bytes long in UTF-8, longer than the 252 bytes a database name may have")
                .hasMessageNotContaining("File name too long");
        runner.execute("DROP SCHEMA tarn.%s".formatted("d".repeat(252)));
    }

    @Test
    public void testRefusalsInTrinosWords()
    {
        assertThatThrownBy(() -> runner.execute("CREATE TABLE tarn.missing.t (id integer)"))
                .hasMessageEndingWith("Schema missing not found");
        assertThatThrownBy(() -> runner.execute("CREATE TABLE tarn.missing.t AS SELECT 1 AS id"))
                .hasMessageEndingWith("Schema missing not found");
        runner.execute("CREATE TABLE tarn.s.kept AS SELECT 1 AS id");
        assertThatThrownBy(() -> runner.execute("CREATE OR REPLACE TABLE tarn.s.kept (id integer)"))
                .hasMessage("This connector does not support replacing tables");
        assertThatThrownBy(() -> runner.execute("CREATE OR REPLACE TABLE tarn.s.kept AS SELECT 2 AS id"))
                .hasMessage("This connector does not support replacing tables");
        assertThat(runner.execute("SELECT * FROM tarn.s.kept").getOnlyValue()).isEqualTo(1);
        assertThatThrownBy(() -> runner.execute("CREATE TABLE tarn.s.t6 (t time(6))"))
                .hasMessageStartingWith("Unsupported type: time(6)");
    }
}
