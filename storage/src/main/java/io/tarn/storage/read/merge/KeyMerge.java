package io.tarn.storage.read.merge;

import io.tarn.storage.UnsupportedTableFeatureException;

/**
 * The records of one key in merge order, and the one that survives: with {@code deduplicate},
 * the newest; with {@code first-row}, the first.
 */
final class KeyMerge
{
    private final String table;
    private final boolean firstRow;
    private final boolean ignoreDelete;
    private KeyCursor winner;
    private int winnerRow;
    private int records;
    private boolean sawRetraction;

    KeyMerge(String table, boolean firstRow, boolean ignoreDelete)
    {
        this.table = table;
        this.firstRow = firstRow;
        this.ignoreDelete = ignoreDelete;
    }

    void start()
    {
        winner = null;
        winnerRow = -1;
        records = 0;
        sawRetraction = false;
    }

    void add(KeyCursor record)
    {
        records++;
        boolean retraction = record.isRetraction();
        sawRetraction |= retraction;
        if (firstRow) {
            if (winner == null && !retraction) {
                winner = record;
                winnerRow = record.position();
            }
        }
        else if (!retraction || !ignoreDelete) {
            // the newest record wins; a retraction that wins removes the key
            winner = retraction ? null : record;
            winnerRow = record.position();
        }
    }

    void finish()
            throws UnsupportedTableFeatureException
    {
        if (firstRow && records > 1 && sawRetraction && !ignoreDelete) {
            throw new UnsupportedTableFeatureException("Table %s: the first-row merge engine cannot merge a retraction (-U/-D) record without 'ignore-delete'"
                    .formatted(table));
        }
        if (winner != null) {
            winner.select(winnerRow);
        }
    }
}
