package io.tarn.storage.fs;

import static java.util.Objects.requireNonNull;

/**
 * One entry of a directory listing. {@code path} is the full path of the entry, in the same
 * spelling as the listed directory.
 */
public record FileStatus(String path, long length, long modificationTimeMillis, boolean directory)
{
    public FileStatus
    {
        requireNonNull(path, "path is null");
    }

    /**
     * The last path segment.
     */
    public String name()
    {
        String trimmed = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        return trimmed.substring(trimmed.lastIndexOf('/') + 1);
    }
}
