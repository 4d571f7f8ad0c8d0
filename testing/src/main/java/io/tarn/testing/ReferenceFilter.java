package io.tarn.testing;

import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.types.RowType;

import java.util.function.ToIntFunction;

import static java.util.Objects.requireNonNull;

/**
 * A filter on a reference table, written twice: {@code where} in the filter grammar of Tarn's
 * front ends ({@code tarn dump --where}, the C ABI), which for the columns and literals used is
 * also Trino SQL, and the same condition as Apache Paimon's predicate, for the oracle.
 */
public record ReferenceFilter(String table, String where, PaimonCondition paimon)
{
    public ReferenceFilter
    {
        requireNonNull(table, "table is null");
        requireNonNull(where, "where is null");
        requireNonNull(paimon, "paimon is null");
    }

    /**
     * The oracle's scan of the latest snapshot under this filter, whose predicate binds to
     * {@code rowType}, the table's row type as Paimon reads it.
     */
    public ReferenceScan scan(RowType rowType)
    {
        requireNonNull(rowType, "rowType is null");
        return ReferenceScan.of(table).withFilter(paimon.build(new PredicateBuilder(rowType), column -> {
            int index = rowType.getFieldIndex(column);
            if (index < 0) {
                throw new IllegalArgumentException("No column " + column + " in " + table);
            }
            return index;
        }));
    }

    /**
     * The table's name without its database.
     */
    public String tableName()
    {
        return table.substring(table.indexOf('.') + 1);
    }

    @Override
    public String toString()
    {
        return table + " WHERE " + where;
    }

    /**
     * Builds Paimon's predicate, given the position of each column by name.
     */
    @FunctionalInterface
    public interface PaimonCondition
    {
        Predicate build(PredicateBuilder builder, ToIntFunction<String> column);
    }
}
