package io.tarn.storage.fs;

import io.tarn.storage.InvalidNameException;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The rules that keep every file a table names inside the table's directory. File names read
 * from metadata (manifest lists, manifests, data, extra, index and deletion-vector files) must be
 * one plain path segment; directories taken from options must be relative, without {@code ..}.
 */
public final class TablePaths
{
    private TablePaths() {}

    /**
     * Whether {@code name} is one plain path segment: not empty, not {@code .} or {@code ..}, no
     * separator (slash or backslash), no NUL.
     */
    public static boolean isPlainFileName(String name)
    {
        requireNonNull(name, "name is null");
        if (name.isEmpty() || name.equals(".") || name.equals("..")) {
            return false;
        }
        // String.indexOf is vectorized; a plan checks every file name it reads
        return name.indexOf('/') < 0 && name.indexOf('\\') < 0 && name.indexOf('\0') < 0;
    }

    /**
     * Normalizes a directory relative to the table root ({@code data-file.path-directory}):
     * {@code .} and empty segments are dropped; an absolute path, a URI, a drive letter, a
     * backslash, NUL or any {@code ..} segment is refused, since each could name a directory
     * outside the table. Returns the empty string for a directory that is the root itself.
     */
    public static String relativeDirectory(String tableName, String option, String value)
    {
        requireNonNull(tableName, "tableName is null");
        requireNonNull(value, "value is null");
        String trimmed = value.trim();
        if (trimmed.startsWith("/") || trimmed.indexOf(':') >= 0 || trimmed.indexOf('\\') >= 0 || trimmed.indexOf('\0') >= 0) {
            throw new InvalidNameException("Table %s: option %s = '%s' must be a directory relative to the table directory (no absolute path, URI, backslash or NUL)"
                    .formatted(tableName, option, value.replace("\0", "\\0")));
        }
        List<String> segments = new ArrayList<>();
        for (String segment : trimmed.split("/")) {
            if (segment.isEmpty() || segment.equals(".")) {
                continue;
            }
            if (segment.equals("..")) {
                throw new InvalidNameException("Table %s: option %s = '%s' leaves the table directory ('..' is not allowed)".formatted(tableName, option, value));
            }
            segments.add(segment);
        }
        return String.join("/", segments);
    }
}
