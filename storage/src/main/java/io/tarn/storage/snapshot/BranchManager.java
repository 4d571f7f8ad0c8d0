package io.tarn.storage.snapshot;

import io.tarn.storage.InvalidNameException;
import io.tarn.storage.fs.FileIO;
import io.tarn.storage.fs.FileStatus;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The branches of a table. Branch {@code main} keeps its metadata directly under the table root;
 * branch {@code X} keeps its own {@code schema/}, {@code snapshot/} and {@code tag/} under
 * {@code <root>/branch/branch-X/}, while manifests and data files stay shared under the root.
 */
public class BranchManager
{
    public static final String MAIN_BRANCH = "main";
    private static final String BRANCH_PREFIX = "branch-";

    private final FileIO fileIO;
    private final String tableRoot;

    public BranchManager(FileIO fileIO, String tableRoot)
    {
        this.fileIO = requireNonNull(fileIO, "fileIO is null");
        this.tableRoot = requireNonNull(tableRoot, "tableRoot is null");
    }

    /**
     * The names of the branches other than {@code main}, sorted.
     */
    public List<String> branches()
            throws IOException
    {
        List<String> names = new ArrayList<>();
        for (FileStatus status : fileIO.list(tableRoot + "/branch")) {
            String name = status.name();
            if (status.directory() && name.startsWith(BRANCH_PREFIX) && name.length() > BRANCH_PREFIX.length()) {
                names.add(name.substring(BRANCH_PREFIX.length()));
            }
        }
        names.sort(null);
        return List.copyOf(names);
    }

    /**
     * The directory that holds the metadata of {@code branch}.
     */
    public static String branchRoot(String tableRoot, String branch)
    {
        requireNonNull(tableRoot, "tableRoot is null");
        requireNonNull(branch, "branch is null");
        if (branch.equals(MAIN_BRANCH)) {
            return tableRoot;
        }
        validateBranchName(branch);
        return tableRoot + "/branch/" + BRANCH_PREFIX + branch;
    }

    /**
     * Rejects a name Paimon would not accept for a branch, or that is not a plain path segment.
     */
    public static void validateBranchName(String branch)
    {
        requireNonNull(branch, "branch is null");
        if (branch.isBlank()) {
            throw new InvalidNameException("Branch name is blank");
        }
        if (branch.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new InvalidNameException("Branch name '%s' is all digits, which Paimon reserves for snapshot ids".formatted(branch));
        }
        if (branch.contains("/") || branch.contains("\\") || branch.contains("..") || branch.indexOf('\0') >= 0) {
            throw new InvalidNameException("Branch name '%s' contains a path separator, '..' or NUL".formatted(branch.replace("\0", "\\0")));
        }
    }

    /**
     * Like {@link #validateBranchName} and also rejects {@code main}, which always exists.
     */
    public static void validateNewBranchName(String branch)
    {
        if (MAIN_BRANCH.equals(branch)) {
            throw new InvalidNameException("Branch name 'main' is the default branch and cannot be created");
        }
        validateBranchName(branch);
    }
}
