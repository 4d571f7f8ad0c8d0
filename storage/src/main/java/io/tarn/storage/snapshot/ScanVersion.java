package io.tarn.storage.snapshot;

import static java.util.Objects.requireNonNull;

/**
 * Which snapshot a read sees ("time travel"), resolved by {@code PaimonTable.snapshot}.
 */
public sealed interface ScanVersion
        permits ScanVersion.Latest, ScanVersion.SnapshotId, ScanVersion.TagName, ScanVersion.TimestampMillis, ScanVersion.Version
{
    static ScanVersion latest()
    {
        return new Latest();
    }

    /**
     * The newest snapshot; none for an empty table.
     */
    record Latest()
            implements ScanVersion {}

    record SnapshotId(long id)
            implements ScanVersion {}

    record TagName(String name)
            implements ScanVersion
    {
        public TagName
        {
            requireNonNull(name, "name is null");
        }
    }

    /**
     * The newest snapshot committed at or before this instant (epoch milliseconds).
     */
    record TimestampMillis(long millis)
            implements ScanVersion {}

    /**
     * Paimon's {@code scan.version}: a tag if one of that name exists, else a snapshot id if all
     * digits, else an error.
     */
    record Version(String version)
            implements ScanVersion
    {
        public Version
        {
            requireNonNull(version, "version is null");
        }
    }
}
