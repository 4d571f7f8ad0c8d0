package io.tarn.vector.orc;

import io.tarn.vector.CorruptDataException;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The row indexes of a stripe's columns: for each row group, where each of a column's streams
 * stands at the group's first row, so that a read can move every column to a later group without
 * decoding the rows between.
 */
final class RowIndexes
{
    private final Map<Integer, List<RowIndexEntry>> entries;

    private RowIndexes(Map<Integer, List<RowIndexEntry>> entries)
    {
        this.entries = entries;
    }

    /**
     * The row indexes of {@code columns}, or empty when one of them has none, one that does not
     * parse, or one with another number of entries than the stripe has row groups: the read then
     * passes over rows by decoding them.
     */
    static Optional<RowIndexes> read(StripeStreams streams, Set<Integer> columns, long groups)
    {
        Map<Integer, List<RowIndexEntry>> entries = new HashMap<>();
        for (int column : columns) {
            Optional<List<RowIndexEntry>> index = parse(streams, column);
            if (index.isEmpty() || index.get().size() != groups) {
                return Optional.empty();
            }
            entries.put(column, index.get());
        }
        return Optional.of(new RowIndexes(entries));
    }

    /**
     * The parsed row index of a column, empty when the stripe has none or it does not parse.
     */
    static Optional<List<RowIndexEntry>> parse(StripeStreams streams, int column)
    {
        DecompressedStream stream = streams.stream(column, StripeFooter.Stream.ROW_INDEX);
        if (stream == null) {
            return Optional.empty();
        }
        try {
            byte[] bytes = stream.readAll(1 << 28);
            return Optional.of(RowIndexEntry.parseIndex(new ProtobufReader(bytes, 0, bytes.length)));
        }
        catch (CorruptDataException e) {
            return Optional.empty();
        }
    }

    /**
     * The positions of {@code column}'s streams at the start of row group {@code group}.
     */
    PositionCursor positions(int column, int group)
    {
        List<RowIndexEntry> index = entries.get(column);
        if (index == null || group < 0 || group >= index.size()) {
            throw new IllegalStateException("No row index entry " + group + " of column " + column);
        }
        return new PositionCursor(index.get(group).positions());
    }
}
