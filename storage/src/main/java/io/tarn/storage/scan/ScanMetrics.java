package io.tarn.storage.scan;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What planning read and what each pruning rule saved. Files are counted once, by the first rule
 * that removed them, in the order partition → bucket → level → statistics → file index (embedded,
 * or in an {@code .index} file when the planner opens those). {@code indexFilesRead} counts the
 * {@code .index} files opened; {@code indexesIgnored} counts file indexes that were corrupt,
 * missing or of an unsupported type, and so not used.
 */
public record ScanMetrics(
        long manifestsPlanned,
        long manifestsSkippedByPartition,
        long manifestsSkippedByLevel,
        long entriesRead,
        long filesSkippedByPartition,
        long filesSkippedByBucket,
        long filesSkippedByLevel,
        long filesSkippedByStats,
        long filesPlanned,
        long splitsPlanned,
        long filesSkippedByEmbeddedIndex,
        long indexFilesRead,
        long filesSkippedByIndexFile,
        long indexesIgnored)
{
    public long manifestsRead()
    {
        return manifestsPlanned - manifestsSkippedByPartition - manifestsSkippedByLevel;
    }

    public long filesSkipped()
    {
        return filesSkippedByPartition + filesSkippedByBucket + filesSkippedByLevel + filesSkippedByStats + filesSkippedByEmbeddedIndex + filesSkippedByIndexFile;
    }

    /**
     * The counters by name, in a stable order, for logs and `key=value` output.
     */
    public Map<String, Long> asMap()
    {
        Map<String, Long> map = new LinkedHashMap<>();
        map.put("manifests_planned", manifestsPlanned);
        map.put("manifests_read", manifestsRead());
        map.put("manifests_skipped_partition", manifestsSkippedByPartition);
        map.put("manifests_skipped_level", manifestsSkippedByLevel);
        map.put("entries_read", entriesRead);
        map.put("files_skipped_partition", filesSkippedByPartition);
        map.put("files_skipped_bucket", filesSkippedByBucket);
        map.put("files_skipped_level", filesSkippedByLevel);
        map.put("files_skipped_stats", filesSkippedByStats);
        map.put("files_skipped_embedded_index", filesSkippedByEmbeddedIndex);
        map.put("index_files_read", indexFilesRead);
        map.put("files_skipped_index_file", filesSkippedByIndexFile);
        map.put("indexes_ignored", indexesIgnored);
        map.put("files_planned", filesPlanned);
        map.put("splits_planned", splitsPlanned);
        return map;
    }
}
