package io.tarn.trino;

import io.tarn.testing.CanonicalRows;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.TemporaryDirectories;
import io.trino.testing.DistributedQueryRunner;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A statement that fails, or is killed, leaves nothing a reader sees: no table from a CREATE
 * TABLE AS, no rows or snapshot from an INSERT, and a retry of the same statement succeeds.
 */
public class TestTarnFailedWrites
{
    // a million rows, so that writers are busy for a while; one row fails when it is evaluated
    private static final String ROWS = "FROM UNNEST(sequence(1, 1000)) a(x) CROSS JOIN UNNEST(sequence(1, 1000)) b(y)";

    private Path warehouse;
    private DistributedQueryRunner runner;

    @BeforeClass
    public void setUp()
            throws Exception
    {
        warehouse = TemporaryDirectories.create("tarn-trino-failed-writes");
        runner = TarnQueryRunner.create(warehouse, Map.of());
        runner.execute("CREATE SCHEMA tarn.f");
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
    public void testFailedCreateTableAsLeavesNoTable()
    {
        assertThatThrownBy(() -> runner.execute("CREATE TABLE tarn.f.failed AS SELECT x, y, CASE WHEN x = 999 AND y = 999 THEN fail('boom') ELSE 'v' END AS v " + ROWS))
                .hasMessageContaining("boom");
        assertThat(runner.execute("SHOW TABLES FROM tarn.f").getOnlyColumnAsSet()).doesNotContain("failed");
        assertThatThrownBy(() -> runner.execute("SELECT count(*) FROM tarn.f.failed"))
                .hasMessageContaining("does not exist");
        assertThat(warehouse.resolve("f.db/failed/schema")).doesNotExist();
        assertThat(warehouse.resolve("f.db/failed/snapshot")).doesNotExist();

        runner.execute("CREATE TABLE tarn.f.failed AS SELECT * FROM (VALUES (1, 'retried')) t(id, v)");
        assertThat(ReferenceReader.read(warehouse, "f.failed")).isEqualTo(CanonicalRows.of(List.of("1\tretried")));
    }

    @Test
    public void testPrimaryKeyCreateTableAsIsRefusedBeforeAnythingIsWritten()
    {
        assertThatThrownBy(() -> runner.execute("CREATE TABLE tarn.f.keyed WITH (primary_key = ARRAY['id'], bucket = 1) AS SELECT * FROM (VALUES (1, 'a')) t(id, v)"))
                .hasMessageContaining("f.keyed")
                .hasMessageContaining("primary key")
                .hasMessageContaining("not supported yet");
        assertThat(warehouse.resolve("f.db/keyed")).doesNotExist();
        assertThat(runner.execute("SHOW TABLES FROM tarn.f").getOnlyColumnAsSet()).doesNotContain("keyed");
    }

    /**
     * What a CREATE TABLE AS killed mid-way leaves on disk is what it has written so far. The
     * table is watched while a large one runs: whenever its directory holds a table it already
     * holds the data files of that table, and a copy of the directory taken while files were
     * being written (as a kill would leave it) is no table, so the same CREATE TABLE AS succeeds.
     */
    @Test(timeOut = 300_000)
    public void testCreateTableAsIsInvisibleWhileWriting()
            throws Exception
    {
        Path table = warehouse.resolve("f.db/watched");
        Path killed = warehouse.resolve("f.db/killed");
        AtomicBoolean done = new AtomicBoolean();
        List<String> violations = new ArrayList<>();
        CompletableFuture<Void> watcher = CompletableFuture.runAsync(() -> {
            boolean copied = false;
            while (!done.get()) {
                boolean visible = Files.exists(table.resolve("schema/schema-0"));
                Optional<List<Path>> listed = listDataFiles(table);
                if (listed.isEmpty()) {
                    // the listing raced a writer: nothing is known of this moment
                    continue;
                }
                boolean written = !listed.get().isEmpty();
                if (visible && !written) {
                    violations.add("table visible before any data file was written");
                }
                if (written && !visible && !copied) {
                    copied = copyTree(table, killed);
                }
                Thread.onSpinWait();
            }
        });
        runner.execute("CREATE TABLE tarn.f.watched AS SELECT x, y, 'value ' || CAST(x * y AS varchar) AS v " + ROWS);
        done.set(true);
        watcher.get(60, TimeUnit.SECONDS);

        assertThat(violations).isEmpty();
        assertThat(runner.execute("SELECT count(*), sum(x * y) FROM tarn.f.watched").getMaterializedRows().get(0).getFields())
                .containsExactly(1_000_000L, 250_500_250_000L);
        assertThat(killed).as("the writers' files were seen before the table existed").isDirectory();
        assertThat(dataFiles(killed)).isNotEmpty();
        assertThat(runner.execute("SHOW TABLES FROM tarn.f").getOnlyColumnAsSet()).contains("watched").doesNotContain("killed");

        runner.execute("CREATE TABLE tarn.f.killed AS SELECT * FROM (VALUES (7, 'after the kill')) t(id, v)");
        assertThat(ReferenceReader.read(warehouse, "f.killed")).isEqualTo(CanonicalRows.of(List.of("7\tafter the kill")));
    }

    @Test
    public void testFailedInsertLeavesNoSnapshot()
    {
        runner.execute("CREATE TABLE tarn.f.appended (x integer, y integer, v varchar)");
        runner.execute("INSERT INTO tarn.f.appended VALUES (1, 2, 'kept')");
        CanonicalRows before = ReferenceReader.read(warehouse, "f.appended");
        assertThatThrownBy(() -> runner.execute("INSERT INTO tarn.f.appended SELECT x, y, CASE WHEN x = 999 AND y = 999 THEN fail('boom') ELSE 'v' END " + ROWS))
                .hasMessageContaining("boom");
        assertThat(ReferenceReader.read(warehouse, "f.appended")).isEqualTo(before);
        assertThat(runner.execute("SELECT count(*) FROM tarn.f.\"appended$snapshots\"").getOnlyValue()).isEqualTo(1L);
    }

    private static List<Path> dataFiles(Path table)
    {
        return listDataFiles(table).orElse(List.of());
    }

    /**
     * The data files under {@code table}, or empty when a writer renamed or deleted a file while
     * they were listed (a listing that failed says nothing, not that there are none).
     */
    private static Optional<List<Path>> listDataFiles(Path table)
    {
        if (!Files.isDirectory(table)) {
            return Optional.of(List.of());
        }
        try (Stream<Path> paths = Files.walk(table)) {
            return Optional.of(paths.filter(path -> path.getFileName().toString().endsWith(".parquet")).toList());
        }
        catch (IOException | UncheckedIOException e) {
            return Optional.empty();
        }
    }

    /**
     * Copies the directory as it is now; false (and no copy) when a writer changed it meanwhile.
     */
    private static boolean copyTree(Path source, Path target)
    {
        try (Stream<Path> paths = Files.walk(source)) {
            for (Path path : paths.toList()) {
                Path copy = target.resolve(source.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(copy);
                }
                else {
                    Files.copy(path, copy);
                }
            }
            return true;
        }
        catch (IOException | UncheckedIOException e) {
            TemporaryDirectories.deleteRecursively(target);
            return false;
        }
    }
}
