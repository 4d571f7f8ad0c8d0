package io.tarn.demo;

import io.tarn.testing.CanonicalRows;
import io.tarn.testing.CanonicalValueFormatter;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.ReferenceTable;
import io.tarn.testing.ReferenceTables;
import io.tarn.testing.TemporaryDirectories;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.IOException;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Date;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Tarn plugin in a real Trino server (the one module {@code demo-server} lays out, started by
 * its launcher with JDK 25) over reference tables written by Apache Paimon: answers through
 * trino-jdbc and through Trino's CLI equal the oracle's rows; the server stops by its pid.
 */
public class TestTrinoServer
{
    private static final List<ReferenceTable> TABLES = List.of(
            ReferenceTables.APPEND_PARTITIONED,
            ReferenceTables.APPEND_DATE_PARTITIONED,
            ReferenceTables.APPEND_BUCKETED,
            ReferenceTables.APPEND_FILE_INDEX,
            ReferenceTables.APPEND_ZORDER);

    private Path directory;
    private Path warehouse;
    private TrinoInstallation installation;
    private TrinoServer server;

    @BeforeClass
    public void startServer()
            throws IOException
    {
        directory = TemporaryDirectories.create("tarn-real-server");
        warehouse = directory.resolve("warehouse");
        for (ReferenceTable table : TABLES) {
            ReferenceTables.create(warehouse, table);
        }
        installation = TrinoInstallation.fromSystemProperties();
        Path plugin = Path.of(System.getProperty("tarn.plugin.dir", "../connector-trino/target/tarn-plugin"));
        assertThat(plugin.resolve(".")).as("Tarn plugin directory (package connector-trino first)").isDirectory();
        server = TrinoServer.start(installation, TrinoServerConfig.in(directory.resolve("server"))
                .withPlugin("tarn", plugin)
                .withTarnCatalog("tarn", warehouse)
                // C1 only: the test's few small queries do not pay back C2's compile time, and start-up is 40% shorter on 2 cores
                .withJvmOptions(List.of("-XX:TieredStopAtLevel=1")), Duration.ofMinutes(3));
    }

    @AfterClass(alwaysRun = true)
    public void stopServer()
            throws IOException
    {
        if (server != null) {
            server.stop();
        }
        TemporaryDirectories.deleteRecursively(directory);
    }

    @DataProvider
    public Object[][] tables()
    {
        return TABLES.stream().map(table -> new Object[] {table}).toArray(Object[][]::new);
    }

    /**
     * Runs first: a table scan right after start-up. With static catalogs the coordinator knew no
     * node serving the catalog for its first seconds, so 'SELECT 1' answered while this failed with
     * "No nodes available to run query".
     */
    @Test(priority = -1)
    public void testTableScanRightAfterStart()
            throws Exception
    {
        long expected = ReferenceReader.read(warehouse, ReferenceTables.APPEND_PARTITIONED.identifier()).lines().size();
        assertThat(server.query("SELECT count(*) FROM tarn." + ReferenceTables.APPEND_PARTITIONED.identifier()))
                .isEqualTo(List.of(List.of(expected)));
    }

    @Test(dataProvider = "tables")
    public void testSelectAllThroughJdbc(ReferenceTable table)
            throws Exception
    {
        CanonicalRows actual = canonical(server.query("SELECT * FROM tarn." + table.identifier()));
        assertThat(actual.text()).isEqualTo(ReferenceReader.read(warehouse, table.identifier()).text());
    }

    @Test
    public void testFilterAndProjectionThroughJdbc()
            throws Exception
    {
        // partition filter (dt, region) plus a data filter on id; the oracle's rows filtered and projected by hand
        CanonicalRows actual = canonical(server.query(
                "SELECT id, name FROM tarn.ref.append_partitioned WHERE dt = '2024-01-01' AND region = 1 AND id > 3"));
        List<String> expected = new ArrayList<>();
        for (String line : ReferenceReader.read(warehouse, "ref.append_partitioned").lines()) {
            String[] fields = line.split("\t", -1);
            if (fields[0].equals("2024-01-01") && fields[1].equals("1") && Integer.parseInt(fields[2]) > 3) {
                expected.add(fields[2] + "\t" + fields[3]);
            }
        }
        assertThat(expected).isNotEmpty();
        assertThat(actual.text()).isEqualTo(CanonicalRows.of(expected).text());
    }

