package io.tarn.storage.grammar;

import io.tarn.storage.snapshot.BranchManager;
import io.tarn.storage.snapshot.ScanVersion;

import static java.util.Objects.requireNonNull;

/**
 * What a version text names (see {@link VersionParser}): a branch, {@code main} unless named, and
 * which snapshot of that branch a read sees.
 */
public record TableVersion(String branch, ScanVersion version)
{
    public TableVersion
    {
        requireNonNull(branch, "branch is null");
        requireNonNull(version, "version is null");
        BranchManager.validateBranchName(branch);
    }

    /**
     * The latest snapshot of branch {@code main}: what an empty version text names.
     */
    public static TableVersion latest()
    {
        return new TableVersion(BranchManager.MAIN_BRANCH, ScanVersion.latest());
    }
}
