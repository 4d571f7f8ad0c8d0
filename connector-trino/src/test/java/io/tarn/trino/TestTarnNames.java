package io.tarn.trino;

import io.tarn.testing.CanonicalRows;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.TemporaryDirectories;
import io.trino.testing.DistributedQueryRunner;
import org.apache.hadoop.conf.Configuration;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
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

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * How SQL names map to the names stored in the warehouse: Trino lower-cases identifiers while
 * other Paimon tools store them as written, {@code $} is Trino's metadata-table separator, and a
 * column type must be one the reader can read back.
 */
public class TestTarnNames
{
    private Path warehouse;
    private DistributedQueryRunner runner;

    @BeforeClass
    public void setUp()
            throws Exception
    {
        warehouse = TemporaryDirectories.create("tarn-trino-names");
        Map<String, String> options = Map.of("warehouse", warehouse.toUri().toString());
        // written by Apache Paimon's filesystem catalog, which keeps names as written
        try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(Options.fromMap(options), new Configuration()))) {
            catalog.createDatabase("UPPER", false);
            catalog.createDatabase("mixed", false);
            catalog.createDatabase("Dup", false);
            catalog.createDatabase("dup", false);
            writePaimonTable(catalog, Identifier.create("UPPER", "OnlyUpper"), List.of(GenericRow.of(1, BinaryString.fromString("upper one")), GenericRow.of(2, null)));
            writePaimonTable(catalog, Identifier.create("mixed", "MixedCase"), List.of(GenericRow.of(10, BinaryString.fromString("from MixedCase"))));
            writePaimonTable(catalog, Identifier.create("mixed", "mixedcase"), List.of(GenericRow.of(20, BinaryString.fromString("from mixedcase"))));
            writePaimonTable(catalog, Identifier.create("mixed", "Single"), List.of(GenericRow.of(30, BinaryString.fromString("single"))));
            writePaimonTable(catalog, Identifier.create("Dup", "t"), List.of(GenericRow.of(40, BinaryString.fromString("Dup"))));
            writePaimonTable(catalog, Identifier.create("dup", "t"), List.of(GenericRow.of(50, BinaryString.fromString("dup"))));
        }
        runner = TarnQueryRunner.create(warehouse, Map.of());
        runner.execute("CREATE SCHEMA tarn.s");
    }

    @SuppressWarnings("try") // Paimon's close() declares Exception
    private static void writePaimonTable(Catalog catalog, Identifier identifier, List<GenericRow> rows)
            throws Exception
    {
        catalog.createTable(identifier, Schema.newBuilder().column("id", DataTypes.INT()).column("name", DataTypes.STRING()).build(), false);
        Table table = catalog.getTable(identifier);
        BatchWriteBuilder builder = table.newBatchWriteBuilder();
        try (BatchTableWrite write = builder.newWrite(); BatchTableCommit commit = builder.newCommit()) {
            for (GenericRow row : rows) {
                write.write(row);
            }
            commit.commit(write.prepareCommit());
        }
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
    public void testUpperCaseNamesWrittenByPaimonAreListedAndQueryable()
    {
        assertThat(Files.isDirectory(warehouse.resolve("UPPER.db/OnlyUpper"))).isTrue();
        assertThat(runner.execute("SHOW SCHEMAS FROM tarn").getOnlyColumnAsSet()).contains("upper", "mixed");
        assertThat(runner.execute("SHOW TABLES FROM tarn.upper").getOnlyColumnAsSet()).contains("onlyupper").doesNotContain("OnlyUpper");
        CanonicalRows expected = ReferenceReader.read(warehouse, "UPPER.OnlyUpper");
        assertThat(expected.lines()).hasSize(2);
        assertThat(TrinoCanonicalRows.of(runner.execute("SELECT * FROM tarn.upper.onlyupper"))).isEqualTo(expected);
        assertThat(TrinoCanonicalRows.of(runner.execute("SELECT * FROM tarn.UPPER.OnlyUpper"))).isEqualTo(expected);
        assertThat(runner.execute("SELECT count(*) FROM tarn.upper.\"onlyupper$snapshots\"").getOnlyValue()).isEqualTo(1L);
        assertThat(runner.execute("SELECT column_name FROM tarn.information_schema.columns WHERE table_schema = 'upper' AND table_name = 'onlyupper'").getOnlyColumnAsSet())
                .containsExactlyInAnyOrder("id", "name");

        // writes go to the stored table, and new tables into the stored database, as Paimon sees them
        runner.execute("INSERT INTO tarn.upper.onlyupper VALUES (3, 'from trino')");
        assertThat(ReferenceReader.read(warehouse, "UPPER.OnlyUpper")).isEqualTo(TrinoCanonicalRows.of(runner.execute("SELECT * FROM tarn.upper.onlyupper")));
        assertThat(ReferenceReader.read(warehouse, "UPPER.OnlyUpper").lines()).hasSize(3);
        runner.execute("CREATE TABLE tarn.upper.created AS SELECT 7 AS id");
        assertThat(ReferenceReader.read(warehouse, "UPPER.created")).isEqualTo(CanonicalRows.of(List.of("7")));
        assertThatThrownBy(() -> runner.execute("CREATE TABLE tarn.upper.OnlyUpper (id integer)"))
                .hasMessageContaining("already exists");
        assertThatThrownBy(() -> runner.execute("CREATE SCHEMA tarn.upper"))
                .hasMessageContaining("already exists");
    }

    @Test
    public void testNamesDifferingOnlyInCaseAreAnAmbiguityError()
    {
        assertThat(ReferenceReader.read(warehouse, "mixed.MixedCase")).isEqualTo(CanonicalRows.of(List.of("10\tfrom MixedCase")));
        assertThat(ReferenceReader.read(warehouse, "mixed.mixedcase")).isEqualTo(CanonicalRows.of(List.of("20\tfrom mixedcase")));
        assertThat(runner.execute("SHOW TABLES FROM tarn.mixed").getOnlyColumnAsSet()).containsExactlyInAnyOrder("mixedcase", "single");
        for (String sql : List.of(
                "SELECT * FROM tarn.mixed.mixedcase",
                "SELECT * FROM tarn.mixed.MixedCase",
                "INSERT INTO tarn.mixed.mixedcase VALUES (1, 'x')",
                "SELECT * FROM tarn.mixed.\"mixedcase$snapshots\"",
                "DROP TABLE tarn.mixed.mixedcase",
                "CREATE TABLE tarn.mixed.mixedcase (id integer)")) {
            assertThatThrownBy(() -> runner.execute(sql))
                    .as(sql)
                    .hasMessageContaining("Table name 'mixedcase' is ambiguous")
                    .hasMessageContaining("'MixedCase' and 'mixedcase'");
        }
        // both tables are still there with their own rows
        assertThat(ReferenceReader.read(warehouse, "mixed.MixedCase")).isEqualTo(CanonicalRows.of(List.of("10\tfrom MixedCase")));
        assertThat(ReferenceReader.read(warehouse, "mixed.mixedcase")).isEqualTo(CanonicalRows.of(List.of("20\tfrom mixedcase")));
        assertThat(TrinoCanonicalRows.of(runner.execute("SELECT * FROM tarn.mixed.single"))).isEqualTo(ReferenceReader.read(warehouse, "mixed.Single"));

        for (String sql : List.of("SHOW TABLES FROM tarn.dup", "SELECT * FROM tarn.dup.t")) {
            assertThatThrownBy(() -> runner.execute(sql))
                    .as(sql)
                    .hasMessageContaining("Database name 'dup' is ambiguous")
                    .hasMessageContaining("'Dup' and 'dup'");
        }
    }

    @Test
    public void testDollarIsRefusedInNewNames()
    {
        assertThatThrownBy(() -> runner.execute("CREATE TABLE tarn.s.\"x$y\" (id integer)"))
                .hasMessageContaining("Invalid table name 'x$y'")
                .hasMessageContaining("'$'");
        assertThatThrownBy(() -> runner.execute("CREATE TABLE tarn.s.\"x$z\" AS SELECT 1 AS id"))
                .hasMessageContaining("Invalid table name 'x$z'");
        assertThatThrownBy(() -> runner.execute("CREATE SCHEMA tarn.\"a$b\""))
                .hasMessageContaining("Invalid database name 'a$b'");
        runner.execute("CREATE TABLE tarn.s.renamed AS SELECT 5 AS id");
        assertThatThrownBy(() -> runner.execute("ALTER TABLE tarn.s.renamed RENAME TO tarn.s.\"r$w\""))
                .hasMessageContaining("Invalid table name 'r$w'");
        assertThat(warehouse.resolve("s.db/r$w")).doesNotExist();
        runner.execute("ALTER TABLE tarn.s.renamed RENAME TO tarn.upper.renamed_again");
        assertThat(ReferenceReader.read(warehouse, "UPPER.renamed_again")).isEqualTo(CanonicalRows.of(List.of("5")));
        assertThat(warehouse.resolve("s.db/renamed")).doesNotExist();
        assertThatThrownBy(() -> runner.execute("ALTER TABLE tarn.upper.renamed_again RENAME TO tarn.upper.OnlyUpper"))
                .hasMessageContaining("already exists");
        assertThat(runner.execute("SHOW TABLES FROM tarn.s").getOnlyColumnAsSet()).doesNotContain("x$y", "x$z", "r$w");
        assertThat(runner.execute("SHOW SCHEMAS FROM tarn").getOnlyColumnAsSet()).doesNotContain("a$b");
        assertThat(warehouse.resolve("s.db/x$y")).doesNotExist();
        assertThat(warehouse.resolve("a$b.db")).doesNotExist();
    }

    @Test
    public void testColumnsNestedDeeperThanTheReaderReadsAreRefused()
    {
        // an ARRAY takes two Parquet schema levels; the reader reads 64, so 31 arrays is the deepest
        runner.execute("CREATE TABLE tarn.s.deep31 AS SELECT %s AS a".formatted(nestedArray(31)));
        assertThat(runner.execute("SELECT count(*) FROM tarn.s.deep31 WHERE a = %s".formatted(nestedArray(31))).getOnlyValue()).isEqualTo(1L);
        assertThat(ReferenceReader.read(warehouse, "s.deep31")).isEqualTo(CanonicalRows.of(List.of("[".repeat(31) + "1" + "]".repeat(31))));

        assertThatThrownBy(() -> runner.execute("CREATE TABLE tarn.s.deep32 AS SELECT %s AS a".formatted(nestedArray(32))))
                .hasMessageContaining("Cannot create table s.deep32: column 'a'")
                .hasMessageContaining("nests 65 levels deep in Parquet; at most 64 levels can be read back");
        assertThatThrownBy(() -> runner.execute("CREATE TABLE tarn.s.deep_map (m map(integer, %s))".formatted(nestedArrayType(31))))
                .hasMessageContaining("column 'm'");
        assertThat(runner.execute("SHOW TABLES FROM tarn.s LIKE 'deep%'").getOnlyColumnAsSet()).containsExactly("deep31");

        assertThatThrownBy(() -> runner.execute("ALTER TABLE tarn.s.deep31 ADD COLUMN b " + nestedArrayType(32)))
                .hasMessageContaining("column 'b'")
                .hasMessageContaining("at most 64 levels can be read back");
        runner.execute("ALTER TABLE tarn.s.deep31 ADD COLUMN c " + nestedArrayType(31));
        assertThat(runner.execute("SELECT count(*) FROM tarn.s.deep31 WHERE c IS NULL").getOnlyValue()).isEqualTo(1L);
    }

    private static String nestedArray(int depth)
    {
        return "ARRAY[".repeat(depth) + "1" + "]".repeat(depth);
    }

    private static String nestedArrayType(int depth)
    {
        return "array(".repeat(depth) + "integer" + ")".repeat(depth);
    }
}
