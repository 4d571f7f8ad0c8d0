package io.tarn.testing;

import java.io.Serializable;

import static java.util.Objects.requireNonNull;

/**
 * Which version of a table to read: the latest snapshot, a snapshot id, a tag, or the latest
 * snapshot committed at or before a time (epoch millis, compared with the snapshots' {@code timeMillis}).
 */
public record TableVersion(Kind kind, long snapshotId, String tagName, long timestampMillis)
        implements Serializable
{
    public enum Kind
    {
        LATEST,
        SNAPSHOT,
        TAG,
        TIMESTAMP,
    }

    public TableVersion
    {
        requireNonNull(kind, "kind is null");
        requireNonNull(tagName, "tagName is null");
        if (kind == Kind.SNAPSHOT && snapshotId <= 0) {
            throw new IllegalArgumentException("Snapshot id must be positive: " + snapshotId);
        }
        if (kind == Kind.TAG && tagName.isEmpty()) {
            throw new IllegalArgumentException("Tag name is empty");
        }
    }

    public static TableVersion latest()
    {
        return new TableVersion(Kind.LATEST, 0, "", 0);
    }

    public static TableVersion snapshot(long snapshotId)
    {
        return new TableVersion(Kind.SNAPSHOT, snapshotId, "", 0);
    }

    public static TableVersion tag(String tagName)
    {
        return new TableVersion(Kind.TAG, 0, tagName, 0);
    }

    public static TableVersion timestampMillis(long timestampMillis)
    {
        return new TableVersion(Kind.TIMESTAMP, 0, "", timestampMillis);
    }

    @Override
    public String toString()
    {
        return switch (kind) {
            case LATEST -> "latest";
            case SNAPSHOT -> "snapshot " + snapshotId;
            case TAG -> "tag " + tagName;
            case TIMESTAMP -> "timestamp " + timestampMillis;
        };
    }
}
