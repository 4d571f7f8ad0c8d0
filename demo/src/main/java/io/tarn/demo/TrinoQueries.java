package io.tarn.demo;

import io.trino.jdbc.TrinoResultSet;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Statements, timed queries and their rows over a JDBC connection to a Trino server, for the
 * benchmarks that compare connectors in one server.
 */
final class TrinoQueries
{
    private TrinoQueries() {}

    static void execute(Connection connection, String sql)
            throws SQLException
    {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    /**
     * The elapsed seconds of a query as the client saw it, and the CPU seconds Trino spent on it
     * (which other work on the machine inflates much less).
     */
    static double[] timed(Connection connection, String sql)
            throws SQLException
    {
        long started = System.nanoTime();
        try (Statement statement = connection.createStatement();
                ResultSet resultSet = statement.executeQuery(sql)) {
            while (resultSet.next()) {
                resultSet.getString(1);
            }
            double elapsed = (System.nanoTime() - started) / 1e9;
            return new double[] {elapsed, resultSet.unwrap(TrinoResultSet.class).getStats().getCpuTimeMillis() / 1e3};
        }
    }

    /**
     * The rows of a query in the order it returns them, each as its values joined by {@code |}.
     */
    static List<String> rows(Connection connection, String sql)
            throws SQLException
    {
        try (Statement statement = connection.createStatement();
                ResultSet resultSet = statement.executeQuery(sql)) {
            int columns = resultSet.getMetaData().getColumnCount();
            List<String> rows = new ArrayList<>();
            while (resultSet.next()) {
                StringBuilder row = new StringBuilder();
                for (int column = 1; column <= columns; column++) {
                    row.append(column > 1 ? "|" : "").append(resultSet.getString(column));
                }
                rows.add(row.toString());
            }
            return rows;
        }
    }

    static double median(double[] values)
    {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /**
     * With {@code TARN_BENCH_JFR=FILE} in the environment the server records a JFR profile there.
     */
    static List<String> profilingOptions()
    {
        String jfr = System.getenv("TARN_BENCH_JFR");
        return jfr == null || jfr.isBlank() ? List.of() : List.of("-XX:StartFlightRecording=filename=" + jfr + ",settings=profile");
    }

    static String requiredProperty(String name)
    {
        String value = System.getProperty(name);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("System property " + name + " is not set: run through ./tarn bench");
        }
        return value;
    }
}
