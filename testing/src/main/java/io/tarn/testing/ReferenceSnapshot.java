package io.tarn.testing;

import java.io.Serializable;

import static java.util.Objects.requireNonNull;

/**
 * A snapshot as Paimon reports it; {@code timeMillis} differs from run to run.
 */
public record ReferenceSnapshot(long id, long schemaId, String commitKind, long timeMillis, long totalRecordCount)
        implements Serializable
{
    public ReferenceSnapshot
    {
        requireNonNull(commitKind, "commitKind is null");
    }
}
