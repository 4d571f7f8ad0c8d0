package io.tarn.storage.snapshot;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A named, retained snapshot ({@code tag/tag-<name>}): the snapshot JSON of the tagged snapshot
 * plus its creation time (local wall-clock time of the creating process) and an optional retention.
 * The copy of the snapshot keeps the tag readable after {@code snapshot-<id>} has expired.
 */
public record Tag(Snapshot snapshot, Optional<LocalDateTime> tagCreateTime, Optional<Duration> tagTimeRetained)
{
    public Tag
    {
        requireNonNull(snapshot, "snapshot is null");
        requireNonNull(tagCreateTime, "tagCreateTime is null");
        requireNonNull(tagTimeRetained, "tagTimeRetained is null");
    }
}
