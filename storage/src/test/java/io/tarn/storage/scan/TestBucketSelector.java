package io.tarn.storage.scan;

import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicates;
import io.tarn.storage.binary.BinaryRowWriter;
import io.tarn.storage.binary.BucketFunction;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.DataTypes;
import org.testng.annotations.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

public class TestBucketSelector
{
    /**
     * Under SQL -0.0 = 0.0, but the zeros hash to buckets by their bits: a zero literal must
     * select the buckets of both, or the rows of the other zero are lost.
     */
    @Test
    public void testZeroSelectsTheBucketsOfBothZeros()
    {
        for (DataType type : List.of(DataTypes.doubleType(), DataTypes.floatType())) {
            DataField key = new DataField(1, "d", type);
            Object positive = type.equals(DataTypes.floatType()) ? (Object) 0.0f : (Object) 0.0;
            Object negative = type.equals(DataTypes.floatType()) ? (Object) (-0.0f) : (Object) (-0.0);
            int buckets = 0;
            for (int total = 2; total <= 64; total++) {
                int positiveBucket = BucketFunction.bucket(BinaryRowWriter.encode(List.of(type), List.of(positive)), total);
                int negativeBucket = BucketFunction.bucket(BinaryRowWriter.encode(List.of(type), List.of(negative)), total);
                for (Object literal : List.of(positive, negative)) {
                    BucketSelector equal = BucketSelector.create(Predicates.equal(FieldRef.of(key), literal), List.of(key), false).orElseThrow();
                    BucketSelector in = BucketSelector.create(Predicates.in(FieldRef.of(key), List.of(literal)), List.of(key), false).orElseThrow();
                    assertThat(equal.select(positiveBucket, total) && equal.select(negativeBucket, total)).as("%s = %s, %s buckets", type, literal, total).isTrue();
                    assertThat(in.select(positiveBucket, total) && in.select(negativeBucket, total)).as("%s IN (%s), %s buckets", type, literal, total).isTrue();
                }
                if (positiveBucket != negativeBucket) {
                    buckets++;
                }
            }
            // the zeros do land in different buckets, so the check above has teeth
            assertThat(buckets).as("bucket counts where the zeros part").isPositive();
        }
    }
}
