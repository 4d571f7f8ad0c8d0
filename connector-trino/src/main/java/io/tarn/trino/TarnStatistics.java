package io.tarn.trino;

import io.tarn.index.predicate.Predicate;
import io.tarn.storage.binary.BinaryRow;
import io.tarn.storage.binary.SimpleStats;
import io.tarn.storage.manifest.DataFileMeta;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.snapshot.Snapshot;
import io.tarn.storage.snapshot.SnapshotStatistics;
import io.tarn.storage.snapshot.SnapshotStatistics.ColumnStats;
import io.tarn.storage.table.PaimonTable;
import io.tarn.types.DataField;
import io.tarn.types.TypeRoot;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.statistics.ColumnStatistics;
import io.trino.spi.statistics.DoubleRange;
import io.trino.spi.statistics.Estimate;
import io.trino.spi.statistics.TableStatistics;

import java.io.IOException;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Table statistics from the manifests of the pinned snapshot, after the pushed-down filter
 * pruned files: the row count (live rows, deletion vectors subtracted) and, per column, the null
 * fraction and the min/max range of numeric and date columns. These come from the files only
 * when every planned file carries them under the read schema; a file written under another
 * schema or without the column's statistics makes them unknown. The statistics file the
 * snapshot names (written by {@code ANALYZE}, Tarn's or Spark's) adds what manifests lack: the
 * distinct values of a column, and the size of its values.
 */
final class TarnStatistics
{
    private static final List<TypeRoot> RANGE_TYPES = List.of(TypeRoot.TINYINT, TypeRoot.SMALLINT, TypeRoot.INT, TypeRoot.BIGINT,
            TypeRoot.FLOAT, TypeRoot.DOUBLE, TypeRoot.DECIMAL, TypeRoot.DATE);

    private TarnStatistics() {}

    static TableStatistics compute(PaimonTable table, TableSchema schema, TarnTableHandle handle, TarnTypes types)
    {
        if (handle.filter().isNone()) {
            return new TableStatistics(Estimate.zero(), Map.of());
        }
        ScanPlan plan;
        Optional<SnapshotStatistics> analyzed;
        try {
            Optional<Predicate> predicate = TarnPredicates.toPredicate(handle.filter(), schema.fields());
            ScanPlanner planner = new ScanPlanner(table);
            if (predicate.isPresent()) {
                planner = planner.withFilter(predicate.get());
            }
            Optional<Snapshot> snapshot = TarnSnapshots.pinned(table, handle);
            plan = planner.plan(snapshot);
            analyzed = snapshot.isPresent() ? table.statistics(snapshot.get()) : Optional.empty();
        }
        catch (IOException e) {
            throw TarnExceptions.translate("Cannot compute statistics of table " + table.name(), e);
        }
        long rows = 0;
        for (PlannedFile file : plan.files()) {
            rows += file.liveRowCount().orElse(file.file().rowCount());
        }
        TableStatistics.Builder builder = TableStatistics.builder().setRowCount(Estimate.of(rows));
        if (rows == 0) {
            return builder.build();
        }
        for (DataField field : schema.fields()) {
            Optional<ColumnStats> analyzedColumn = analyzed.map(SnapshotStatistics::columns)
                    .map(columns -> columns.get(field.name()))
                    .filter(column -> column.columnId() == field.id());
            Optional<ColumnStatistics> statistics = column(field, schema, plan.files(), rows, analyzedColumn, analyzed.flatMap(SnapshotStatistics::mergedRecordCount));
            if (statistics.isPresent()) {
                ColumnHandle handleOfColumn = TarnColumnHandle.base(field.name(), field.id(), types.toTrinoType(field.type()));
                builder.setColumnStatistics(handleOfColumn, statistics.get());
            }
        }
        return builder.build();
    }

