package io.tarn.storage.schema;

import java.util.Locale;

/**
 * How the rows of one primary key are combined (option {@code merge-engine}).
 */
public enum MergeEngine
{
    DEDUPLICATE,
    PARTIAL_UPDATE,
    AGGREGATION,
    FIRST_ROW;

    static MergeEngine parse(String value, String tableName)
    {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "deduplicate" -> DEDUPLICATE;
            case "partial-update" -> PARTIAL_UPDATE;
            case "aggregation" -> AGGREGATION;
            case "first-row" -> FIRST_ROW;
            default -> throw new IllegalArgumentException("Table " + tableName + " has an unknown merge-engine: " + value);
        };
    }

    /**
     * Whether a merged row is always one of its input rows, so that a filter on value columns
     * may judge input files instead of merged rows.
     */
    public boolean mergedRowIsAnInputRow()
    {
        return this == DEDUPLICATE || this == FIRST_ROW;
    }
}
