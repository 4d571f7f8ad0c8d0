package io.tarn.trino;

import io.airlift.slice.Slices;
import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.Predicate.Comparison;
import io.tarn.index.predicate.Predicate.Comparison.Operator;
import io.tarn.index.predicate.Predicate.InRanges;
import io.tarn.index.predicate.RowEvaluator;
import io.tarn.types.DataField;
import io.tarn.types.DataTypes;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.Range;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.predicate.ValueSet;
import io.trino.spi.type.Type;
import org.testng.annotations.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link TarnPredicates}: Trino's domains become predicates that keep exactly the values SQL
 * keeps. {@code x <> 'N'} reaches the connector as the ranges below and above {@code 'N'} and
 * becomes an equality test (which the reader answers per dictionary value); REAL and DOUBLE keep
 * their ranges, since NaN lies in none of them.
 */
public class TestTarnPredicates
{
    private static final DataField NAME = new DataField(1, "flag", DataTypes.string());
    private static final DataField COUNT = new DataField(2, "n", DataTypes.bigint());
    private static final DataField RATIO = new DataField(3, "r", DataTypes.doubleType());

    @Test
    public void testAllButSomeStringsBecomeNotEqualOrNotIn()
    {
        Predicate notN = predicate(NAME, VARCHAR, Domain.create(ValueSet.of(VARCHAR, Slices.utf8Slice("N")).complement(), false));
        assertThat(notN).isInstanceOfSatisfying(Comparison.class, comparison -> assertThat(comparison.op()).isEqualTo(Operator.NOT_EQUAL));
        assertThat(results(notN, NAME, "A", "N", "Z", null)).containsExactly(true, false, true, null);

        Predicate notAOrN = predicate(NAME, VARCHAR, Domain.create(ValueSet.of(VARCHAR, Slices.utf8Slice("A"), Slices.utf8Slice("N")).complement(), false));
        assertThat(notAOrN).isNotInstanceOf(InRanges.class);
        assertThat(results(notAOrN, NAME, "A", "B", "N", "", null)).containsExactly(false, true, false, true, null);

        Predicate notNOrNull = predicate(NAME, VARCHAR, Domain.create(ValueSet.of(VARCHAR, Slices.utf8Slice("N")).complement(), true));
        assertThat(results(notNOrNull, NAME, "A", "N", null)).containsExactly(true, false, true);
    }

    @Test
    public void testOtherRangesStayRanges()
    {
        Predicate outside = predicate(COUNT, BIGINT, Domain.create(ValueSet.ofRanges(Range.lessThan(BIGINT, 5L), Range.greaterThan(BIGINT, 10L)), false));
        assertThat(outside).isInstanceOf(InRanges.class);
        assertThat(results(outside, COUNT, 4L, 5L, 10L, 11L, null)).containsExactly(true, false, false, true, null);

        Predicate allButFive = predicate(COUNT, BIGINT, Domain.create(ValueSet.of(BIGINT, 5L).complement(), false));
        assertThat(results(allButFive, COUNT, 4L, 5L, 6L)).containsExactly(true, false, true);

        // x <> 1.0 holds for NaN, but NaN is in neither of the ranges Trino sends: the ranges stay
        Predicate ratio = predicate(RATIO, DOUBLE, Domain.create(ValueSet.of(DOUBLE, 1.0).complement(), false));
        assertThat(ratio).isInstanceOf(InRanges.class);
        assertThat(results(ratio, RATIO, 0.5, 1.0, 2.0)).containsExactly(true, false, true);
    }

    private static Predicate predicate(DataField field, Type type, Domain domain)
    {
        TarnColumnHandle column = TarnColumnHandle.base(field.name(), field.id(), type);
        return TarnPredicates.toPredicate(TupleDomain.withColumnDomains(Map.of(column, domain)), List.of(field)).orElseThrow();
    }

    private static List<Boolean> results(Predicate predicate, DataField field, Object... values)
    {
        FieldRef ref = FieldRef.of(field);
        return Arrays.stream(values)
                .map(value -> RowEvaluator.evaluate(predicate, requested -> {
                    assertThat(requested.fieldId()).isEqualTo(ref.fieldId());
                    return value;
                }))
                .toList();
    }
}
