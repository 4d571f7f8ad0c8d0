package io.tarn.vector.filter;

import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.Predicate.And;
import io.tarn.index.predicate.Predicate.Comparison;
import io.tarn.index.predicate.Predicate.Comparison.Operator;
import io.tarn.index.predicate.Predicate.In;
import io.tarn.index.predicate.Predicate.Not;
import io.tarn.index.predicate.Predicate.Or;
import io.tarn.types.TypeRoot;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * An equality test ({@code =}, {@code <>} or {@code IN} of literals) of a string or binary
 * column: all it needs of a value is whether the value equals one of the literals, which a reader
 * can answer without decoded values: on the encoded page bytes when the filter reads the column
 * nowhere else ({@link #soleLeaf}, the column is then not decoded at all), or once per entry of a
 * row group's dictionary ({@link #equalityLeaves}). The results are {@link LeafMatches}.
 * {@code literals} are the UTF-8 or raw bytes that a value must equal.
 * <p>
 * Internal to the vector-reader module: public only for the reader package.
 */
public record ByteEqualityLeaf(Predicate leaf, List<byte[]> literals)
{
    // a longer IN list is compared one literal at a time per value: decoding then costs less
    static final int MAX_LITERALS = 16;

    public ByteEqualityLeaf
    {
        requireNonNull(leaf, "leaf is null");
        literals = List.copyOf(requireNonNull(literals, "literals is null"));
    }

    /**
     * The leaf of {@code filter} on field {@code fieldId}, when the filter reads that field in
     * exactly one place and that place is an equality test of string or binary literals.
     */
    public static Optional<ByteEqualityLeaf> soleLeaf(Predicate filter, int fieldId)
    {
        List<Predicate> leaves = leavesOf(filter, fieldId);
        return leaves.size() == 1 ? of(leaves.get(0)) : Optional.empty();
    }

    /**
     * The leaves of {@code filter} on field {@code fieldId} that are equality tests of string or
     * binary literals, wherever they are in the filter; its other leaves on the field are left out.
     */
    public static List<ByteEqualityLeaf> equalityLeaves(Predicate filter, int fieldId)
    {
        List<ByteEqualityLeaf> equalities = new ArrayList<>();
        for (Predicate leaf : leavesOf(filter, fieldId)) {
            of(leaf).ifPresent(equalities::add);
        }
        return equalities;
    }

    private static List<Predicate> leavesOf(Predicate filter, int fieldId)
    {
        List<Predicate> leaves = new ArrayList<>();
        collectLeaves(filter, fieldId, leaves);
        return leaves;
    }

    private static Optional<ByteEqualityLeaf> of(Predicate leaf)
    {
        List<Object> values;
        if (leaf instanceof Comparison comparison && (comparison.op() == Operator.EQUAL || comparison.op() == Operator.NOT_EQUAL)) {
            values = List.of(comparison.literal());
        }
        else if (leaf instanceof In in && in.literals().size() <= MAX_LITERALS) {
            values = in.literals();
        }
        else {
            return Optional.empty();
        }
        TypeRoot root = (leaf instanceof Comparison comparison ? comparison.field() : ((In) leaf).field()).type().root();
        if (root != TypeRoot.CHAR && root != TypeRoot.VARCHAR && root != TypeRoot.BINARY && root != TypeRoot.VARBINARY) {
            return Optional.empty();
        }
        List<byte[]> literals = new ArrayList<>(values.size());
        for (Object value : values) {
            byte[] bytes = value instanceof String string ? BatchFilter.utf8(string) : value instanceof byte[] raw ? raw : null;
            if (bytes == null) {
                // a string that is not well-formed UTF-16 compares as decoded text, not as bytes
                return Optional.empty();
            }
            literals.add(bytes);
        }
        return Optional.of(new ByteEqualityLeaf(leaf, literals));
    }

    private static void collectLeaves(Predicate predicate, int fieldId, List<Predicate> leaves)
    {
        if (predicate instanceof And and) {
            and.children().forEach(child -> collectLeaves(child, fieldId, leaves));
        }
        else if (predicate instanceof Or or) {
            or.children().forEach(child -> collectLeaves(child, fieldId, leaves));
        }
        else if (predicate instanceof Not not) {
            collectLeaves(not.predicate(), fieldId, leaves);
        }
        else if (predicate.fieldIds().contains(fieldId)) {
            leaves.add(predicate);
        }
    }
}