    private static Optional<ColumnStatistics> column(DataField field, TableSchema schema, List<PlannedFile> files, long liveRows,
            Optional<ColumnStats> analyzed, Optional<Long> analyzedRows)
    {
        Optional<FileColumnStatistics> fromFiles = fromFiles(field, schema, files);
        if (fromFiles.isEmpty() && analyzed.isEmpty()) {
            return Optional.empty();
        }
        ColumnStatistics.Builder builder = ColumnStatistics.builder();
        fromFiles.flatMap(FileColumnStatistics::range).ifPresent(builder::setRange);
        Optional<Double> nullsFraction = fromFiles.map(FileColumnStatistics::nullsFraction);
        if (nullsFraction.isEmpty() && analyzed.isPresent()) {
            // only the statistics file says how many nulls there are
            nullsFraction = analyzedRows.filter(rows -> rows > 0)
                    .flatMap(rows -> analyzed.get().nullCount().map(nulls -> Math.min(1.0, (double) nulls / rows)));
        }
        nullsFraction.ifPresent(fraction -> builder.setNullsFraction(Estimate.of(fraction)));
        if (analyzed.isPresent()) {
            double nonNullRows = liveRows * (1 - nullsFraction.orElse(0.0));
            analyzed.get().distinctCount().ifPresent(distinct ->
                    builder.setDistinctValuesCount(Estimate.of(distinctValues(distinct, analyzed.get(), analyzedRows, nonNullRows))));
            analyzed.get().averageLength().ifPresent(length -> builder.setDataSize(Estimate.of(length * nonNullRows)));
        }
        return Optional.of(builder.build());
    }

    private record FileColumnStatistics(double nullsFraction, Optional<DoubleRange> range) {}

    /**
     * The distinct values among the rows read now, from a count made when the table was analyzed.
     * A column that was (nearly) unique then is taken to be unique still, since keys stay unique
     * as a table grows; any other count is capped by the rows read, as the filter or later
     * deletes may have left fewer.
     */
    private static double distinctValues(long analyzedDistinct, ColumnStats analyzed, Optional<Long> analyzedRows, double nonNullRows)
    {
        if (analyzedRows.isPresent()) {
            long analyzedNonNull = analyzedRows.get() - analyzed.nullCount().orElse(0L);
            // approx_distinct errs by about 2%
            if (analyzedNonNull > 0 && analyzedDistinct >= 0.95 * analyzedNonNull) {
                return nonNullRows;
            }
        }
        return Math.min(analyzedDistinct, nonNullRows);
    }

    private static Optional<FileColumnStatistics> fromFiles(DataField field, TableSchema schema, List<PlannedFile> files)
    {
        long nulls = 0;
        long totalRows = 0;
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        boolean ranged = RANGE_TYPES.contains(field.type().root());
        Map<String, Integer> positions = new HashMap<>();
        for (PlannedFile planned : files) {
            DataFileMeta file = planned.file();
            if (file.schemaId() != schema.id()) {
                return Optional.empty();
            }
            List<String> statsColumns = file.valueStatsCols().orElse(schema.fieldNames());
            int position = statsColumns.indexOf(field.name());
            SimpleStats stats = file.valueStats();
            if (position < 0 || position >= stats.nullCounts().size() || stats.nullCounts().get(position) == null) {
                return Optional.empty();
            }
            positions.put(file.fileName(), position);
            nulls += stats.nullCounts().get(position);
            totalRows += file.rowCount();
            if (ranged && file.rowCount() > stats.nullCounts().get(position)) {
                Optional<Double> low = number(stats.minValues(), statsColumns.size(), position, field);
                Optional<Double> high = number(stats.maxValues(), statsColumns.size(), position, field);
                if (low.isEmpty() || high.isEmpty()) {
                    ranged = false;
                }
                else {
                    min = Math.min(min, low.get());
                    max = Math.max(max, high.get());
                }
            }
        }
        double nullsFraction = totalRows == 0 ? 0 : Math.min(1.0, (double) nulls / totalRows);
        return Optional.of(new FileColumnStatistics(nullsFraction, ranged && min <= max ? Optional.of(new DoubleRange(min, max)) : Optional.empty()));
    }

    private static Optional<Double> number(BinaryRow row, int arity, int position, DataField field)
    {
        if (row.arity() != arity || row.isNullAt(position)) {
            return Optional.empty();
        }
        Object value = row.value(position, field.type());
        return switch (value) {
            case Number number when !(value instanceof BigDecimal) -> Optional.of(number.doubleValue());
            case BigDecimal decimal -> Optional.of(decimal.doubleValue());
            default -> Optional.empty();
        };
    }
}
