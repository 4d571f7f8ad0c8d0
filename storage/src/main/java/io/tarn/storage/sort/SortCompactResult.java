package io.tarn.storage.sort;

import io.tarn.storage.snapshot.Snapshot;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * What a sort-compact did.
 *
 * @param snapshot the OVERWRITE snapshot committed; empty when no partition matched
 * @param partitions partitions rewritten
 * @param filesRead live files replaced
 * @param filesWritten files written
 * @param rows rows written
 * @param spilledRuns sorted runs spilled to disk (0 when every partition fit in memory)
 */
public record SortCompactResult(Optional<Snapshot> snapshot, int partitions, int filesRead, int filesWritten, long rows, int spilledRuns)
{
    public SortCompactResult
    {
        requireNonNull(snapshot, "snapshot is null");
    }
}
