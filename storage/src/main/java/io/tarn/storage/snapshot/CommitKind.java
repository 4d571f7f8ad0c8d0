package io.tarn.storage.snapshot;

/**
 * What a snapshot's commit did, as spelled in the {@code commitKind} key of snapshot JSON.
 */
public enum CommitKind
{
    /** New data files were added (inserts, and upserts of primary-key tables). */
    APPEND,
    /** Files were rewritten without changing the table's contents. */
    COMPACT,
    /** Files were deleted and added to replace partitions or the whole table. */
    OVERWRITE,
    /** Only statistics changed. */
    ANALYZE
}
