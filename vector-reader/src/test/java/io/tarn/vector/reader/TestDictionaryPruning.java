package io.tarn.vector.reader;

import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.Predicates;
import io.tarn.types.DataTypes;
import org.testng.annotations.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

public class TestDictionaryPruning
{
    private static final FieldRef D = new FieldRef(1, "d", DataTypes.doubleType());
    private static final FieldRef F = new FieldRef(2, "f", DataTypes.floatType());
    private static final FieldRef X = new FieldRef(3, "x", DataTypes.integer());

    @Test
    public void testFloatingPointDictionariesMatchAsSql()
    {
        // -0.0 = 0.0 under SQL, whichever zero the dictionary holds
        assertThat(mightMatch(Predicates.equal(D, 0.0), List.of(-0.0, 1.0))).isTrue();
        assertThat(mightMatch(Predicates.equal(D, -0.0), List.of(0.0))).isTrue();
        assertThat(mightMatch(Predicates.in(D, List.of(7.0, 0.0)), List.of(-0.0))).isTrue();
        assertThat(mightMatch(Predicates.equal(F, 0.0f), List.of(-0.0f))).isTrue();
        assertThat(mightMatch(Predicates.equal(F, -0.0f), List.of(2.0f, 0.0f))).isTrue();
        // NaN equals nothing, not even a NaN entry
        assertThat(mightMatch(Predicates.equal(D, Double.NaN), List.of(Double.NaN, 1.0))).isFalse();
        assertThat(mightMatch(Predicates.in(F, List.of(Float.NaN)), List.of(Float.NaN))).isFalse();
        assertThat(mightMatch(Predicates.in(D, List.of(Double.NaN, 1.0)), List.of(Double.NaN, 1.0))).isTrue();
        // values not in the dictionary: subnormals are not zero
        assertThat(mightMatch(Predicates.equal(D, 0.0), List.of(Double.MIN_VALUE, -Double.MIN_VALUE, Double.NaN))).isFalse();
        assertThat(mightMatch(Predicates.equal(F, 2.5f), List.of(-0.0f, 0.0f, Float.NaN, Float.POSITIVE_INFINITY))).isFalse();
        // NaN <> v and NOT (NaN < v) are TRUE: never pruned by a dictionary
        assertThat(mightMatch(Predicates.notEqual(D, 1.0), List.of(1.0))).isTrue();
        assertThat(mightMatch(Predicates.not(Predicates.lessThan(D, 5.0)), List.of(1.0))).isTrue();
        // other types are unchanged
        assertThat(mightMatch(Predicates.equal(X, 3), List.of(1, 2))).isFalse();
        assertThat(mightMatch(Predicates.equal(X, 2), List.of(1, 2))).isTrue();
    }

    private static boolean mightMatch(Predicate predicate, List<Object> dictionary)
    {
        return DictionaryPruning.mightMatch(predicate, field -> Optional.of(dictionary));
    }
}
