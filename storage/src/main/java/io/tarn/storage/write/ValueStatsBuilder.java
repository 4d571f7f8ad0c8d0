package io.tarn.storage.write;

import io.tarn.storage.binary.BinaryRowWriter;
import io.tarn.storage.binary.SimpleStats;
import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.TypeRoot;
import io.tarn.vector.writer.ColumnStatistics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns the column statistics of a written Parquet file into a data file's {@code _VALUE_STATS}
 * and {@code _VALUE_STATS_COLS}, as Paimon 1.3 records them: each column's stats mode applied;
 * nested columns and columns in mode {@code none} left out (dense store), the list of columns
 * written only when some column was left out; no min/max for binary columns and for timestamps
 * of precision above 6 (Paimon reads them from the Parquet footer, where those have none).
 * Avro files carry no statistics, so Paimon gathers them while writing, with one difference:
 * nested columns stay in, with their null counts and no min/max (binary columns have none either).
 * Paimon takes the statistics of ORC files from the ORC footer: nested columns stay in as with
 * Avro, and timestamps of every precision have min/max (ORC keeps them to the nanosecond).
 */
final class ValueStatsBuilder
{
    private final List<DataField> fields;
    private final List<StatsMode> modes;
    private final boolean keepsNestedColumns;
    private final boolean boundsOfNanosecondTimestamps;

    ValueStatsBuilder(List<DataField> fields, Map<String, String> options, String tableName, DataFileFormat format)
    {
        this.fields = List.copyOf(fields);
        this.keepsNestedColumns = format instanceof DataFileFormat.Avro || format instanceof DataFileFormat.Orc;
        this.boundsOfNanosecondTimestamps = format instanceof DataFileFormat.Orc;
        StatsMode tableMode = Optional.ofNullable(options.get("metadata.stats-mode"))
                .map(text -> StatsMode.parse(text, tableName))
                .orElse(StatsMode.DEFAULT);
        List<StatsMode> columnModes = new ArrayList<>();
        for (DataField field : fields) {
            String columnMode = options.get("fields." + field.name() + ".stats-mode");
            columnModes.add(columnMode == null ? tableMode : StatsMode.parse(columnMode, tableName));
        }
        this.modes = List.copyOf(columnModes);
    }

    record ValueStats(SimpleStats stats, Optional<List<String>> statsColumns) {}

    ValueStats build(List<ColumnStatistics> statistics)
    {
        List<String> names = new ArrayList<>();
        List<DataType> types = new ArrayList<>();
        List<Object> mins = new ArrayList<>();
        List<Object> maxes = new ArrayList<>();
        List<Long> nullCounts = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            DataField field = fields.get(i);
            StatsMode mode = modes.get(i);
            boolean atomic = field.type().root().isAtomic();
            if ((!atomic && !keepsNestedColumns) || mode.kind() == StatsMode.Kind.NONE) {
                continue;
            }
            ColumnStatistics column = statistics.get(i);
            if (column.fieldId() != field.id()) {
                throw new IllegalStateException("Statistics of field " + column.fieldId() + " given for field " + field.id());
            }
            Object[] bounds = atomic && hasBounds(field.type()) ? mode.apply(column.min(), column.max()) : new Object[] {null, null};
            names.add(field.name());
            types.add(field.type().withNullable(true));
            mins.add(bounds[0]);
            maxes.add(bounds[1]);
            nullCounts.add(column.nullCount());
        }
        SimpleStats stats = new SimpleStats(BinaryRowWriter.encode(types, mins), BinaryRowWriter.encode(types, maxes), nullCounts);
        return new ValueStats(stats, names.size() == fields.size() ? Optional.empty() : Optional.of(List.copyOf(names)));
    }

    private boolean hasBounds(DataType type)
    {
        TypeRoot root = type.root();
        if (root == TypeRoot.BINARY || root == TypeRoot.VARBINARY || root == TypeRoot.VARIANT) {
            return false;
        }
        if (root == TypeRoot.TIMESTAMP || root == TypeRoot.TIMESTAMP_LTZ) {
            return boundsOfNanosecondTimestamps || ((AtomicType) type).precision() <= 6;
        }
        return true;
    }
}
