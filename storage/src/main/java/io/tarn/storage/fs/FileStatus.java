package io.tarn.storage.fs;

import static java.util.Objects.requireNonNull;

/**
 * One entry of a directory listing. {@code path} is the full path of the entry, in the same
 * spelling as the listed directory. {@code directory} and {@code length} describe what a symbolic
 * link points to; {@code symbolicLink} says the entry is one, so that recursive deletes remove
 * the link instead of what lies behind it, which may be outside the table.
 */
public record FileStatus(String path, long length, long modificationTimeMillis, boolean directory, boolean symbolicLink)
{
    public FileStatus
    {
        requireNonNull(path, "path is null");
    }

    public FileStatus(String path, long length, long modificationTimeMillis, boolean directory)
    {
        this(path, length, modificationTimeMillis, directory, false);
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
