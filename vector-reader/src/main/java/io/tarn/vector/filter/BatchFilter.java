package io.tarn.vector.filter;

import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.RowEvaluator;
import io.tarn.index.predicate.SqlComparison;
import io.tarn.vector.rows.ArrowValues;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.nio.charset.StandardCharsets;
import java.util.IdentityHashMap;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Applies a residual {@link Predicate} to an Arrow batch column by column.
 *
 * <p>Each node of the predicate yields two bitmaps over the batch's rows: the rows where it is
 * TRUE and the rows where it is FALSE; a row in neither is unknown (SQL NULL). AND, OR and NOT
 * combine the bitmaps under Kleene logic, so the result equals {@link RowEvaluator#test} row by
 * row. FLOAT / DOUBLE compare as SQL does ({@link SqlComparison}: -0.0 = 0.0, NaN unordered).
 * Comparisons, IN and starts_with on integer, date, time, timestamp, floating-point, string
 * and binary columns, IN RANGES on integer, date, time, floating-point, string and binary
 * columns (up to {@link ByteRanges#MAX_RANGES} ranges on the last two), and comparisons on
 * decimals of up to 18 digits, read the Arrow buffers directly with the literal in the vector's
 * own representation; other cases (BOOLEAN, wider DECIMAL, IN on decimals, IN RANGES on decimals
 * and timestamps) go through {@link ArrowValues} and {@link RowEvaluator} row by row. IN and IN RANGES cost one binary search (or hash probe) per row, whatever the
 * number of literals or ranges ({@link FilterProbes} counts that work).
 *
 * <p>Strings are compared by their UTF-8 bytes, which is code-point order for well-formed UTF-8
 * (all that Paimon writes); a literal that is not well-formed UTF-16 (a lone surrogate) is
 * evaluated on decoded strings instead, as {@link io.tarn.types.ValueComparator} does.
 */
public final class BatchFilter
{
    private BatchFilter() {}

    /**
     * The ascending indexes of the rows of {@code root} for which {@code predicate} is TRUE.
     *
     * @param columns the column index in {@code root} of each field id that the predicate reads;
     * the vector there must be laid out as {@link io.tarn.vector.ArrowTypes} maps the field's type
     * @throws IllegalArgumentException if a field id has no column or a vector does not match its
     * field's type
     */
    public static int[] selectedRows(Predicate predicate, VectorSchemaRoot root, Map<Integer, Integer> columns)
    {
        return selectedRows(predicate, root, columns, Map.of());
    }

    /**
     * {@link #selectedRows(Predicate, VectorSchemaRoot, Map)} where the leaves of
     * {@code predicate} that are keys of {@code matchedLeaves} (the same objects: looked up by
     * identity) take their verdicts from those matches instead of from their columns, which the
     * batch then need not hold.
     */
    public static int[] selectedRows(Predicate predicate, VectorSchemaRoot root, Map<Integer, Integer> columns, Map<Predicate, LeafMatches> matchedLeaves)
    {
        return selectedRows(predicate, root, columns, matchedLeaves, new FilterProbes());
    }

    /**
     * {@link #selectedRows(Predicate, VectorSchemaRoot, Map, Map)} that adds the work of the
     * evaluation to {@code probes}.
     */
    public static int[] selectedRows(Predicate predicate, VectorSchemaRoot root, Map<Integer, Integer> columns, Map<Predicate, LeafMatches> matchedLeaves, FilterProbes probes)
    {
        requireNonNull(predicate, "predicate is null");
        requireNonNull(root, "root is null");
        requireNonNull(columns, "columns is null");
        requireNonNull(matchedLeaves, "matchedLeaves is null");
        requireNonNull(probes, "probes is null");
        Truth truth = PredicateEvaluator.evaluate(predicate, new PredicateEvaluator.Batch(root, columns, matchedLeaves.isEmpty() ? Map.of() : new IdentityHashMap<>(matchedLeaves), probes), root.getRowCount());
        return truth.trueRows();
    }

    /**
     * Keeps only the {@code selected} rows of {@code root}, in place: every vector is rebuilt with
     * those rows (in its own allocator) and replaces its old buffers, and the row count becomes
     * {@code selected.length}. The root and its memory stay the caller's.
     *
     * @param selected strictly ascending row indexes of {@code root}
     */
    public static void compact(VectorSchemaRoot root, int[] selected)
    {
        RowCopier.compact(root, selected);
    }

    /**
     * A new root holding copies of the {@code selected} rows of {@code root}, allocated from
     * {@code allocator}. The new root belongs to the caller, who must close it; {@code root} is
     * unchanged.
     *
     * @param selected strictly ascending row indexes of {@code root}
     */
    public static VectorSchemaRoot select(VectorSchemaRoot root, int[] selected, BufferAllocator allocator)
    {
        return RowCopier.select(root, selected, allocator);
    }

    /**
     * Makes {@code target}, a vector of {@code source}'s type whose old contents are dropped,
     * hold the {@code selected} rows of {@code source}, in that order. The vectors stay their
     * owners'.
     *
     * @param selected strictly ascending row indexes of {@code source}
     */
    public static void copyRows(FieldVector source, int[] selected, FieldVector target)
    {
        requireNonNull(source, "source is null");
        requireNonNull(target, "target is null");
        RowCopier.copyRows(source, selected, target);
    }

    /**
     * The UTF-8 bytes of {@code value}, or null when it is not well-formed UTF-16 (a lone
     * surrogate), which byte comparisons would get wrong.
     */
    static byte[] utf8(String value)
    {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))) {
                i++;
            }
            else if (Character.isSurrogate(c)) {
                return null;
            }
        }
        return value.getBytes(StandardCharsets.UTF_8);
    }
}
