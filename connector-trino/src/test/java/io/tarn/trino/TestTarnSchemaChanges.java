package io.tarn.trino;

import io.tarn.testing.CanonicalRows;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.TemporaryDirectories;
import io.trino.testing.DistributedQueryRunner;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * ALTER TABLE ... ADD COLUMN through SQL: positions, NOT NULL, and changes that race; results
 * read back by Apache Paimon.
 */
public class TestTarnSchemaChanges
{
    private Path warehouse;
    private DistributedQueryRunner runner;

    @BeforeClass
    public void setUp()
            throws Exception
    {
        warehouse = TemporaryDirectories.create("tarn-trino-schema-changes");
        runner = TarnQueryRunner.create(warehouse, Map.of());
        runner.execute("CREATE SCHEMA tarn.c");
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
    public void testAddColumnAtPosition()
    {
        runner.execute("CREATE TABLE tarn.c.positions AS SELECT 2 AS second, 4 AS fourth");
        runner.execute("ALTER TABLE tarn.c.positions ADD COLUMN first integer FIRST");
        runner.execute("ALTER TABLE tarn.c.positions ADD COLUMN third varchar AFTER second");
        runner.execute("ALTER TABLE tarn.c.positions ADD COLUMN fifth integer LAST");
        runner.execute("INSERT INTO tarn.c.positions VALUES (10, 20, 'thirty', 40, 50)");
        assertThat(columns("positions")).containsExactly("first", "second", "third", "fourth", "fifth");
        // Paimon reads the new order, and files written before hold none of the new columns
        CanonicalRows expected = CanonicalRows.of(List.of("\\N\t2\t\\N\t4\t\\N", "10\t20\tthirty\t40\t50"));
        assertThat(ReferenceReader.read(warehouse, "c.positions")).isEqualTo(expected);
        assertThat(TrinoCanonicalRows.of(runner.execute("SELECT * FROM tarn.c.positions"))).isEqualTo(expected);
        assertThatThrownBy(() -> runner.execute("ALTER TABLE tarn.c.positions ADD COLUMN sixth integer AFTER nothing"))
                .hasMessageContaining("nothing");
    }

    @Test
    public void testAddNotNullColumn()
    {
        runner.execute("CREATE TABLE tarn.c.empty_nn (a varchar)");
        runner.execute("ALTER TABLE tarn.c.empty_nn ADD COLUMN b varchar NOT NULL");
        assertThat(runner.execute("SELECT is_nullable FROM tarn.information_schema.columns WHERE table_schema = 'c' AND table_name = 'empty_nn' AND column_name = 'b'").getOnlyValue())
                .isEqualTo("NO");
        assertThatThrownBy(() -> runner.execute("INSERT INTO tarn.c.empty_nn VALUES ('a', NULL)"))
                .hasMessageContaining("NULL value not allowed for NOT NULL column: b");
        runner.execute("INSERT INTO tarn.c.empty_nn VALUES ('a', 'b')");
        assertThat(ReferenceReader.read(warehouse, "c.empty_nn")).isEqualTo(CanonicalRows.of(List.of("a\tb")));

        // rows written before would read the column as null: refused, never silently nullable
        runner.execute("CREATE TABLE tarn.c.full_nn AS SELECT 'a' AS a");
        assertThatThrownBy(() -> runner.execute("ALTER TABLE tarn.c.full_nn ADD COLUMN b varchar NOT NULL"))
                .hasMessage("Unable to add NOT NULL column 'b' for non-empty table: c.full_nn");
        assertThat(columns("full_nn")).containsExactly("a");
    }

    @Test
    public void testRefusedChangesKeepTheirErrorCodes()
    {
        runner.execute("CREATE TABLE tarn.c.refusals (id integer, p varchar) WITH (partitioned_by = ARRAY['p'])");
        runner.execute("INSERT INTO tarn.c.refusals VALUES (1, 'a')");
        assertFailsWithCode("ALTER TABLE tarn.c.refusals ADD COLUMN x integer NOT NULL", "NOT_SUPPORTED",
                "Unable to add NOT NULL column 'x' for non-empty table: c.refusals");
        assertFailsWithCode("ALTER TABLE tarn.c.refusals DROP COLUMN p", "TARN_UNSUPPORTED_FEATURE",
                "Cannot drop column 'p' of table c.refusals: it is a partition, primary or bucket key");
        assertFailsWithCode("ALTER TABLE tarn.c.refusals RENAME COLUMN p TO q", "TARN_UNSUPPORTED_FEATURE",
                "Cannot rename column 'p' of table c.refusals: it is a partition, primary or bucket key");
        assertThat(columns("refusals")).containsExactly("id", "p");
    }

    private void assertFailsWithCode(String query, String errorCode, String message)
    {
        assertThatThrownBy(() -> runner.execute(query)).hasMessage(message);
        assertThat(runner.execute("SELECT error_code FROM system.runtime.queries WHERE query = '%s' AND state = 'FAILED'".formatted(query.replace("'", "''"))).getOnlyColumnAsSet())
                .contains(errorCode);
    }

    @Test
    public void testConcurrentAddColumns()
            throws Exception
    {
        runner.execute("CREATE TABLE tarn.c.racing (id integer)");
        int threads = 4;
        // every thread adds its own column, and all of them one that only one of them can add
        List<String> statements = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            statements.add("ALTER TABLE tarn.c.racing ADD COLUMN col%s integer".formatted(i));
            statements.add("ALTER TABLE tarn.c.racing ADD COLUMN shared integer");
        }
        CyclicBarrier barrier = new CyclicBarrier(statements.size());
        ExecutorService executor = Executors.newFixedThreadPool(statements.size());
        try {
            List<Future<String>> results = new ArrayList<>();
            for (String statement : statements) {
                results.add(executor.submit(() -> {
                    barrier.await(30, TimeUnit.SECONDS);
                    try {
                        runner.execute(statement);
                        return "ok";
                    }
                    catch (RuntimeException e) {
                        return e.getMessage();
                    }
                }));
            }
            List<String> outcomes = new ArrayList<>();
            for (Future<String> result : results) {
                outcomes.add(result.get(60, TimeUnit.SECONDS));
            }
            for (int i = 0; i < threads; i++) {
                assertThat(outcomes.get(2 * i)).as(statements.get(2 * i)).isEqualTo("ok");
            }
            List<String> shared = List.of(outcomes.get(1), outcomes.get(3), outcomes.get(5), outcomes.get(7));
            assertThat(shared).filteredOn("ok"::equals).hasSize(1);
            // refused by Trino when the column was there at analysis, else by the retried change
            assertThat(shared).filteredOn(outcome -> !outcome.equals("ok"))
                    .allSatisfy(outcome -> assertThat(outcome).containsAnyOf("Column 'shared' already exists", "already has a column 'shared'"));
        }
        finally {
            executor.shutdownNow();
            assertThat(executor.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(columns("racing")).containsExactlyInAnyOrder("id", "col0", "col1", "col2", "col3", "shared");
        runner.execute("INSERT INTO tarn.c.racing (id, col2, shared) VALUES (1, 2, 3)");
        assertThat(runner.execute("SELECT col2 + shared FROM tarn.c.racing").getOnlyValue()).isEqualTo(5);
    }

    private List<Object> columns(String table)
    {
        return runner.execute("SELECT column_name FROM tarn.information_schema.columns WHERE table_schema = 'c' AND table_name = '%s' ORDER BY ordinal_position".formatted(table))
                .getOnlyColumn()
                .toList();
    }
}
