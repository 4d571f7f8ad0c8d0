package io.tarn.storage.scan;

import io.tarn.storage.metrics.Counters;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.snapshot.Snapshot;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * The result of planning a scan: the snapshot it read (empty for a table without snapshots), the
 * schema rows are read with (the snapshot's own schema), the splits and the pruning counters.
 */
public record ScanPlan(Optional<Snapshot> snapshot, TableSchema readSchema, List<DataSplit> splits, Counters metrics)
{
    public ScanPlan
    {
        requireNonNull(snapshot, "snapshot is null");
        requireNonNull(readSchema, "readSchema is null");
        splits = List.copyOf(requireNonNull(splits, "splits is null"));
        requireNonNull(metrics, "metrics is null");
    }

    /**
     * The planned files, each once: the splits of row ranges of one file share its object, so
     * identity tells them apart without hashing every file's statistics.
     */
    public List<PlannedFile> files()
    {
        Set<PlannedFile> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<PlannedFile> files = new ArrayList<>();
        for (DataSplit split : splits) {
            for (PlannedFile file : split.files()) {
                if (seen.add(file)) {
                    files.add(file);
                }
            }
        }
        return Collections.unmodifiableList(files);
    }
}
