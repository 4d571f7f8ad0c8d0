package io.tarn.testing;

import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.predicate.PredicateBuilder;

import java.math.BigDecimal;
import java.util.List;

/**
 * The usual filters on the reference tables that every front end is checked under against the
 * oracle: comparisons on integers, strings, doubles and decimals, IN lists, null tests and
 * conjunctions, on partition, bucket, sort and value columns of append and primary-key tables.
 * Comparisons on doubles are only those where Paimon's order (NaN above every number) agrees
 * with SQL's.
 */
public final class ReferenceFilters
{
    private ReferenceFilters() {}

    public static List<ReferenceFilter> usual()
    {
        return List.of(
                new ReferenceFilter("ref.append_partitioned", "dt = '2024-01-01'",
                        (builder, column) -> builder.equal(column.applyAsInt("dt"), BinaryString.fromString("2024-01-01"))),
                new ReferenceFilter("ref.append_partitioned", "region > 1 AND amount < 30.0",
                        (builder, column) -> PredicateBuilder.and(builder.greaterThan(column.applyAsInt("region"), 1), builder.lessThan(column.applyAsInt("amount"), 30.0))),
                new ReferenceFilter("ref.append_partitioned", "name <> 'name-3'",
                        (builder, column) -> builder.notEqual(column.applyAsInt("name"), BinaryString.fromString("name-3"))),
                new ReferenceFilter("ref.append_bucketed", "id IN (1, 2, 3, 40)",
                        (builder, column) -> builder.in(column.applyAsInt("id"), List.of(1, 2, 3, 40))),
                new ReferenceFilter("ref.append_all_types", "f_int > 0",
                        (builder, column) -> builder.greaterThan(column.applyAsInt("f_int"), 0)),
                new ReferenceFilter("ref.append_all_types", "f_decimal_10_2 < 0.00",
                        (builder, column) -> builder.lessThan(column.applyAsInt("f_decimal_10_2"), Decimal.fromBigDecimal(new BigDecimal("0.00"), 10, 2))),
                new ReferenceFilter("ref.append_all_types", "f_string IS NOT NULL",
                        (builder, column) -> builder.isNotNull(column.applyAsInt("f_string"))),
                new ReferenceFilter("ref.append_zorder", "x < -4 AND y <= -4",
                        (builder, column) -> PredicateBuilder.and(builder.lessThan(column.applyAsInt("x"), -4), builder.lessOrEqual(column.applyAsInt("y"), -4))),
                new ReferenceFilter("ref.append_evolved", "id > 10",
                        (builder, column) -> builder.greaterThan(column.applyAsInt("id"), 10)),
                new ReferenceFilter("ref.pk_dv", "v > 50",
                        (builder, column) -> builder.greaterThan(column.applyAsInt("v"), 50L)),
                new ReferenceFilter("ref.pk_dv", "name = 'b4'",
                        (builder, column) -> builder.equal(column.applyAsInt("name"), BinaryString.fromString("b4"))),
                new ReferenceFilter("ref.pk_first_row", "id < 5",
                        (builder, column) -> builder.lessThan(column.applyAsInt("id"), 5)),
                new ReferenceFilter("ref.pk_dedup", "dt = '2024-01-02' AND id < 12",
                        (builder, column) -> PredicateBuilder.and(builder.equal(column.applyAsInt("dt"), BinaryString.fromString("2024-01-02")), builder.lessThan(column.applyAsInt("id"), 12))),
                new ReferenceFilter("ref.pk_partial_update", "b IS NULL",
                        (builder, column) -> builder.isNull(column.applyAsInt("b"))),
                new ReferenceFilter("ref.pk_aggregation", "total > 10",
                        (builder, column) -> builder.greaterThan(column.applyAsInt("total"), 10L)),
                new ReferenceFilter("ref.pk_aggregation", "label IS NOT NULL",
                        (builder, column) -> builder.isNotNull(column.applyAsInt("label"))));
    }
}
