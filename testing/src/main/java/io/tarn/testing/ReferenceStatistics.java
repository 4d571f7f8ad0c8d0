package io.tarn.testing;

import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.stats.ColStats;
import org.apache.paimon.stats.Statistics;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.types.DataField;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * Table statistics through Apache Paimon: committed as Spark's {@code ANALYZE TABLE} commits them
 * ({@code BatchTableCommit.updateStatistics}, an ANALYZE snapshot), and read back as Paimon's
 * planners read them ({@code Table.statistics()}), in a canonical text that a test compares with
 * what Tarn reads or wrote.
 */
public final class ReferenceStatistics
{
    private ReferenceStatistics() {}

    /**
     * The statistics of one column, as Paimon's {@code ColStats} holds them (null: absent).
     */
    public record Column(Long distinctCount, Long nullCount, Long averageLength, Long maxLength) {}

    /**
     * Commits statistics of the latest snapshot through Paimon.
     */
    @SuppressWarnings("try") // Paimon's close() declares Exception, which the catch below handles
    public static void analyze(Path warehouse, String table, long mergedRecordCount, Map<String, Column> columns)
    {
        FileStoreTable loaded = ReferenceCatalog.load(warehouse, table);
        Snapshot latest = requireNonNull(loaded.snapshotManager().latestSnapshot(), () -> table + " has no snapshot to analyze");
        Map<String, ColStats<?>> colStats = new HashMap<>();
        for (Map.Entry<String, Column> entry : columns.entrySet()) {
            DataField field = loaded.rowType().getField(entry.getKey());
            Column column = entry.getValue();
            colStats.put(entry.getKey(), ColStats.newColStats(field.id(), column.distinctCount(), null, null, column.nullCount(), column.averageLength(), column.maxLength()));
        }
        Statistics statistics = new Statistics(latest.id(), latest.schemaId(), mergedRecordCount, null, colStats);
        try (BatchTableCommit commit = loaded.newBatchWriteBuilder().newCommit()) {
            commit.updateStatistics(statistics);
        }
        catch (Exception e) {
            throw new IllegalStateException("Paimon failed to commit the statistics of " + table, e);
        }
    }

    /**
     * The statistics Paimon's planners see for the latest snapshot, in {@link #canonical} form;
     * empty when the snapshot names none.
     */
    public static Optional<String> read(Path warehouse, String table)
    {
        return ReferenceCatalog.load(warehouse, table).statistics().map(statistics -> {
            Map<String, Column> columns = new TreeMap<>();
            statistics.colStats().forEach((name, column) -> columns.put(name, new Column(
                    boxed(column.distinctCount()), boxed(column.nullCount()), boxed(column.avgLen()), boxed(column.maxLen()))));
            return canonical(statistics.snapshotId(), statistics.schemaId(), boxed(statistics.mergedRecordCount()), columns);
        });
    }

    /**
     * One line for the table, then one per column in name order.
     */
    public static String canonical(long snapshotId, long schemaId, Long mergedRecordCount, Map<String, Column> columns)
    {
        StringBuilder text = new StringBuilder("snapshot=%d schema=%d rows=%s%n".formatted(snapshotId, schemaId, mergedRecordCount));
        new TreeMap<>(columns).forEach((name, column) -> text.append("%s: distinct=%s nulls=%s avgLen=%s maxLen=%s%n"
                .formatted(name, column.distinctCount(), column.nullCount(), column.averageLength(), column.maxLength())));
        return text.toString();
    }

    /**
     * Appends rows through Paimon's batch writer; strings become Paimon's {@code BinaryString}.
     */
    @SuppressWarnings("try") // Paimon's close() declares Exception, which the catch below handles
    public static void append(Path warehouse, String table, List<Object[]> rows)
    {
        FileStoreTable loaded = ReferenceCatalog.load(warehouse, table);
        BatchWriteBuilder builder = loaded.newBatchWriteBuilder();
        try (BatchTableWrite write = builder.newWrite(); BatchTableCommit commit = builder.newCommit()) {
            for (Object[] row : rows) {
                Object[] values = new Object[row.length];
                for (int i = 0; i < row.length; i++) {
                    values[i] = row[i] instanceof String text ? BinaryString.fromString(text) : row[i];
                }
                write.write(GenericRow.of(values));
            }
            commit.commit(write.prepareCommit());
        }
        catch (Exception e) {
            throw new IllegalStateException("Paimon failed to append to " + table, e);
        }
    }

    private static Long boxed(OptionalLong value)
    {
        return value.isPresent() ? value.getAsLong() : null;
    }
}
