package io.tarn.trino;

import io.tarn.storage.commit.TableCommit;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.snapshot.Snapshot;
import io.tarn.storage.snapshot.SnapshotStatistics;
import io.tarn.storage.snapshot.SnapshotStatistics.ColumnStats;
import io.tarn.storage.table.PaimonTable;
import io.tarn.types.DataField;
import io.tarn.types.TypeRoot;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.connector.ConnectorAnalyzeMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.statistics.ColumnStatisticMetadata;
import io.trino.spi.statistics.ColumnStatisticType;
import io.trino.spi.statistics.ComputedStatistics;
import io.trino.spi.statistics.TableStatisticType;
import io.trino.spi.statistics.TableStatisticsMetadata;

import java.io.IOException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static io.trino.spi.StandardErrorCode.GENERIC_INTERNAL_ERROR;
import static io.trino.spi.StandardErrorCode.INVALID_ANALYZE_PROPERTY;
import static io.trino.spi.statistics.ColumnStatisticType.MAX_VALUE_SIZE_IN_BYTES;
import static io.trino.spi.statistics.ColumnStatisticType.NUMBER_OF_DISTINCT_VALUES;
import static io.trino.spi.statistics.ColumnStatisticType.NUMBER_OF_NON_NULL_VALUES;
import static io.trino.spi.statistics.ColumnStatisticType.TOTAL_SIZE_IN_BYTES;
import static io.trino.spi.type.BigintType.BIGINT;

/**
 * {@code ANALYZE}: Trino computes, over the snapshot the statement pinned, the row count and per
 * column the distinct values (approximately), the non-null values and, for strings and binary
 * values, their sizes; Tarn writes them as Paimon's statistics file and commits an ANALYZE
 * snapshot, as Spark's {@code ANALYZE TABLE ... COMPUTE STATISTICS FOR ALL COLUMNS} does. Trino's
 * cost-based optimizer then reads the distinct-value counts back ({@link TarnStatistics}), which
 * manifests do not carry and which join ordering needs. CREATE TABLE AS computes the same while
 * it writes, and commits them with the table's first snapshot ({@code tarn.collect-statistics-on-write}).
 */
final class TarnAnalyze
{
    // approx_distinct is defined for these; nested values are left out, as Spark's ANALYZE leaves them out
    private static final Set<TypeRoot> DISTINCT_COUNTED = Set.of(TypeRoot.BOOLEAN, TypeRoot.TINYINT, TypeRoot.SMALLINT, TypeRoot.INT, TypeRoot.BIGINT,
            TypeRoot.FLOAT, TypeRoot.DOUBLE, TypeRoot.DECIMAL, TypeRoot.DATE, TypeRoot.TIME, TypeRoot.TIMESTAMP, TypeRoot.TIMESTAMP_LTZ,
            TypeRoot.CHAR, TypeRoot.VARCHAR, TypeRoot.BINARY, TypeRoot.VARBINARY);
    private static final Set<TypeRoot> SIZED = Set.of(TypeRoot.CHAR, TypeRoot.VARCHAR, TypeRoot.BINARY, TypeRoot.VARBINARY);

    private TarnAnalyze() {}

    static ConnectorAnalyzeMetadata metadata(TarnTableHandle handle, TableSchema schema, Map<String, Object> properties)
    {
        if (!properties.isEmpty()) {
            throw new TrinoException(INVALID_ANALYZE_PROPERTY, "ANALYZE of table %s takes no properties: it analyzes every column".formatted(handle.schemaTableName()));
        }
        return new ConnectorAnalyzeMetadata(handle, collected(schema));
    }

    /**
     * What Trino computes for a table of {@code schema}: for ANALYZE, and while CREATE TABLE AS writes.
     */
    static TableStatisticsMetadata collected(TableSchema schema)
    {
        Set<ColumnStatisticMetadata> columns = new LinkedHashSet<>();
        for (DataField field : schema.fields()) {
            for (ColumnStatisticType type : collected(field)) {
                columns.add(new ColumnStatisticMetadata(field.name(), type));
            }
        }
        return new TableStatisticsMetadata(columns, Set.of(TableStatisticType.ROW_COUNT), List.of());
    }

