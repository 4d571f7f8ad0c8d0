package io.tarn.cli;

import io.tarn.testing.CanonicalRows;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.TemporaryDirectories;
import org.apache.hadoop.conf.Configuration;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.types.DataTypes;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

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
    @SuppressWarnings("try") // Paimon's close() declares Exception
    public void createTable()
            throws Exception
    {
        warehouse = TemporaryDirectories.create("tarn-cli-row-tracking");
        try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(
                Options.fromMap(Map.of("warehouse", warehouse.toAbsolutePath().toUri().toString())), new Configuration()))) {
            catalog.createDatabase("ref", true);
            Identifier identifier = Identifier.create("ref", "tracked");
            catalog.createTable(identifier, Schema.newBuilder()
                    .column("id", DataTypes.INT())
                    .column("name", DataTypes.STRING())
                    .option("row-tracking.enabled", "true")
                    .build(), false);
            FileStoreTable table = (FileStoreTable) catalog.getTable(identifier);
            for (int commit = 0; commit < 3; commit++) {
                BatchWriteBuilder builder = table.newBatchWriteBuilder();
                try (BatchTableWrite write = builder.newWrite(); BatchTableCommit committer = builder.newCommit()) {
                    for (int i = 0; i <= commit; i++) {
                        write.write(GenericRow.of(commit * 10 + i, BinaryString.fromString("row " + commit + "-" + i)));
                    }
                    committer.commit(write.prepareCommit());
                }
            }
        }
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
