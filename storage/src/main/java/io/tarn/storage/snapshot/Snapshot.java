package io.tarn.storage.snapshot;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * One committed version of a table, as stored in {@code snapshot/snapshot-<id>} (format spec
 * section 3.1). Manifest lists are file names under {@code manifest/}. Keys Paimon may omit or
 * write as null are optional; for {@code logOffsets} and {@code properties} an absent key and an
 * empty object are different, because Paimon writes them differently.
 */
public record Snapshot(
        int version,
        long id,
        long schemaId,
        String baseManifestList,
        Optional<Long> baseManifestListSize,
        String deltaManifestList,
        Optional<Long> deltaManifestListSize,
        Optional<String> changelogManifestList,
        Optional<Long> changelogManifestListSize,
        Optional<String> indexManifest,
        String commitUser,
        long commitIdentifier,
        CommitKind commitKind,
        long timeMillis,
        Optional<Map<Integer, Long>> logOffsets,
        Optional<Long> totalRecordCount,
        Optional<Long> deltaRecordCount,
        Optional<Long> changelogRecordCount,
        Optional<Long> watermark,
        Optional<String> statistics,
        Optional<Map<String, String>> properties,
        Optional<Long> nextRowId)
{
    public static final int CURRENT_VERSION = 3;

    public Snapshot
    {
        requireNonNull(baseManifestList, "baseManifestList is null");
        requireNonNull(baseManifestListSize, "baseManifestListSize is null");
        requireNonNull(deltaManifestList, "deltaManifestList is null");
        requireNonNull(deltaManifestListSize, "deltaManifestListSize is null");
        requireNonNull(changelogManifestList, "changelogManifestList is null");
        requireNonNull(changelogManifestListSize, "changelogManifestListSize is null");
        requireNonNull(indexManifest, "indexManifest is null");
        requireNonNull(commitUser, "commitUser is null");
        requireNonNull(commitKind, "commitKind is null");
        logOffsets = requireNonNull(logOffsets, "logOffsets is null")
                .map(offsets -> Collections.unmodifiableMap(new LinkedHashMap<>(offsets)));
        requireNonNull(totalRecordCount, "totalRecordCount is null");
        requireNonNull(deltaRecordCount, "deltaRecordCount is null");
        requireNonNull(changelogRecordCount, "changelogRecordCount is null");
        requireNonNull(watermark, "watermark is null");
        requireNonNull(statistics, "statistics is null");
        properties = requireNonNull(properties, "properties is null")
                .map(values -> Collections.unmodifiableMap(new LinkedHashMap<>(values)));
        requireNonNull(nextRowId, "nextRowId is null");
    }
}
