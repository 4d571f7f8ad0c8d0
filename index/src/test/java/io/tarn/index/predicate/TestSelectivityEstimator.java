package io.tarn.index.predicate;

import io.tarn.types.DataTypes;
import io.tarn.types.Timestamp;
import org.testng.annotations.Test;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

public class TestSelectivityEstimator
{
    private static final FieldRef DAY = new FieldRef(1, "day", DataTypes.date());
    private static final FieldRef PRICE = new FieldRef(2, "price", DataTypes.decimal(12, 2));
    private static final FieldRef AT = new FieldRef(3, "at", DataTypes.timestamp(6));
    private static final FieldRef NAME = new FieldRef(4, "name", DataTypes.string());
    private static final FieldRef ID = new FieldRef(5, "id", DataTypes.bigint());

    private static final StatsProvider STATS = stats(Map.of(
            DAY.fieldId(), new ColumnStats(100, 200, 0L, 1000),
            PRICE.fieldId(), new ColumnStats(new BigDecimal("0.00"), new BigDecimal("10.00"), 250L, 1000),
            AT.fieldId(), new ColumnStats(new Timestamp(0, 0), new Timestamp(1000, 0), 0L, 1000),
            NAME.fieldId(), new ColumnStats("a", "z", 0L, 1000),
            ID.fieldId(), new ColumnStats(7L, 7L, 0L, 1000)));

    @Test
    public void testRangesAssumeEvenlySpreadValues()
    {
        assertThat(fraction(Predicates.lessOrEqual(DAY, 190))).isCloseTo(0.9, within(1e-9));
        assertThat(fraction(Predicates.greaterThan(DAY, 190))).isCloseTo(0.1, within(1e-9));
        assertThat(fraction(Predicates.lessThan(DAY, 50))).isZero();
        assertThat(fraction(Predicates.greaterOrEqual(DAY, 50))).isEqualTo(1.0);
        assertThat(fraction(Predicates.greaterOrEqual(AT, new Timestamp(250, 0)))).isCloseTo(0.75, within(1e-9));
        // a single value: all rows on one side of the literal
        assertThat(fraction(Predicates.lessOrEqual(ID, 7L))).isEqualTo(1.0);
        assertThat(fraction(Predicates.lessThan(ID, 6L))).isZero();
    }

    @Test
    public void testNullsNeverMatchARange()
    {
        // a quarter of the prices are NULL
        assertThat(fraction(Predicates.lessThan(PRICE, new BigDecimal("5.00")))).isCloseTo(0.375, within(1e-9));
    }

    @Test
    public void testConjunctionsMultiply()
    {
        Predicate both = Predicates.and(Predicates.lessOrEqual(DAY, 190), Predicates.greaterOrEqual(AT, new Timestamp(500, 0)));
        assertThat(fraction(both)).isCloseTo(0.45, within(1e-9));
    }

    @Test
    public void testUnknownWhereTheBoundsSayLittle()
    {
        // strings (bounds may be truncated), equality, OR, and a conjunction with an unknown part
        assertThat(SelectivityEstimator.fraction(Predicates.lessThan(NAME, "m"), STATS)).isEmpty();
        assertThat(SelectivityEstimator.fraction(Predicates.equal(DAY, 150), STATS)).isEmpty();
        assertThat(SelectivityEstimator.fraction(Predicates.or(Predicates.lessThan(DAY, 150), Predicates.greaterThan(DAY, 180)), STATS)).isEmpty();
        assertThat(SelectivityEstimator.fraction(Predicates.and(Predicates.lessThan(DAY, 150), Predicates.equal(DAY, 120)), STATS)).isEmpty();
        // no statistics, or no null count
        FieldRef other = new FieldRef(9, "other", DataTypes.integer());
        assertThat(SelectivityEstimator.fraction(Predicates.lessThan(other, 1), STATS)).isEmpty();
        StatsProvider noNullCount = stats(Map.of(DAY.fieldId(), new ColumnStats(100, 200, null, 1000)));
        assertThat(SelectivityEstimator.fraction(Predicates.lessThan(DAY, 150), noNullCount)).isEmpty();
    }

    private static double fraction(Predicate predicate)
    {
        OptionalDouble fraction = SelectivityEstimator.fraction(predicate, STATS);
        assertThat(fraction).as("%s", predicate).isPresent();
        return fraction.getAsDouble();
    }

    private static StatsProvider stats(Map<Integer, ColumnStats> byFieldId)
    {
        return field -> Optional.ofNullable(byFieldId.get(field.fieldId()));
    }
}
