package io.tarn.storage.metrics;

import static java.util.Objects.requireNonNull;

/**
 * Every counter Tarn reports, with the one name it has in every front end (CLI, C ABI, Trino's
 * connector metrics) and the one thing it counts. Planning counters describe one plan; reading
 * counters add up over the splits read.
 */
public enum Counter
{
    // planning: files are counted once, by the first rule that removed them, in the order
    // partition, bucket, level, statistics, embedded file index, index file
    MANIFESTS_PLANNED(Stage.PLANNING, "manifests_planned", "manifests the snapshot's manifest lists name"),
    MANIFESTS_READ(Stage.PLANNING, "manifests_read", "manifests opened"),
    MANIFESTS_SKIPPED_BY_PARTITION(Stage.PLANNING, "manifests_skipped_partition", "manifests not opened: their partition statistics rule out the filter"),
    MANIFESTS_SKIPPED_BY_LEVEL(Stage.PLANNING, "manifests_skipped_level", "manifests not opened: they hold only level-0 files a batch read does not see"),
    ENTRIES_READ(Stage.PLANNING, "entries_read", "manifest entries decoded"),
    FILES_SKIPPED_BY_PARTITION(Stage.PLANNING, "files_skipped_partition", "files of partitions the filter rules out"),
    FILES_SKIPPED_BY_BUCKET(Stage.PLANNING, "files_skipped_bucket", "files of buckets the filter rules out"),
    FILES_SKIPPED_BY_LEVEL(Stage.PLANNING, "files_skipped_level", "level-0 files a batch read does not see"),
    FILES_SKIPPED_BY_STATS(Stage.PLANNING, "files_skipped_stats", "files whose statistics rule out the filter"),
    FILES_SKIPPED_BY_EMBEDDED_INDEX(Stage.PLANNING, "files_skipped_embedded_index", "files whose index in the manifest rules out the filter"),
    INDEX_FILES_READ(Stage.PLANNING, "index_files_read", ".index files opened while planning"),
    FILES_SKIPPED_BY_INDEX_FILE(Stage.PLANNING, "files_skipped_index_file", "files whose .index file rules out the filter"),
    INDEXES_IGNORED_IN_PLANNING(Stage.PLANNING, "indexes_ignored", "file indexes not used while planning: corrupt, missing or of an unsupported type"),
    FILES_PLANNED(Stage.PLANNING, "files_planned", "files the plan reads"),
    SPLITS_PLANNED(Stage.PLANNING, "splits_planned", "splits of the plan"),

    // reading
    FILES_READ(Stage.READING, "files_read", "data files opened"),
    ROW_GROUPS_READ(Stage.READING, "row_groups_read", "row groups read"),
    ROW_GROUPS_SKIPPED(Stage.READING, "row_groups_skipped", "row groups skipped by statistics or dictionaries"),
    ROW_GROUPS_SKIPPED_BY_BLOOM_FILTER(Stage.READING, "row_groups_skipped_bloom", "ORC row-index groups of the stripes read that statistics kept but Bloom filters ruled out"),
    PAGES_SKIPPED(Stage.READING, "pages_skipped", "data pages not decompressed: no selected row, or ruled out by the column index"),
    ROWS_READ(Stage.READING, "rows_read", "rows decoded from files, each counted once"),
    ROWS_READ_AGAIN(Stage.READING, "rows_read_again", "rows decoded a second time: the other columns of the matching rows under late materialization"),
    ROWS_DELETED(Stage.READING, "rows_deleted", "rows removed by deletion vectors"),
    ROWS_FILTERED(Stage.READING, "rows_filtered", "rows removed by the filter"),
    ROWS_RETURNED(Stage.READING, "rows_returned", "rows handed to the caller"),
    BYTES_READ(Stage.READING, "bytes_read", "bytes read from data files"),
    OBJECT_REQUESTS(Stage.READING, "object_requests", "requests to an object store (S3 API) while reading; 0 on a local disk"),
    OBJECT_BYTES(Stage.READING, "object_bytes", "bytes of the bodies an object store sent while reading"),
    FILES_SKIPPED_BY_INDEX(Stage.READING, "files_skipped_index", "files not opened: their index proves no row matches"),
    FILES_SKIPPED_BY_LATE_FILTER(Stage.READING, "files_skipped_late_filter", "files not opened: a filter that arrived while the split was read (a join's dynamic filter) rules out their statistics"),
    LATE_FILTER_RESTARTS(Stage.READING, "late_filter_restarts", "splits read again from their next unread row, to test a filter that arrived while they were read (a join's dynamic filter small enough to test per row)"),
    ROWS_SELECTED_BY_INDEX(Stage.READING, "rows_selected_index", "live rows a bitmap index kept, in files whose bitmap index answered"),
    ROWS_SKIPPED_BY_INDEX(Stage.READING, "rows_skipped_index", "live rows a bitmap index removed, in files whose bitmap index answered"),
    INDEXES_IGNORED(Stage.READING, "indexes_ignored", "file indexes not used while reading: corrupt, missing or of an unsupported type"),
    FILTER_PROBES(Stage.READING, "filter_probes", "comparisons of values with a filter's literals or range bounds; within a small multiple of rows times log2 of the literal count");

    /**
     * When a counter is counted: planning a scan, or reading its splits.
     */
    public enum Stage
    {
        PLANNING, READING
    }

    private final Stage stage;
    private final String key;
    private final String meaning;

    Counter(Stage stage, String key, String meaning)
    {
        this.stage = requireNonNull(stage, "stage is null");
        this.key = requireNonNull(key, "key is null");
        this.meaning = requireNonNull(meaning, "meaning is null");
    }

    public Stage stage()
    {
        return stage;
    }

    /**
     * The name the counter has in output: unique within its stage.
     */
    public String key()
    {
        return key;
    }

    public String meaning()
    {
        return meaning;
    }
}
