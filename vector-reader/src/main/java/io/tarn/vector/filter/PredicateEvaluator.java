package io.tarn.vector.filter;

import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.Predicate.AlwaysFalse;
import io.tarn.index.predicate.Predicate.AlwaysTrue;
import io.tarn.index.predicate.Predicate.And;
import io.tarn.index.predicate.Predicate.Comparison;
import io.tarn.index.predicate.Predicate.Comparison.Operator;
import io.tarn.index.predicate.Predicate.In;
import io.tarn.index.predicate.Predicate.InRanges;
import io.tarn.index.predicate.Predicate.IsNotNull;
import io.tarn.index.predicate.Predicate.IsNull;
import io.tarn.index.predicate.Predicate.Not;
import io.tarn.index.predicate.Predicate.Or;
import io.tarn.index.predicate.Predicate.StartsWith;
import io.tarn.index.predicate.RowEvaluator;
import io.tarn.types.DataType;
import io.tarn.vector.rows.ArrowValues;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Evaluates a predicate on a batch node by node: each node yields a {@link Truth}, the rows
 * where it is TRUE and the rows where it is FALSE, and AND, OR and NOT combine them under Kleene
 * logic. Leaves go to {@link LeafTests} on the raw buffers where the type allows, else row by row
 * through {@link RowEvaluator}; leaves whose verdicts the reader found in the pages take them
 * from their {@link LeafMatches}.
 */
final class PredicateEvaluator
{
    private PredicateEvaluator() {}

    record Batch(VectorSchemaRoot root, Map<Integer, Integer> columns, Map<Predicate, LeafMatches> matchedLeaves, FilterProbes probes) {}

    static Truth evaluate(Predicate predicate, Batch batch, int rows)
    {
        VectorSchemaRoot root = batch.root();
        Map<Integer, Integer> columns = batch.columns();
        LeafMatches matches = batch.matchedLeaves().get(predicate);
        if (matches != null) {
            return matched(predicate, matches, rows);
        }
        if (predicate instanceof And and) {
            Truth result = null;
            // range tests of one column (x >= a AND x < b) become one pass over its values
            Map<FieldVector, IntegerRange> ranges = new IdentityHashMap<>();
            for (Predicate child : and.children()) {
                IntegerRange range = child instanceof Comparison comparison && !batch.matchedLeaves().containsKey(child)
                        ? IntegerRange.of(comparison, column(comparison.field(), root, columns))
                        : null;
                if (range != null && range.trueInside()) {
                    ranges.merge(range.vector(), range, IntegerRange::intersect);
                    continue;
                }
                Truth truth;
                if (range != null) {
                    // a <> of an integer column: its range is at hand already
                    batch.probes().add(rows);
                    truth = new Truth(rows);
                    range.test(rows, truth);
                }
                else {
                    truth = evaluate(child, batch, rows);
                }
                result = result == null ? truth : result.and(truth);
            }
            for (IntegerRange range : ranges.values()) {
                // one range test stands for the comparisons merged into it: count one per row and bound
                batch.probes().add(2L * rows);
                Truth truth = new Truth(rows);
                range.test(rows, truth);
                result = result == null ? truth : result.and(truth);
            }
            return result;
        }
        if (predicate instanceof Or or) {
            Truth result = null;
            for (Predicate child : or.children()) {
                Truth truth = evaluate(child, batch, rows);
                result = result == null ? truth : result.or(truth);
            }
            return result;
        }
        if (predicate instanceof Not not) {
            return evaluate(not.predicate(), batch, rows).not();
        }
        if (predicate instanceof AlwaysTrue) {
            return Truth.constant(rows, true);
        }
        if (predicate instanceof AlwaysFalse) {
            return Truth.constant(rows, false);
        }
        if (predicate instanceof IsNull isNull) {
            return nulls(column(isNull.field(), root, columns), rows, true);
        }
        if (predicate instanceof IsNotNull isNotNull) {
            return nulls(column(isNotNull.field(), root, columns), rows, false);
        }
        if (predicate instanceof Comparison comparison) {
            FieldVector vector = column(comparison.field(), root, columns);
            batch.probes().add(rows);
            Truth truth = new Truth(rows);
            if (!LeafTests.compare(comparison, vector, rows, truth)) {
                rowByRow(predicate, comparison.field(), vector, rows, truth);
            }
            return truth;
        }
        if (predicate instanceof In in) {
            FieldVector vector = column(in.field(), root, columns);
            Truth truth = new Truth(rows);
            if (!LeafTests.in(in, vector, rows, truth)) {
                rowByRow(predicate, in.field(), vector, rows, truth);
            }
            batch.probes().add((long) rows * (in.hasConstantTimeMembership() ? 1 : FilterProbes.binarySearchSteps(in.literals().size())));
            return truth;
        }
        if (predicate instanceof InRanges inRanges) {
            FieldVector vector = column(inRanges.field(), root, columns);
            Truth truth = new Truth(rows);
            if (!LeafTests.inRanges(inRanges, vector, rows, truth)) {
                rowByRow(predicate, inRanges.field(), vector, rows, truth);
            }
            // a range holds two bounds: finding the candidate, then testing its other bound
            batch.probes().add((long) rows * (FilterProbes.binarySearchSteps(inRanges.ranges().size()) + 1));
            return truth;
        }
        if (predicate instanceof StartsWith startsWith) {
            FieldVector vector = column(startsWith.field(), root, columns);
            batch.probes().add(rows);
            Truth truth = new Truth(rows);
            byte[] prefix = BatchFilter.utf8(startsWith.prefix());
            if (prefix != null && vector instanceof BaseVariableWidthVector strings) {
                LeafTests.startsWith(strings, prefix, rows, truth);
            }
            else {
                rowByRow(predicate, startsWith.field(), vector, rows, truth);
            }
            return truth;
        }
        throw new IllegalArgumentException("Unknown predicate: " + predicate.getClass().getName());
    }

