package io.tarn.testing;

import org.apache.paimon.schema.Schema;

import java.util.HashMap;
import java.util.Map;

/**
 * How Paimon lays out a reference table's data files: the table options that choose their
 * formats. The rows, commits, tags and branches of a table are the same in every layout.
 */
public enum ReferenceLayout
{
    /** Paimon's default: every data file Parquet. */
    PARQUET(Map.of()),
    ORC(Map.of("file.format", "orc")),
    AVRO(Map.of("file.format", "avro")),
    /** Level-0 files (every file of an append table, fresh writes of a primary-key table) in Avro, compacted levels in Parquet. */
    AVRO_LEVEL_0(Map.of("file.format.per.level", "0:avro"));

    private final Map<String, String> options;

    ReferenceLayout(Map<String, String> options)
    {
        this.options = options;
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
        Map<String, String> merged = new HashMap<>(schema.options());
        options.forEach((key, value) -> {
            if (merged.putIfAbsent(key, value) != null) {
                throw new IllegalArgumentException("Layout " + this + " sets " + key + ", which the table sets itself");
            }
        });
        return new Schema(schema.fields(), schema.partitionKeys(), schema.primaryKeys(), merged, schema.comment());
    }
}
