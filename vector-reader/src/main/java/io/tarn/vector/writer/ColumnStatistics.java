package io.tarn.vector.writer;

/**
 * Statistics of one top-level column of a written file. {@code min} and {@code max} are in Tarn's
 * internal representation (see {@link io.tarn.types.DataType}) and are null when the column has
 * no non-null value or its type has no order (ARRAY, MAP, MULTISET, ROW). FLOAT and DOUBLE are
 * ordered as Paimon's collectors order them ({@link Float#compare}: -0.0 before 0.0, NaN last),
 * but in ORC files, whose statistics Paimon takes from the footer, as orc-core's writer orders
 * them (see {@code io.tarn.vector.orc.OrcFileWriter}).
 * {@code nullCount} counts the rows whose value is null; for nested types only the value itself,
 * not nulls inside it. Only one of {@code min} and {@code max} is set where Paimon records only
 * one: an ORC string column whose smallest or largest value was too long for ORC to keep.
 */
public record ColumnStatistics(int fieldId, Object min, Object max, long nullCount)
{
    public ColumnStatistics
    {
        if (nullCount < 0) {
            throw new IllegalArgumentException("Negative null count: " + nullCount);
        }
    }
}
