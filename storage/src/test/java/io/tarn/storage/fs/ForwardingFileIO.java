package io.tarn.storage.fs;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A file IO that passes every operation, the optional ones too, to another: tests extend it to
 * change one operation (run a hook around it, take a capability away) and keep the rest.
 */
public abstract class ForwardingFileIO
        implements FileIO
{
    private final FileIO delegate;

    protected ForwardingFileIO(FileIO delegate)
    {
        this.delegate = requireNonNull(delegate, "delegate is null");
    }

    protected FileIO delegate()
    {
        return delegate;
    }

    @Override
    public InputFile newInputFile(String path)
    {
        return delegate.newInputFile(path);
    }

    @Override
    public long wholeReadThreshold()
    {
        return delegate.wholeReadThreshold();
    }

    @Override
    public InputFile newInputFile(String path, long length)
    {
        return delegate.newInputFile(path, length);
    }

    @Override
    public boolean exists(String path)
            throws IOException
    {
        return delegate.exists(path);
    }

    @Override
    public boolean fileExists(String path)
            throws IOException
    {
        return delegate.fileExists(path);
    }

    @Override
    public List<FileStatus> list(String directory)
            throws IOException
    {
        return delegate.list(directory);
    }

    @Override
    public Optional<List<FileStatus>> listFilesInOneRequest(String pathPrefix)
            throws IOException
    {
        return delegate.listFilesInOneRequest(pathPrefix);
    }

    @Override
    public OutputStream newOutputStream(String path)
            throws IOException
    {
        return delegate.newOutputStream(path);
    }

    @Override
    public void writeFile(String path, byte[] content, boolean overwrite)
            throws IOException
    {
        delegate.writeFile(path, content, overwrite);
    }

    @Override
    public boolean tryCreateAtomically(String path, byte[] content)
            throws IOException
    {
        return delegate.tryCreateAtomically(path, content);
    }

    @Override
    public boolean delete(String path)
            throws IOException
    {
        return delegate.delete(path);
    }

    @Override
    public void mkdirs(String path)
            throws IOException
    {
        delegate.mkdirs(path);
    }

    @Override
    public boolean rename(String source, String target)
            throws IOException
    {
        return delegate.rename(source, target);
    }
}