    /**
     * The verdicts of an equality leaf ({@code =}, {@code IN}: true where equal; {@code <>}: true
     * where valid and not equal) from its matches; null rows are unknown.
     */
    private static Truth matched(Predicate leaf, LeafMatches matches, int rows)
    {
        if (matches.rows() != rows) {
            throw new IllegalArgumentException("Matches of " + matches.rows() + " rows for a batch of " + rows + " rows");
        }
        boolean trueWhenEqual = !(leaf instanceof Comparison comparison && comparison.op() == Operator.NOT_EQUAL);
        Truth truth = new Truth(rows);
        long[] equal = matches.equal();
        long[] valid = matches.valid();
        for (int word = 0; word < Truth.words(rows); word++) {
            long equalBits = equal[word] & valid[word];
            long otherBits = ~equal[word] & valid[word];
            truth.assign(word, trueWhenEqual ? equalBits : otherBits, trueWhenEqual ? otherBits : equalBits);
        }
        return truth;
    }

    private static FieldVector column(FieldRef field, VectorSchemaRoot root, Map<Integer, Integer> columns)
    {
        Integer index = columns.get(field.fieldId());
        if (index == null) {
            throw new IllegalArgumentException("Column " + field.name() + " (field id " + field.fieldId() + ") of the filter is not in the batch");
        }
        if (index < 0 || index >= root.getFieldVectors().size()) {
            throw new IllegalArgumentException("Column index " + index + " of field " + field.name() + " is outside the batch's " + root.getFieldVectors().size() + " columns");
        }
        FieldVector vector = root.getVector(index);
        if (vector.getValueCount() < root.getRowCount()) {
            throw new IllegalArgumentException("Column " + field.name() + " has " + vector.getValueCount() + " values but the batch has " + root.getRowCount() + " rows");
        }
        return vector;
    }

    private static Truth nulls(FieldVector vector, int rows, boolean isNull)
    {
        if (vector instanceof BaseFixedWidthVector || vector instanceof BaseVariableWidthVector) {
            long[] valid = VectorAccess.validityWords(vector, rows);
            Truth truth = new Truth(rows);
            for (int word = 0; word < Truth.words(rows); word++) {
                long all = Truth.lowBits(Math.min(Long.SIZE, rows - (word << 6)));
                long validBits = valid == null ? all : valid[word];
                truth.assign(word, isNull ? all & ~validBits : validBits, isNull ? validBits : all & ~validBits);
            }
            return truth;
        }
        Truth truth = new Truth(rows);
        for (int row = 0; row < rows; row++) {
            truth.set(row, vector.isNull(row) == isNull);
        }
        return truth;
    }

    private static void rowByRow(Predicate leaf, FieldRef field, FieldVector vector, int rows, Truth truth)
    {
        DataType type = field.type();
        for (int row = 0; row < rows; row++) {
            Object value = ArrowValues.value(vector, row, type);
            Boolean result = RowEvaluator.evaluate(leaf, ignored -> value);
            if (result != null) {
                truth.set(row, result);
            }
        }
    }
}
