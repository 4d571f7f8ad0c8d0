package io.tarn.storage.fs;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * One entry of a directory listing. {@code path} is the full path of the entry, in the same
 * spelling as the listed directory. {@code directory} and {@code length} describe what a symbolic
 * link points to; {@code symbolicLink} says the entry is one, so that recursive deletes remove
 * the link instead of what lies behind it, which may be outside the table. {@code contentTag} is
 * the store's tag of a file's content (an object store's ETag), when it gives one: equal tags of
 * one path mean equal content, so a file read before needs no second read.
 */
public record FileStatus(String path, long length, long modificationTimeMillis, boolean directory, boolean symbolicLink, Optional<String> contentTag)
{
    public FileStatus
    {
        requireNonNull(path, "path is null");
        requireNonNull(contentTag, "contentTag is null");
    }

    public FileStatus(String path, long length, long modificationTimeMillis, boolean directory, boolean symbolicLink)
    {
        this(path, length, modificationTimeMillis, directory, symbolicLink, Optional.empty());
    }

    public FileStatus(String path, long length, long modificationTimeMillis, boolean directory)
    {
        this(path, length, modificationTimeMillis, directory, false);
    }

    /**
     * This file's name when it lies directly in {@code parent} (spelled as the listing spells
     * paths); empty for a directory or a path elsewhere. For picking a directory's files out of
     * a listing of more than that directory ({@link FileIO#listFilesInOneRequest}).
     */
    public Optional<String> fileNameIn(String parent)
    {
        String prefix = parent + "/";
        if (directory || !path.startsWith(prefix) || path.indexOf('/', prefix.length()) >= 0) {
            return Optional.empty();
        }
        return Optional.of(path.substring(prefix.length()));
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
