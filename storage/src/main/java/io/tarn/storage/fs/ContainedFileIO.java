package io.tarn.storage.fs;

import io.tarn.storage.CorruptFileException;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A {@link FileIO} that refuses every path outside one directory: the file operations of a table
 * go through it, so that no option, name or metadata file can make a read, write or delete leave
 * the table's directory, whichever code path formed the path. A path is inside when it is the
 * root or the root followed by plain segments (no {@code .}, {@code ..} or empty segment).
 */
public final class ContainedFileIO
        implements FileIO
{
    private final FileIO delegate;
    private final String root;
    private final String owner;

    /**
     * @param owner what the root belongs to, for messages (such as {@code "Table db.t"})
     */
    public ContainedFileIO(FileIO delegate, String root, String owner)
    {
        requireNonNull(delegate, "delegate is null");
        this.delegate = delegate instanceof ContainedFileIO contained ? contained.delegate : delegate;
        this.root = requireNonNull(root, "root is null");
        this.owner = requireNonNull(owner, "owner is null");
    }

    public String root()
    {
        return root;
    }

    @Override
    public InputFile newInputFile(String path)
    {
        try {
            check(path, "read");
        }
        catch (CorruptFileException e) {
            throw new UncheckedIOException(e);
        }
        return delegate.newInputFile(path);
    }

    @Override
    public boolean objectStore()
    {
        return delegate.objectStore();
    }

    @Override
    public long wholeReadThreshold()
    {
        return delegate.wholeReadThreshold();
    }

    @Override
    public InputFile newInputFile(String path, long length)
    {
        try {
            check(path, "read");
        }
        catch (CorruptFileException e) {
            throw new UncheckedIOException(e);
        }
        return delegate.newInputFile(path, length);
    }

    @Override
    public boolean exists(String path)
            throws IOException
    {
        check(path, "read");
        return delegate.exists(path);
    }

    @Override
    public boolean fileExists(String path)
            throws IOException
    {
        check(path, "read");
        return delegate.fileExists(path);
    }

    @Override
    public List<FileStatus> list(String directory)
            throws IOException
    {
        check(directory, "list");
        return delegate.list(directory);
    }

    @Override
    public Optional<List<FileStatus>> listFilesInOneRequest(String pathPrefix)
            throws IOException
    {
        check(pathPrefix, "list");
        return delegate.listFilesInOneRequest(pathPrefix);
    }

    @Override
    public OutputStream newOutputStream(String path)
            throws IOException
    {
        check(path, "write");
        return delegate.newOutputStream(path);
    }

    @Override
    public void writeFile(String path, byte[] content, boolean overwrite)
            throws IOException
    {
        check(path, "write");
        delegate.writeFile(path, content, overwrite);
    }

    @Override
    public boolean tryCreateAtomically(String path, byte[] content)
            throws IOException
    {
        check(path, "write");
        return delegate.tryCreateAtomically(path, content);
    }

    @Override
    public boolean delete(String path)
            throws IOException
    {
        check(path, "delete");
        return delegate.delete(path);
    }

    @Override
    public void mkdirs(String path)
            throws IOException
    {
        check(path, "create");
        delegate.mkdirs(path);
    }

    @Override
    public boolean rename(String source, String target)
            throws IOException
    {
        check(source, "rename");
        check(target, "rename to");
        return delegate.rename(source, target);
    }

    private void check(String path, String action)
            throws CorruptFileException
    {
        requireNonNull(path, "path is null");
        if (!isInside(root, path)) {
            throw new CorruptFileException("%s: refusing to %s %s, which is outside the table directory %s".formatted(owner, action, path.replace("\0", "\\0"), root));
        }
    }

    /**
     * Whether {@code path} is {@code root} or lies below it, spelled as children are formed
     * ({@code root + "/" + name}) with no {@code .}, {@code ..}, empty or NUL-holding segment.
     */
    public static boolean isInside(String root, String path)
    {
        requireNonNull(root, "root is null");
        requireNonNull(path, "path is null");
        if (path.equals(root)) {
            return true;
        }
        String prefix = root.endsWith("/") ? root : root + "/";
        if (!path.startsWith(prefix) || path.length() == prefix.length()) {
            return false;
        }
        String rest = path.substring(prefix.length());
        if (rest.endsWith("/")) {
            rest = rest.substring(0, rest.length() - 1);
        }
        for (String segment : rest.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..") || segment.indexOf('\0') >= 0) {
                return false;
            }
        }
        return true;
    }
}
