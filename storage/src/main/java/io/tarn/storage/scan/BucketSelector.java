package io.tarn.storage.scan;

import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.Predicate.And;
import io.tarn.index.predicate.Predicate.Comparison;
import io.tarn.index.predicate.Predicate.In;
import io.tarn.index.predicate.SqlComparison;
import io.tarn.storage.binary.BinaryRow;
import io.tarn.storage.binary.BinaryRowWriter;
import io.tarn.storage.binary.BucketFunction;
import io.tarn.types.DataField;
import io.tarn.types.DataType;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Chooses the buckets that can hold matching rows of a fixed-bucket table, when the filter pins
 * every bucket-key column to one value or a short list ({@code k = v} or {@code k IN (...)}
 * among the top-level conjuncts; a FLOAT / DOUBLE zero pins both zeros, equal under SQL). The bucket count is taken per entry, since an overwrite may
 * have rescaled a partition.
 */
final class BucketSelector
{
    private static final int MAX_KEY_COMBINATIONS = 1024;

    private final List<BinaryRow> keyRows;
    private final List<DataType> keyTypes;
    private final boolean modFunction;
    private final Map<Integer, Set<Integer>> bucketsByTotal = new HashMap<>();

    private BucketSelector(List<BinaryRow> keyRows, List<DataType> keyTypes, boolean modFunction)
    {
        this.keyRows = List.copyOf(keyRows);
        this.keyTypes = List.copyOf(keyTypes);
        this.modFunction = modFunction;
    }

    static Optional<BucketSelector> create(Predicate predicate, List<DataField> bucketKeys, boolean modFunction)
    {
        if (bucketKeys.isEmpty()) {
            return Optional.empty();
        }
        List<Predicate> conjuncts = predicate instanceof And conjunction ? conjunction.children() : List.of(predicate);
        List<List<Object>> valuesPerKey = new ArrayList<>();
        for (DataField key : bucketKeys) {
            Optional<Set<Object>> values = pinnedValues(conjuncts, key);
            if (values.isEmpty()) {
                return Optional.empty();
            }
            valuesPerKey.add(new ArrayList<>(values.get()));
        }
        long combinations = 1;
        for (List<Object> values : valuesPerKey) {
            combinations *= values.size();
            if (combinations > MAX_KEY_COMBINATIONS) {
                return Optional.empty();
            }
        }
        List<DataType> types = bucketKeys.stream().map(DataField::type).toList();
        List<BinaryRow> rows = new ArrayList<>();
        addCombinations(valuesPerKey, 0, new ArrayList<>(), types, rows);
        return Optional.of(new BucketSelector(rows, types, modFunction));
    }

    boolean select(int bucket, int totalBuckets)
    {
        if (totalBuckets <= 0) {
            // dynamic or postpone buckets: placement is not a function of the key
            return true;
        }
        return bucketsByTotal.computeIfAbsent(totalBuckets, this::bucketsFor).contains(bucket);
    }

    private Set<Integer> bucketsFor(int totalBuckets)
    {
        Set<Integer> buckets = new HashSet<>();
        for (BinaryRow row : keyRows) {
            buckets.add(modFunction ? BucketFunction.modBucket(row, keyTypes.get(0), totalBuckets) : BucketFunction.bucket(row, totalBuckets));
        }
        return buckets;
    }

    private static Optional<Set<Object>> pinnedValues(List<Predicate> conjuncts, DataField key)
    {
        for (Predicate conjunct : conjuncts) {
            if (conjunct instanceof Comparison comparison
                    && comparison.op() == Comparison.Operator.EQUAL
                    && comparison.field().fieldId() == key.id()) {
                return Optional.of(keyValues(List.of(comparison.literal())));
            }
            if (conjunct instanceof In in && in.field().fieldId() == key.id()) {
                return Optional.of(keyValues(in.literals()));
            }
        }
        return Optional.empty();
    }

    /**
     * The key values whose buckets hold the rows equal to {@code literals}: a floating-point zero
     * equals both zeros, which hash apart by their bits.
     */
    private static Set<Object> keyValues(List<Object> literals)
    {
        Set<Object> values = new LinkedHashSet<>();
        for (Object literal : literals) {
            values.add(literal);
            if (SqlComparison.isZero(literal)) {
                values.add(SqlComparison.otherZero(literal));
            }
        }
        return values;
    }

    private static void addCombinations(List<List<Object>> valuesPerKey, int index, List<Object> prefix, List<DataType> types, List<BinaryRow> rows)
    {
        if (index == valuesPerKey.size()) {
            rows.add(BinaryRowWriter.encode(types, prefix));
            return;
        }
        for (Object value : valuesPerKey.get(index)) {
            prefix.add(value);
            addCombinations(valuesPerKey, index + 1, prefix, types, rows);
            prefix.remove(prefix.size() - 1);
        }
    }
}
