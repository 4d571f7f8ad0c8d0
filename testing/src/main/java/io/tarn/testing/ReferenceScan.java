package io.tarn.testing;

import org.apache.paimon.predicate.Predicate;

import java.io.Serial;
import java.io.Serializable;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * What to read or plan: a table {@code db.table}, a version, an optional branch and an optional
 * Paimon predicate over the table's row type (field positions of the version read).
 * Serializable (as a form without {@link Optional}s), so that a child JVM running the same Paimon
 * release ({@link PaimonOnS3}) reads the same scan.
 */
public record ReferenceScan(String table, TableVersion version, Optional<String> branch, Optional<Predicate> filter)
        implements Serializable
{
    public ReferenceScan
    {
        requireNonNull(table, "table is null");
        requireNonNull(version, "version is null");
        requireNonNull(branch, "branch is null");
        requireNonNull(filter, "filter is null");
    }

    public static ReferenceScan of(String table)
    {
        return new ReferenceScan(table, TableVersion.latest(), Optional.empty(), Optional.empty());
    }

    public ReferenceScan withVersion(TableVersion version)
    {
        return new ReferenceScan(table, version, branch, filter);
    }

    public ReferenceScan atSnapshot(long snapshotId)
    {
        return withVersion(TableVersion.snapshot(snapshotId));
    }

    public ReferenceScan atTag(String tagName)
    {
        return withVersion(TableVersion.tag(tagName));
    }

    public ReferenceScan atTimestampMillis(long timestampMillis)
    {
        return withVersion(TableVersion.timestampMillis(timestampMillis));
    }

    public ReferenceScan onBranch(String branch)
    {
        return new ReferenceScan(table, version, Optional.of(branch), filter);
    }

    public ReferenceScan withFilter(Predicate filter)
    {
        return new ReferenceScan(table, version, branch, Optional.of(filter));
    }

    @Serial
    private Object writeReplace()
    {
        return new SerializedForm(table, version, branch.orElse(null), filter.orElse(null));
    }

    // branch and filter are null when absent
    private record SerializedForm(String table, TableVersion version, String branch, Predicate filter)
            implements Serializable
    {
        @Serial
        private Object readResolve()
        {
            return new ReferenceScan(table, version, Optional.ofNullable(branch), Optional.ofNullable(filter));
        }
    }
}
