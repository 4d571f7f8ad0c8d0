package io.tarn.cli;

import io.tarn.testing.CanonicalRows;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.TemporaryDirectories;
import org.apache.hadoop.conf.Configuration;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.types.DataTypes;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code tarn dump --where} on DOUBLE and FLOAT columns of a table Apache Paimon wrote (its
 * Parquet statistics, Bloom filter index on {@code d} and bitmap index on {@code r}), one commit
 * per group of values so that files hold only -0.0, only 0.0 with other values, and NaN with
 * NULL. The expected rows are Paimon's own unfiltered rows, kept by evaluating the predicate on
 * the values written with Java's operators (SQL's rules: -0.0 = 0.0, NaN equal to nothing).
 */
public class TestDumpFloatingPointFilters
{
    private static final String TABLE = "ref.signed_zero";
    // id, d, r: written in three commits
    private static final List<List<Object[]>> COMMITS = List.of(
            List.of(new Object[] {1, -0.0, -0.0f}, new Object[] {2, -0.0, -0.0f}),
            List.of(new Object[] {3, 0.0, 0.0f}, new Object[] {4, 1.0, 1.0f}, new Object[] {5, 2.5, -2.5f}),
            List.of(new Object[] {6, Double.NaN, Float.NaN}, new Object[] {7, null, null}, new Object[] {8, -1.0, Float.MIN_VALUE}, new Object[] {9, -0.0, 0.0f}));

    private Path warehouse;

    @BeforeClass
    public void createTable()
            throws Exception
    {
        warehouse = TemporaryDirectories.create("tarn-cli-floats");
        Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(
                Options.fromMap(Map.of("warehouse", warehouse.toAbsolutePath().toUri().toString())), new Configuration()));
        catalog.createDatabase("ref", true);
        Identifier identifier = Identifier.create("ref", "signed_zero");
        catalog.createTable(identifier, Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("d", DataTypes.DOUBLE())
                .column("r", DataTypes.FLOAT())
                .option("bucket", "-1")
                .option("file-index.bloom-filter.columns", "d")
                .option("file-index.bitmap.columns", "r")
                .build(), false);
        Table table = catalog.getTable(identifier);
        for (List<Object[]> commit : COMMITS) {
            BatchWriteBuilder builder = table.newBatchWriteBuilder();
            try (BatchTableWrite write = builder.newWrite(); BatchTableCommit committer = builder.newCommit()) {
                for (Object[] row : commit) {
                    write.write(GenericRow.of(row));
                }
                committer.commit(write.prepareCommit());
            }
        }
        catalog.close();
    }

    @AfterClass(alwaysRun = true)
    public void deleteTable()
    {
        TemporaryDirectories.deleteRecursively(warehouse);
    }

    @Test
    public void testWhereComparesFloatingPointAsSql()
    {
        checkDump("d = 0", (d, r) -> d != null && d == 0);
        checkDump("d = -0.0", (d, r) -> d != null && d == -0.0);
        checkDump("d IN (0, 7)", (d, r) -> d != null && (d == 0 || d == 7));
        checkDump("r = 0", (d, r) -> r != null && r == 0);
        checkDump("r = -0.0", (d, r) -> r != null && r == -0.0f);
        checkDump("r IN (0)", (d, r) -> r != null && r == 0);
        checkDump("d >= 0", (d, r) -> d != null && d >= 0);
        checkDump("d <= -0.0", (d, r) -> d != null && d <= -0.0);
        checkDump("d < 0", (d, r) -> d != null && d < 0);
        checkDump("d > -0.0", (d, r) -> d != null && d > -0.0);
        checkDump("d <> 0", (d, r) -> d != null && d != 0);
        checkDump("d NOT IN (0, 1)", (d, r) -> d != null && d != 0 && d != 1);
        checkDump("r > 0", (d, r) -> r != null && r > 0);
        checkDump("d NOT BETWEEN -0.0 AND 0", (d, r) -> d != null && !(d >= -0.0 && d <= 0));
        checkDump("d NOT BETWEEN 1 AND 3", (d, r) -> d != null && !(d >= 1 && d <= 3));
        checkDump("r NOT BETWEEN -1 AND 1", (d, r) -> r != null && !(r >= -1 && r <= 1));
        checkDump("d BETWEEN -0.0 AND 0", (d, r) -> d != null && d >= -0.0 && d <= 0);
    }

    private void checkDump(String where, BiPredicate<Double, Float> expected)
    {
        Set<String> ids = COMMITS.stream()
                .flatMap(List::stream)
                .filter(row -> expected.test((Double) row[1], (Float) row[2]))
                .map(row -> row[0].toString())
                .collect(Collectors.toSet());
        List<String> lines = new ArrayList<>();
        for (String line : ReferenceReader.read(warehouse, TABLE).lines()) {
            if (ids.contains(line.substring(0, line.indexOf('\t')))) {
                lines.add(line);
            }
        }
        assertThat(lines).as("rows of Paimon's for %s", where).hasSize(ids.size());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exitCode = new TarnCli(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8))
                .run(List.of("dump", "--warehouse", warehouse.toString(), "--where", where, TABLE));
        assertThat(exitCode).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).as("dump --where \"%s\"", where).isEqualTo(CanonicalRows.of(lines).text());
    }
}
