package io.tarn.storage.fs;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Optional;

/**
 * The file operations the table format needs. Implementations exist per storage (local disk,
 * object stores). Paths are strings in the implementation's own spelling; children are formed by
 * appending {@code "/" + name}.
 */
public interface FileIO
{
    InputFile newInputFile(String path);

    /**
     * Whether every read is a request to an object store, whose latency (tens of milliseconds)
     * costs about what a few MiB take to transfer, rather than a read of a local disk: callers
     * then keep more requests in flight and fewer readers busy (local files answer false).
     */
    default boolean objectStore()
    {
        return false;
    }

    /**
     * The size up to which {@link #newInputFile(String, long)} fetches a file whole by its first
     * read, in one request; 0 when files are read in pieces at no cost per read (local files).
     * Reading such a file's separate index first then costs a request to save at most one.
     */
    default long wholeReadThreshold()
    {
        return 0;
    }

    /**
     * The file at {@code path} whose length the table's metadata records (a data file's size in
     * its manifest entry), so that reading it needs no request to learn it. The implementation
     * may trust {@code length} in place of asking the storage; a file of another length then
     * fails its reads. The default ignores the hint, as local files, whose length costs no
     * request, may.
     */
    default InputFile newInputFile(String path, long length)
    {
        if (length < 0) {
            throw new IllegalArgumentException("Negative length " + length + " of " + path);
        }
        return newInputFile(path);
    }

    boolean exists(String path)
            throws IOException;

    /**
     * Whether a file, not a directory, exists at {@code path}: for a path that can only name a
     * file (a snapshot, a schema), where an object store answers with one request, while
     * {@link #exists} must also ask whether a directory of that name exists. The default asks
     * {@link #exists}.
     */
    default boolean fileExists(String path)
            throws IOException
    {
        return exists(path);
    }

    /**
     * The direct children of {@code directory}, files and directories, in no particular order;
     * an empty list if the directory does not exist.
     */
    List<FileStatus> list(String directory)
            throws IOException;

    /**
     * Every file whose path starts with {@code pathPrefix}, at any depth, with its content tag,
     * when the storage answers that in one request: on an object store, a listing that fits one
     * page. Empty when it would take more requests, or when the storage has no cheaper way than
     * {@link #list} (local disks, where a directory read costs no round trip). A table's reads use
     * it to learn its latest snapshot and schema at once.
     */
    default Optional<List<FileStatus>> listFilesInOneRequest(String pathPrefix)
            throws IOException
    {
        return Optional.empty();
    }

    /**
     * A stream that writes a new file (parents created); fails if the file exists. The file is
     * complete when the stream is closed. Data files are written this way, without holding the
     * whole file in memory.
     */
    OutputStream newOutputStream(String path)
            throws IOException;

    /**
     * Writes {@code content} as the whole file, creating missing parent directories. With
     * {@code overwrite == false} an existing file makes this fail. Not atomic: readers may see a
     * partial file, so use it only for hints and for files nobody reads before they are referenced.
     */
    void writeFile(String path, byte[] content, boolean overwrite)
            throws IOException;

    /**
     * Creates {@code path} with {@code content} so that readers see either nothing or the whole
     * file, and so that of several concurrent callers exactly one succeeds. Returns {@code false},
     * leaving the existing file untouched, if {@code path} already exists. This is the primitive the
     * snapshot commit relies on.
     */
    boolean tryCreateAtomically(String path, byte[] content)
            throws IOException;

    /**
     * Deletes a file or an empty directory; returns {@code false} if it did not exist.
     */
    boolean delete(String path)
            throws IOException;

    void mkdirs(String path)
            throws IOException;

    /**
     * Renames a file or directory; returns {@code false}, changing nothing, if {@code target}
     * exists. Used to rename tables, whose directory moves as a whole.
     */
    boolean rename(String source, String target)
            throws IOException;
}