    private static List<ColumnStatisticType> collected(DataField field)
    {
        TypeRoot root = field.type().root();
        if (!DISTINCT_COUNTED.contains(root)) {
            return List.of(NUMBER_OF_NON_NULL_VALUES);
        }
        if (SIZED.contains(root)) {
            return List.of(NUMBER_OF_DISTINCT_VALUES, NUMBER_OF_NON_NULL_VALUES, TOTAL_SIZE_IN_BYTES, MAX_VALUE_SIZE_IN_BYTES);
        }
        return List.of(NUMBER_OF_DISTINCT_VALUES, NUMBER_OF_NON_NULL_VALUES);
    }

    /**
     * Commits what Trino computed as the statistics of the handle's snapshot. A table without a
     * snapshot has nothing to describe, and gets no snapshot.
     */
    static void finish(ConnectorSession session, PaimonTable table, TarnTableHandle handle, Collection<ComputedStatistics> computed)
    {
        Optional<Snapshot> snapshot = TarnSnapshots.pinned(table, handle);
        if (snapshot.isEmpty()) {
            return;
        }
        try {
            TableSchema schema = table.schema(snapshot.get().schemaId());
            SnapshotStatistics result = statistics(handle.schemaTableName(), schema, snapshot.get().id(), computed);
            new TableCommit(table, "trino-" + session.getQueryId()).commitStatistics(result, Long.MAX_VALUE);
        }
        catch (IOException | RuntimeException e) {
            throw TarnExceptions.translate("Cannot commit the statistics of table " + handle.schemaTableName(), e);
        }
    }

    /**
     * What Trino computed, as Paimon's statistics of snapshot {@code snapshotId}.
     */
    static SnapshotStatistics statistics(SchemaTableName table, TableSchema schema, long snapshotId, Collection<ComputedStatistics> computed)
    {
        if (computed.size() != 1) {
            throw new TrinoException(GENERIC_INTERNAL_ERROR, "Statistics of table %s: expected one set of statistics, not %d".formatted(table, computed.size()));
        }
        ComputedStatistics statistics = computed.iterator().next();
        long rows = count(statistics.getTableStatistics().get(TableStatisticType.ROW_COUNT)).orElse(0L);
        return new SnapshotStatistics(snapshotId, schema.id(), Optional.of(rows), Optional.empty(), columns(schema, statistics, rows));
    }

    private static Map<String, ColumnStats> columns(TableSchema schema, ComputedStatistics statistics, long rows)
    {
        Map<String, ColumnStats> columns = new LinkedHashMap<>();
        for (DataField field : schema.fields()) {
            Map<ColumnStatisticType, Block> values = new LinkedHashMap<>();
            statistics.getColumnStatistics().forEach((metadata, block) -> {
                if (metadata.getColumnName().equals(field.name())) {
                    values.put(metadata.getStatisticType(), block);
                }
            });
            if (values.isEmpty()) {
                continue;
            }
            Optional<Long> nonNull = count(values.get(NUMBER_OF_NON_NULL_VALUES));
            Optional<Long> totalSize = count(values.get(TOTAL_SIZE_IN_BYTES));
            // sizes describe values: a column of nulls has none (Trino still reports a largest size of 0)
            boolean hasValues = nonNull.isPresent() && nonNull.get() > 0;
            Optional<Long> averageLength = hasValues && totalSize.isPresent()
                    ? Optional.of(Math.round((double) totalSize.get() / nonNull.get()))
                    : Optional.empty();
            columns.put(field.name(), new ColumnStats(
                    field.id(),
                    count(values.get(NUMBER_OF_DISTINCT_VALUES)),
                    Optional.empty(),
                    Optional.empty(),
                    nonNull.map(present -> Math.max(0, rows - present)),
                    averageLength,
                    hasValues ? count(values.get(MAX_VALUE_SIZE_IN_BYTES)) : Optional.empty()));
        }
        return columns;
    }

    // counts and sizes come as one BIGINT; a sum over no rows is null
    private static Optional<Long> count(Block block)
    {
        if (block == null || block.getPositionCount() == 0 || block.isNull(0)) {
            return Optional.empty();
        }
        return Optional.of(BIGINT.getLong(block, 0));
    }
}
