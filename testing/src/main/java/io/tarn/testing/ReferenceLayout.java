package io.tarn.testing;

import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataTypeRoot;
import org.apache.paimon.types.TimestampType;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How Paimon lays out a reference table's data files: the table options that choose their
 * formats. The rows, commits, tags and branches of a table are the same in every layout, but
 * for what a format cannot hold: Avro has no timestamps finer than microseconds, so in the Avro
 * layouts a {@code TIMESTAMP(9)} column is declared {@code TIMESTAMP(6)} (Paimon refuses the
 * table otherwise) and its values are written truncated to microseconds.
 */
public enum ReferenceLayout
{
    /** Paimon's default: every data file Parquet. */
    PARQUET(Map.of(), TimestampType.MAX_PRECISION),
    ORC(Map.of("file.format", "orc"), TimestampType.MAX_PRECISION),
    AVRO(Map.of("file.format", "avro"), 6),
    /** Level-0 files (every file of an append table, fresh writes of a primary-key table) in Avro, compacted levels in Parquet. */
    AVRO_LEVEL_0(Map.of("file.format.per.level", "0:avro"), 6);

    private final Map<String, String> options;
    // the finest TIMESTAMP (without time zone) precision the format holds
    private final int maxTimestampPrecision;

    ReferenceLayout(Map<String, String> options, int maxTimestampPrecision)
    {
        this.options = options;
        this.maxTimestampPrecision = maxTimestampPrecision;
    }

    public Map<String, String> options()
    {
        return options;
    }

    Schema apply(Schema schema)
    {
        if (options.isEmpty()) {
            return schema;
        }
        List<DataField> fields = schema.fields().stream().map(this::narrowTimestamp).toList();
        Map<String, String> merged = new HashMap<>(schema.options());
        options.forEach((key, value) -> {
            if (merged.putIfAbsent(key, value) != null) {
                throw new IllegalArgumentException("Layout " + this + " sets " + key + ", which the table sets itself");
            }
        });
        return new Schema(fields, schema.partitionKeys(), schema.primaryKeys(), merged, schema.comment());
    }

    private DataField narrowTimestamp(DataField field)
    {
        if (field.type().getTypeRoot() == DataTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE && ((TimestampType) field.type()).getPrecision() > maxTimestampPrecision) {
            return field.newType(new TimestampType(field.type().isNullable(), maxTimestampPrecision));
        }
        return field;
    }
}
