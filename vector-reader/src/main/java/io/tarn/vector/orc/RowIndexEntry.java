package io.tarn.vector.orc;

import java.util.ArrayList;
import java.util.List;

/**
 * One row group's entry in a column's row index: where each of the column's streams stands at
 * the group's first row, and the group's statistics.
 */
record RowIndexEntry(long[] positions, ColumnStatistics statistics)
{
    static List<RowIndexEntry> parseIndex(ProtobufReader message)
    {
        List<RowIndexEntry> entries = new ArrayList<>();
        for (int field = message.nextField(); field >= 0; field = message.nextField()) {
            if (field == 1) {
                entries.add(parseEntry(message.readMessage()));
            }
            else {
                message.skip();
            }
        }
        return entries;
    }

    private static RowIndexEntry parseEntry(ProtobufReader message)
    {
        LongList positions = new LongList();
        ColumnStatistics statistics = ColumnStatistics.EMPTY;
        for (int field = message.nextField(); field >= 0; field = message.nextField()) {
            switch (field) {
                case 1 -> message.readUnsignedRepeated(positions);
                case 2 -> statistics = ColumnStatistics.parse(message.readMessage());
                default -> message.skip();
            }
        }
        return new RowIndexEntry(positions.toArray(), statistics);
    }
}
