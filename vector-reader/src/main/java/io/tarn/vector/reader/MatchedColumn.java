package io.tarn.vector.reader;

import io.tarn.vector.CorruptDataException;
import io.tarn.vector.filter.ByteEqualityLeaf;
import io.tarn.vector.filter.LeafMatches;
import io.tarn.vector.reader.decoders.MatchBits;
import io.tarn.vector.reader.decoders.SelectionMasks;
import io.tarn.vector.reader.decoders.ValueMatcher;

import java.util.Arrays;

/**
 * A column compared in its pages: its file leaf, the filter's test of it, the matcher, and
 * the bit arrays of its batch matches, reused from batch to batch.
 */
final class MatchedColumn
{
    private final int leaf;
    private final ByteEqualityLeaf equality;
    private final ValueMatcher matcher;
    private long[] equal = new long[0];
    private long[] valid = new long[0];

    MatchedColumn(int leaf, ByteEqualityLeaf equality)
    {
        this.leaf = leaf;
        this.equality = equality;
        this.matcher = new ValueMatcher(equality.literals());
    }

    int leaf()
    {
        return leaf;
    }

    ByteEqualityLeaf equality()
    {
        return equality;
    }

    ValueMatcher matcher()
    {
        return matcher;
    }

    long[] equal(int words)
    {
        equal = cleared(equal, words);
        return equal;
    }

    long[] valid(int words)
    {
        valid = cleared(valid, words);
        return valid;
    }

    /**
     * The matches of the batch {@code reader} (this column's) just read, from its definition
     * levels and value verdicts; the arrays are reused by the next batch.
     */
    LeafMatches matches(ColumnReader reader, int rows)
    {
        if (reader.entries != rows) {
            throw new CorruptDataException("Column read " + reader.entries + " entries for a batch of " + rows + " rows");
        }
        int words = SelectionMasks.words(rows);
        long[] equal = equal(words);
        long[] valid = valid(words);
        MatchBits verdicts = reader.matches;
        if (verdicts.count == rows) {
            // a value per row: no row is null
            Arrays.fill(valid, 0, words, -1L);
            if ((rows & 63) != 0) {
                valid[words - 1] = (1L << rows) - 1;
            }
            System.arraycopy(verdicts.words, 0, equal, 0, words);
            return new LeafMatches(rows, equal, valid);
        }
        int maxDefinition = reader.maxDefinition();
        int value = 0;
        for (int row = 0; row < rows; row++) {
            if (maxDefinition == 0 || reader.definitions[row] == maxDefinition) {
                valid[row >>> 6] |= 1L << row;
                equal[row >>> 6] |= (verdicts.get(value++) ? 1L : 0L) << row;
            }
        }
        if (value != verdicts.count) {
            throw new CorruptDataException("Column has " + verdicts.count + " values for " + value + " non-null rows");
        }
        return new LeafMatches(rows, equal, valid);
    }

    /**
     * {@code bits} with its first {@code words} words cleared, or a new array when it is shorter.
     */
    static long[] cleared(long[] bits, int words)
    {
        if (bits.length < words) {
            return new long[words];
        }
        Arrays.fill(bits, 0, words, 0L);
        return bits;
    }
}
