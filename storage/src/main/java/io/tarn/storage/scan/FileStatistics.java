package io.tarn.storage.scan;

import io.tarn.index.predicate.ColumnStats;
import io.tarn.index.predicate.StatsProvider;
import io.tarn.storage.binary.BinaryRow;
import io.tarn.storage.binary.SimpleStats;
import io.tarn.storage.manifest.DataFileMeta;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.table.PaimonTable;
import io.tarn.types.DataField;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The statistics of planned data files as seen through a read schema: a partition field's
 * statistics are its partition value; any other field's come from the file's value (or key)
 * statistics, resolved by field id through the schema the file was written with, and are
 * missing when they cannot be trusted (see {@link FieldStatsMapping}). Not thread-safe: it caches
 * the layouts of the files it was asked about.
 */
public final class FileStatistics
{
    private final PaimonTable table;
    private final List<DataField> partitionFields;
    private final Map<Integer, Integer> partitionPositionById = new HashMap<>();
    private final Map<Integer, DataField> readFieldsById = new HashMap<>();
    private final Map<StatsLayout, FieldStatsMapping> mappings = new HashMap<>();
    private FieldStatsMapping lastValueMapping;
    private long lastValueSchemaId;
    private List<String> lastValueColumns;
    private int lastFieldId = -1;
    private boolean lastFieldIsPartition;
    private DataField lastReadField;

    public FileStatistics(PaimonTable table, TableSchema readSchema)
    {
        this.table = requireNonNull(table, "table is null");
        requireNonNull(readSchema, "readSchema is null");
        this.partitionFields = readSchema.partitionType().fields();
        for (int i = 0; i < partitionFields.size(); i++) {
            partitionPositionById.put(partitionFields.get(i).id(), i);
        }
        for (DataField field : readSchema.fields()) {
            readFieldsById.put(field.id(), field);
        }
    }

    /**
     * The value statistics of a file.
     */
    public StatsProvider valueStats(PlannedFile planned)
            throws IOException
    {
        DataFileMeta file = planned.file();
        List<String> statsColumns = file.valueStatsCols().or(file::writeCols).orElse(null);
        // files mostly share one layout, and the manifest reader one columns list
        FieldStatsMapping mapping;
        if (lastValueMapping != null && file.schemaId() == lastValueSchemaId && statsColumns == lastValueColumns) {
            mapping = lastValueMapping;
        }
        else {
            mapping = mapping(new StatsLayout(file.schemaId(), false, statsColumns), table.schema(file.schemaId()));
            lastValueMapping = mapping;
            lastValueSchemaId = file.schemaId();
            lastValueColumns = statsColumns;
        }
        return statsProvider(planned, mapping, file.valueStats());
    }

    /**
     * The statistics of a primary-key file's key columns.
     */
    public StatsProvider keyStats(PlannedFile planned)
            throws IOException
    {
        DataFileMeta file = planned.file();
        TableSchema fileSchema = table.schema(file.schemaId());
        FieldStatsMapping mapping = mapping(new StatsLayout(file.schemaId(), true, null), fileSchema);
        return statsProvider(planned, mapping, file.keyStats());
    }

    /**
     * The statistics of a partition field over {@code rowCount} rows of one partition, or empty
     * for another field.
     */
    Optional<ColumnStats> partitionStats(BinaryRow partition, int fieldId, long rowCount)
    {
        Integer position = partitionPositionById.get(fieldId);
        if (position == null) {
            return Optional.empty();
        }
        Object value = partition.isNullAt(position) ? null : partition.value(position, partitionFields.get(position).type());
        return Optional.of(ColumnStats.ofValue(value, rowCount));
    }

    private StatsProvider statsProvider(PlannedFile planned, FieldStatsMapping mapping, SimpleStats stats)
    {
        long rowCount = planned.file().rowCount();
        return field -> {
            // filters mostly name one field, asked about for every file
            if (field.fieldId() != lastFieldId) {
                lastFieldId = field.fieldId();
                lastFieldIsPartition = partitionPositionById.containsKey(field.fieldId());
                lastReadField = readFieldsById.get(field.fieldId());
            }
            if (lastFieldIsPartition) {
                return partitionStats(planned.partition(), field.fieldId(), rowCount);
            }
            DataField readField = lastReadField;
            return readField == null ? Optional.empty() : mapping.stats(readField, stats, rowCount);
        };
    }

    private FieldStatsMapping mapping(StatsLayout layout, TableSchema fileSchema)
    {
        return mappings.computeIfAbsent(layout, key -> {
            List<DataField> fileFields = fileSchema.fields();
            List<DataField> statsFields;
            if (key.keyStats()) {
                statsFields = fields(fileSchema, fileSchema.trimmedPrimaryKeys());
            }
            else if (key.columns() == null) {
                statsFields = fileFields;
            }
            else {
                statsFields = fields(fileSchema, key.columns());
            }
            return new FieldStatsMapping(statsFields, fileFields);
        });
    }

    /**
     * The fields of the names, null for a name the schema does not have.
     */
    static List<DataField> fields(TableSchema schema, List<String> names)
    {
        List<DataField> fields = new ArrayList<>();
        for (String name : names) {
            fields.add(schema.rowType().field(name).orElse(null));
        }
        return fields;
    }

    private record StatsLayout(long schemaId, boolean keyStats, List<String> columns) {}
}
