package io.tarn.jni;

import io.tarn.testing.ReferenceReader;
import io.tarn.testing.ReferenceTables;
import io.tarn.testing.TemporaryDirectories;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.duckdb.DuckDBConnection;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A native engine reading Tarn: DuckDB (C++, through its JDBC driver's native library) consumes
 * the same {@code ArrowArrayStream} that {@code tarn_open_table} hands to C, here filled by
 * {@link TarnBridge#openTable} at the address of a stream struct, and aggregates a
 * deletion-vector table. The answers are computed independently from Apache Paimon's rows.
 */
public class TestDuckDbOverTarn
{
    private static final String DV = ReferenceTables.PK_DV.identifier();

    private Path warehouse;
    private List<Row> oracle;
    private BufferAllocator allocator;
    private DuckDBConnection connection;

    @BeforeClass
    public void setUp()
            throws SQLException
    {
        warehouse = TemporaryDirectories.create("tarn-jni-duckdb");
        ReferenceTables.create(warehouse, ReferenceTables.PK_DV);
        oracle = new ArrayList<>();
        for (String line : ReferenceReader.read(warehouse, DV).lines()) {
            String[] values = line.split("\t", -1);
            oracle.add(new Row(Integer.parseInt(values[0]), values[1].equals("\\N") ? null : values[1], values[2].equals("\\N") ? null : Long.parseLong(values[2])));
        }
        assertThat(oracle).hasSize((int) ReferenceTables.PK_DV.expectedRowCount());
        allocator = new RootAllocator();
        connection = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:");
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
            throws SQLException
    {
        if (connection != null) {
            connection.close();
        }
        if (allocator != null) {
            allocator.close();
        }
        if (warehouse != null) {
            TemporaryDirectories.deleteRecursively(warehouse);
        }
    }

    @Test
    public void testAggregatesMatchPaimon()
            throws SQLException
    {
        List<Object> totals = query(null, null, "SELECT count(*), sum(v), min(id), max(id), count(DISTINCT name) FROM tarn_stream");
        assertThat(totals).containsExactly(
                (long) oracle.size(),
                oracle.stream().filter(row -> row.v() != null).mapToLong(Row::v).sum(),
                oracle.stream().mapToInt(Row::id).min().orElseThrow(),
                oracle.stream().mapToInt(Row::id).max().orElseThrow(),
                oracle.stream().map(Row::name).filter(name -> name != null).distinct().count());

        // grouped by the letter that tells which commit wrote the row (a: first, b: updated, c: inserted last)
        Map<String, List<Long>> expected = new TreeMap<>();
        for (Row row : oracle) {
            List<Long> group = expected.computeIfAbsent(row.name().substring(0, 1), key -> new ArrayList<>(List.of(0L, 0L)));
            group.set(0, group.get(0) + 1);
            group.set(1, group.get(1) + row.v());
        }
        List<Object> grouped = query(null, null, "SELECT substr(name, 1, 1) AS letter, count(*), sum(v) FROM tarn_stream GROUP BY letter ORDER BY letter");
        List<Object> expectedGrouped = new ArrayList<>();
        expected.forEach((letter, values) -> {
            expectedGrouped.add(letter);
            expectedGrouped.add(values.get(0));
            expectedGrouped.add(values.get(1));
        });
        assertThat(grouped).isEqualTo(expectedGrouped);
    }

    @Test
    public void testFilterAndProjectionInTarnAggregationInDuckDb()
            throws SQLException
    {
        List<Object> result = query("v,id", "id >= 30", "SELECT count(*), sum(v), sum(id) FROM tarn_stream");
        List<Row> matching = oracle.stream().filter(row -> row.id() >= 30).toList();
        assertThat(result).containsExactly(
                (long) matching.size(),
                matching.stream().mapToLong(Row::v).sum(),
                matching.stream().mapToLong(Row::id).sum());
    }

    /**
     * Opens a fresh Tarn stream (a stream is read once), registers it with DuckDB and returns the
     * query's values row by row; DuckDB releases the stream when it is done with it.
     */
    private List<Object> query(String columns, String where, String sql)
            throws SQLException
    {
        List<Object> values = new ArrayList<>();
        try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
            String error = TarnBridge.openTable(warehouse.toString(), DV, null, columns, where, stream.memoryAddress());
            assertThat(error).isNull();
            connection.registerArrowStream("tarn_stream", stream);
            try (Statement statement = connection.createStatement(); ResultSet resultSet = statement.executeQuery(sql)) {
                int columnCount = resultSet.getMetaData().getColumnCount();
                while (resultSet.next()) {
                    for (int column = 1; column <= columnCount; column++) {
                        Object value = resultSet.getObject(column);
                        values.add(value instanceof Number number && !(value instanceof Long) && !(value instanceof Integer) ? number.longValue() : value);
                    }
                }
            }
        }
        // DuckDB released the stream and every batch: the bridge's allocator holds nothing
        assertThat(TarnBridge.allocatedBytes()).isZero();
        return values;
    }

    private record Row(int id, String name, Long v) {}
}
