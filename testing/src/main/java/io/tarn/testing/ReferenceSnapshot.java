package io.tarn.testing;

import static java.util.Objects.requireNonNull;

/**
 * A snapshot as Paimon reports it; {@code timeMillis} differs from run to run.
 */
public record ReferenceSnapshot(long id, long schemaId, String commitKind, long timeMillis, long totalRecordCount)
{
    public ReferenceSnapshot
    {
        requireNonNull(commitKind, "commitKind is null");
    }
}
