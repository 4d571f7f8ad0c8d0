package io.tarn.vector.reader;

import io.tarn.index.predicate.Predicate;
import io.tarn.vector.filter.ByteEqualityLeaf;
import io.tarn.vector.filter.LeafMatches;
import io.tarn.vector.reader.decoders.SelectionMasks;
import io.tarn.vector.reader.decoders.ValueMatcher;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A string or binary column that the filter tests for equality with literals and that is decoded
 * anyway (it is also an output, or the filter tests it in several places): where a batch's values
 * all come from the row group's dictionary, each equality test is answered once per dictionary
 * entry and then looked up by each row's dictionary id, instead of comparing every row's bytes.
 * A column of a few distinct values (a ship mode, a status flag) costs one array read per row.
 * The bit arrays of the matches are reused from batch to batch.
 */
final class DictionaryMatchedColumn
{
    private final int leaf;
    private final List<Test> tests;

    DictionaryMatchedColumn(int leaf, List<ByteEqualityLeaf> equalities)
    {
        this.leaf = leaf;
        this.tests = equalities.stream().map(Test::new).toList();
        if (tests.isEmpty()) {
            throw new IllegalArgumentException("No equality tests for leaf " + leaf);
        }
    }

    int leaf()
    {
        return leaf;
    }

    /**
     * Puts the matches of each equality test of this column into {@code matches}, keyed by the
     * filter's leaf, when every value of the batch {@code reader} just read came from its
     * dictionary; otherwise leaves {@code matches} alone and the filter reads the decoded values.
     */
    void addMatches(ColumnReader reader, int rows, RowDictionaryIds rowIds, Map<Predicate, LeafMatches> matches)
    {
        Optional<DictionaryIds> batchIds = rowIds.of(reader, rows);
        if (batchIds.isEmpty()) {
            return;
        }
        int[] ids = batchIds.get().ids();
        for (Test test : tests) {
            long[] verdicts = test.matcher.dictionaryVerdicts(reader.dictionary());
            int words = SelectionMasks.words(rows);
            long[] equal = test.equal(words);
            long[] valid = test.valid(words);
            for (int row = 0; row < rows; row++) {
                int id = ids[row];
                if (id >= 0) {
                    long bit = 1L << row;
                    valid[row >>> 6] |= bit;
                    // a set verdict bit becomes the row's bit
                    equal[row >>> 6] |= ((verdicts[id >>> 6] >>> id) & 1L) << row;
                }
            }
            matches.put(test.equality.leaf(), new LeafMatches(rows, equal, valid));
        }
    }

    private static final class Test
    {
        private final ByteEqualityLeaf equality;
        private final ValueMatcher matcher;
        private long[] equal = new long[0];
        private long[] valid = new long[0];

        Test(ByteEqualityLeaf equality)
        {
            this.equality = requireNonNull(equality, "equality is null");
            this.matcher = new ValueMatcher(equality.literals());
        }

        long[] equal(int words)
        {
            equal = MatchedColumn.cleared(equal, words);
            return equal;
        }

        long[] valid(int words)
        {
            valid = MatchedColumn.cleared(valid, words);
            return valid;
        }
    }
}