    @Test
    public void testAggregationThroughCli()
            throws Exception
    {
        List<String> oracle = ReferenceReader.read(warehouse, "ref.append_file_index").lines();
        long count = oracle.size();
        long sum = oracle.stream().map(line -> line.split("\t", -1)[3]).filter(Predicate.not("\\N"::equals)).mapToLong(Long::parseLong).sum();
        long nullCategories = oracle.stream().filter(line -> line.split("\t", -1)[2].equals("\\N")).count();

        TrinoCli.Result result = new TrinoCli(installation, server.uri(), "tarn", Optional.of("ref"))
                .execute("SELECT count(*), sum(v), count(*) - count(category) FROM append_file_index", "CSV");
        assertThat(result.exitCode()).as(result.errors()).isZero();
        assertThat(result.output()).isEqualTo("\"%d\",\"%d\",\"%d\"\n".formatted(count, sum, nullCategories));
    }

    @Test
    public void testMetadataThroughCli()
            throws Exception
    {
        TrinoCli.Result result = new TrinoCli(installation, server.uri(), "tarn", Optional.empty()).execute("SHOW TABLES FROM ref", "CSV");
        assertThat(result.exitCode()).as(result.errors()).isZero();
        assertThat(result.output().lines().toList())
                .containsExactlyInAnyOrderElementsOf(TABLES.stream().map(table -> "\"" + table.tableName() + "\"").toList());
    }

    @Test
    public void testCliReportsErrors()
            throws Exception
    {
        TrinoCli.Result result = new TrinoCli(installation, server.uri(), "tarn", Optional.empty()).execute("SELECT * FROM ref.no_such_table", "CSV");
        assertThat(result.exitCode()).isNotZero();
        assertThat(result.errors()).contains("no_such_table");
    }

    @Test
    public void testServerIsFoundByItsDirectory()
            throws Exception
    {
        Optional<TrinoServer> found = TrinoServer.running(server.directory());
        assertThat(found).isPresent();
        assertThat(found.get().pid()).isEqualTo(server.pid());
        assertThat(found.get().port()).isEqualTo(server.port());
        assertThatThrownBy(() -> TrinoServer.start(installation, TrinoServerConfig.in(server.directory()), Duration.ofSeconds(5)))
                .hasMessageContaining("already runs");
    }

    /**
     * Runs last: stops the shared server and checks that its process and port are gone.
     */
    @Test(dependsOnMethods = {"testTableScanRightAfterStart", "testSelectAllThroughJdbc", "testFilterAndProjectionThroughJdbc", "testAggregationThroughCli",
            "testMetadataThroughCli", "testCliReportsErrors", "testServerIsFoundByItsDirectory"}, alwaysRun = true)
    public void testStopEndsTheProcess()
            throws Exception
    {
        long pid = server.pid();
        int port = server.port();
        assertThat(ProcessHandle.of(pid)).isPresent();
        server.stop();
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).as("process %s after stop", pid).isNotEqualTo(Optional.of(true));
        assertThat(TrinoServer.running(server.directory())).isEmpty();
        assertThatThrownBy(() -> new Socket(InetAddress.getLoopbackAddress(), port).close()).as("port %s after stop", port).isInstanceOf(IOException.class);
        assertThat(Files.exists(server.directory().resolve("data/var/run/launcher.pid"))).isFalse();
        server = null;
    }

    static CanonicalRows canonical(List<List<Object>> rows)
    {
        List<String> lines = new ArrayList<>();
        for (List<Object> row : rows) {
            List<String> fields = new ArrayList<>();
            for (Object value : row) {
                fields.add(canonicalValue(value));
            }
            lines.add(String.join("\t", fields));
        }
        return CanonicalRows.of(lines);
    }

    // the types of the tables above; Trino's JDBC values in the oracle's canonical text
    private static String canonicalValue(Object value)
    {
        if (value == null) {
            return CanonicalValueFormatter.TOP_LEVEL_NULL;
        }
        if (value instanceof String string) {
            return CanonicalValueFormatter.escapeString(string);
        }
        if (value instanceof Date date) {
            return CanonicalValueFormatter.formatDate((int) date.toLocalDate().toEpochDay());
        }
        if (value instanceof BigDecimal decimal) {
            return CanonicalValueFormatter.formatDecimal(decimal, decimal.scale());
        }
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte
                || value instanceof Double || value instanceof Float || value instanceof Boolean) {
            return value.toString();
        }
        throw new IllegalArgumentException("No canonical form for a JDBC " + value.getClass().getName() + ": " + value);
    }
}
