package io.tarn.index.predicate;

import io.tarn.index.predicate.Predicate.And;
import io.tarn.index.predicate.Predicate.Comparison;
import io.tarn.types.Timestamp;
import io.tarn.types.TypeRoot;

import java.math.BigDecimal;
import java.util.EnumSet;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * Estimates from min / max / null-count statistics the fraction of a unit's rows that satisfy a
 * predicate, assuming values spread evenly between the bounds. Only a guide for choosing how to
 * read (never for what a read returns): known only for range comparisons on numeric, date, time
 * and timestamp columns and for AND of them; anything else is unknown.
 */
public final class SelectivityEstimator
{
    private static final Set<TypeRoot> ORDERED_NUMBERS = EnumSet.of(
            TypeRoot.TINYINT, TypeRoot.SMALLINT, TypeRoot.INT, TypeRoot.BIGINT,
            TypeRoot.FLOAT, TypeRoot.DOUBLE, TypeRoot.DECIMAL,
            TypeRoot.DATE, TypeRoot.TIME, TypeRoot.TIMESTAMP, TypeRoot.TIMESTAMP_LTZ);

    private SelectivityEstimator() {}

    public static OptionalDouble fraction(Predicate predicate, StatsProvider stats)
    {
        requireNonNull(predicate, "predicate is null");
        requireNonNull(stats, "stats is null");
        if (predicate instanceof And and) {
            // children taken as independent
            double product = 1;
            for (Predicate child : and.children()) {
                OptionalDouble fraction = fraction(child, stats);
                if (fraction.isEmpty()) {
                    return OptionalDouble.empty();
                }
                product *= fraction.getAsDouble();
            }
            return OptionalDouble.of(product);
        }
        if (predicate instanceof Comparison comparison) {
            return rangeFraction(comparison, stats);
        }
        return OptionalDouble.empty();
    }

    private static OptionalDouble rangeFraction(Comparison comparison, StatsProvider stats)
    {
        if (!ORDERED_NUMBERS.contains(comparison.field().type().root())) {
            return OptionalDouble.empty();
        }
        Optional<ColumnStats> columnStats = stats.columnStats(comparison.field());
        if (columnStats.isEmpty() || columnStats.get().rowCount() == 0) {
            return OptionalDouble.empty();
        }
        ColumnStats column = columnStats.get();
        OptionalDouble min = asDouble(column.min());
        OptionalDouble max = asDouble(column.max());
        OptionalDouble literal = asDouble(comparison.literal());
        if (min.isEmpty() || max.isEmpty() || literal.isEmpty() || column.nullCount() == null) {
            return OptionalDouble.empty();
        }
        double low = min.getAsDouble();
        double high = max.getAsDouble();
        double value = literal.getAsDouble();
        if (!(low <= high) || Double.isNaN(value)) {
            return OptionalDouble.empty();
        }
        // the share of [min, max] below the literal; a single value is all below or all above
        double below = high == low ? (value >= low ? 1 : 0) : Math.min(1, Math.max(0, (value - low) / (high - low)));
        double fraction = switch (comparison.op()) {
            case LESS_THAN, LESS_THAN_OR_EQUAL -> below;
            case GREATER_THAN, GREATER_THAN_OR_EQUAL -> 1 - below;
            case EQUAL, NOT_EQUAL -> Double.NaN;
        };
        if (Double.isNaN(fraction)) {
            return OptionalDouble.empty();
        }
        double nonNull = 1 - (double) column.nullCount() / column.rowCount();
        return OptionalDouble.of(fraction * nonNull);
    }

    private static OptionalDouble asDouble(Object value)
    {
        if (value instanceof BigDecimal decimal) {
            return OptionalDouble.of(decimal.doubleValue());
        }
        if (value instanceof Number number) {
            return OptionalDouble.of(number.doubleValue());
        }
        if (value instanceof Timestamp timestamp) {
            return OptionalDouble.of(timestamp.epochMillis() + timestamp.nanoOfMillisecond() / 1e6);
        }
        return OptionalDouble.empty();
    }
}
