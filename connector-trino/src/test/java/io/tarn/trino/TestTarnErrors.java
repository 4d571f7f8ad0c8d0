package io.tarn.trino;

import io.tarn.testing.ParquetFooterEdits;
import io.tarn.testing.ReferenceTables;
import io.tarn.testing.TemporaryDirectories;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Bad tables through SQL: each failure is a Trino error with a Tarn error code and a message
 * naming the table and the file.
 */
public class TestTarnErrors
{
    private Path warehouse;
    private DistributedQueryRunner runner;

    @BeforeClass
    public void setUp()
            throws Exception
    {
        warehouse = TemporaryDirectories.create("tarn-trino-errors");
        ReferenceTables.create(warehouse, ReferenceTables.APPEND_BUCKETED);
        ReferenceTables.create(warehouse, ReferenceTables.APPEND_DATE_PARTITIONED);
        ReferenceTables.create(warehouse, ReferenceTables.APPEND_NESTED);
        runner = TarnQueryRunner.create(warehouse, Map.of());
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
    public void testCorruptDataFile()
            throws IOException
    {
        Path file = dataFiles("append_bucketed").get(0);
        byte[] garbage = new byte[(int) Files.size(file)];
        java.util.Arrays.fill(garbage, (byte) 0x5a);
        Files.write(file, garbage);
        assertFails("SELECT * FROM append_bucketed", "TARN_CORRUPT_FILE", "append_bucketed", file.getFileName().toString());
    }

    /**
     * The footer case: in a table Tarn wrote, the footer of a data file gives column
     * {@code id} another field id. The read fails naming the file instead of returning the column
     * as NULLs (before, {@code count(*) FILTER (WHERE id IS NULL)} returned 1000). The queries read
     * the column: a filter {@code id IS NULL} alone is answered from the manifest's null counts
     * without opening the file.
     */
    @Test
    public void testFooterWithAChangedFieldIdIsCorrupt()
            throws IOException
    {
        runner.execute("CREATE TABLE changed_field_id AS SELECT CAST(x AS INTEGER) AS id, 'name-' || CAST(x AS VARCHAR) AS name FROM UNNEST(sequence(0, 999)) AS t(x)");
        assertThat(runner.execute("SELECT count(id), count(*) FROM changed_field_id").getMaterializedRows().get(0).getFields()).containsExactly(1000L, 1000L);
        Path file = dataFiles("changed_field_id").get(0);
        int fieldId = ParquetFooterEdits.changeFieldId(file, "id", 1000);
        assertFails("SELECT count(id) FROM changed_field_id", "TARN_CORRUPT_FILE", "changed_field_id", file.getFileName().toString(), "field id " + fieldId);
        assertFails("SELECT count(*) FILTER (WHERE id IS NULL OR id > 10) FROM changed_field_id", "TARN_CORRUPT_FILE", "changed_field_id", file.getFileName().toString());
    }

    @Test
    public void testMissingDataFile()
            throws IOException
    {
        Path file = dataFiles("append_date_partitioned").get(0);
        Files.delete(file);
        assertFails("SELECT * FROM append_date_partitioned", "TARN_MISSING_FILE", "append_date_partitioned", file.getFileName().toString());
    }

    @Test
    public void testUnsupportedSnapshotVersion()
            throws IOException
    {
        Path snapshotDirectory = warehouse.resolve("ref.db/append_nested/snapshot");
        Path latest;
        try (Stream<Path> files = Files.list(snapshotDirectory)) {
            latest = files.filter(path -> path.getFileName().toString().startsWith("snapshot-"))
                    .max((left, right) -> Long.compare(snapshotId(left), snapshotId(right)))
                    .orElseThrow();
        }
        String json = Files.readString(latest, StandardCharsets.UTF_8);
        Files.writeString(latest, json.replaceFirst("\"version\"\\s*:\\s*3", "\"version\" : 99"), StandardCharsets.UTF_8);
        assertFails("SELECT * FROM append_nested", "TARN_UNSUPPORTED_FEATURE", "append_nested", latest.getFileName().toString());
    }

    @Test
    public void testUnknownSnapshotAndTag()
    {
        assertFails("SELECT * FROM append_nested FOR VERSION AS OF 12345", "TARN_UNKNOWN_SNAPSHOT", "append_nested", "12345");
        assertFails("SELECT * FROM append_nested FOR VERSION AS OF 'missing_tag'", "TARN_UNKNOWN_SNAPSHOT", "append_nested", "missing_tag");
    }

    private static long snapshotId(Path file)
    {
        return Long.parseLong(file.getFileName().toString().substring("snapshot-".length()));
    }

    private List<Path> dataFiles(String table)
            throws IOException
    {
        try (Stream<Path> files = Files.walk(warehouse.resolve("ref.db").resolve(table))) {
            return files.filter(path -> path.getFileName().toString().endsWith(".parquet")).sorted().toList();
        }
    }

    private void assertFails(String query, String errorCode, String... messageParts)
    {
        assertThatThrownBy(() -> runner.execute(query))
                .satisfies(failure -> {
                    for (String part : messageParts) {
                        assertThat(failure).hasMessageContaining(part);
                    }
                });
        MaterializedResult failures = runner.execute("SELECT error_code FROM system.runtime.queries WHERE query = '" + query.replace("'", "''") + "' AND state = 'FAILED'");
        assertThat(failures.getOnlyColumnAsSet()).contains(errorCode);
    }
}
