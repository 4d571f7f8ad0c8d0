package io.tarn.cli;

import io.tarn.testing.CanonicalRows;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.RowTrackingTables;
import io.tarn.testing.TemporaryDirectories;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code tarn dump --columns} reads {@code _ROW_ID} and {@code _SEQUENCE_NUMBER} of a table that
 * tracks rows, with the values of Paimon's row-tracking view.
 */
public class TestDumpRowTracking
{
    private Path warehouse;
    private List<String> expected;

    @BeforeClass
    public void createTable()
    {
        warehouse = TemporaryDirectories.create("tarn-cli-row-tracking");
        RowTrackingTables.write(warehouse, "ref.tracked", 3, 2);
        // Paimon's row-tracking view: id, name, _ROW_ID, _SEQUENCE_NUMBER
        expected = ReferenceReader.readWithRowTracking(warehouse, "ref.tracked").lines().stream()
                .map(line -> line.split("\t", -1))
                .map(values -> values[0] + "\t" + values[2] + "\t" + values[3])
                .toList();
    }

    @AfterClass(alwaysRun = true)
    public void deleteTable()
    {
        TemporaryDirectories.deleteRecursively(warehouse);
    }

    @Test
    public void testDumpReadsRowTrackingColumns()
    {
        assertThat(expected).hasSize(6);
        TestTarnCli.Result result = TestTarnCli.run("dump", "--warehouse", warehouse.toString(), "--columns", "id,_ROW_ID,_SEQUENCE_NUMBER", "ref.tracked");
        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out()).isEqualTo(CanonicalRows.of(expected).text());
    }

    @Test
    public void testUnknownColumnNamesTheRowTrackingColumns()
    {
        TestTarnCli.Result result = TestTarnCli.run("dump", "--warehouse", warehouse.toString(), "--columns", "id,_ROW_IDS", "ref.tracked");
        assertThat(result.exitCode()).isNotZero();
        assertThat(result.err()).contains("Unknown column '_ROW_IDS'").contains("_ROW_ID, _SEQUENCE_NUMBER");
    }
}
