package io.tarn.storage.fs;

import io.tarn.storage.MissingFileException;

import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static java.util.Objects.requireNonNull;

/**
 * {@link FileIO} on the local file system. Accepts absolute paths and {@code file:} URIs; listings
 * return children spelled like the listed directory.
 */
public final class LocalFileIO
        implements FileIO
{
    @Override
    public InputFile newInputFile(String path)
    {
        return new LocalInputFile(path, toLocalPath(path));
    }

    @Override
    public boolean exists(String path)
    {
        return Files.exists(toLocalPath(path));
    }

    @Override
    public List<FileStatus> list(String directory)
            throws IOException
    {
        Path local = toLocalPath(directory);
        if (!Files.isDirectory(local)) {
            return List.of();
        }
        String prefix = directory.endsWith("/") ? directory : directory + "/";
        List<FileStatus> result = new ArrayList<>();
        try (DirectoryStream<Path> children = Files.newDirectoryStream(local)) {
            for (Path child : children) {
                BasicFileAttributes attributes;
                try {
                    attributes = Files.readAttributes(child, BasicFileAttributes.class);
                }
                catch (NoSuchFileException e) {
                    // deleted while listing, e.g. by snapshot expiration
                    continue;
                }
                result.add(new FileStatus(
                        prefix + child.getFileName(),
                        attributes.isDirectory() ? 0 : attributes.size(),
                        attributes.lastModifiedTime().toMillis(),
                        attributes.isDirectory(),
                        Files.isSymbolicLink(child)));
            }
        }
        catch (NoSuchFileException e) {
            return List.of();
        }
        return List.copyOf(result);
    }

    @Override
    public OutputStream newOutputStream(String path)
            throws IOException
    {
        Path local = toLocalPath(path);
        createParents(local);
        return new BufferedOutputStream(Files.newOutputStream(local, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), 1 << 16);
    }

    @Override
    public void writeFile(String path, byte[] content, boolean overwrite)
            throws IOException
    {
        requireNonNull(content, "content is null");
        Path local = toLocalPath(path);
        createParents(local);
        if (overwrite) {
            Files.write(local, content);
        }
        else {
            Files.write(local, content, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        }
    }

    @Override
    public boolean tryCreateAtomically(String path, byte[] content)
            throws IOException
    {
        requireNonNull(content, "content is null");
        Path target = toLocalPath(path);
        createParents(target);
        Path temp = target.resolveSibling("." + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
        Files.write(temp, content, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        try {
            // A hard link is published atomically and, unlike rename, fails when the target exists.
            Files.createLink(target, temp);
            return true;
        }
        catch (FileAlreadyExistsException e) {
            return false;
        }
        catch (UnsupportedOperationException e) {
            // No hard links on this file system: move refuses an existing target, but the check
            // and the rename are two steps, so concurrent writers need an external lock here.
            try {
                Files.move(temp, target);
                return true;
            }
            catch (FileAlreadyExistsException exists) {
                return false;
            }
        }
        finally {
            Files.deleteIfExists(temp);
        }
    }

    @Override
    public boolean delete(String path)
            throws IOException
    {
        return Files.deleteIfExists(toLocalPath(path));
    }

    @Override
    public void mkdirs(String path)
            throws IOException
    {
        Files.createDirectories(toLocalPath(path));
    }

    @Override
    public boolean rename(String source, String target)
            throws IOException
    {
        Path from = toLocalPath(source);
        Path to = toLocalPath(target);
        if (!Files.exists(from)) {
            throw new MissingFileException("Cannot rename " + source + ": it does not exist");
        }
        createParents(to);
        try {
            // without REPLACE_EXISTING the move fails when the target exists, even an empty directory
            Files.move(from, to);
            return true;
        }
        catch (FileAlreadyExistsException e) {
            return false;
        }
    }

    private static void createParents(Path path)
            throws IOException
    {
        Path parent = path.getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
    }

    static Path toLocalPath(String path)
    {
        requireNonNull(path, "path is null");
        if (path.startsWith("file:")) {
            return Paths.get(URI.create(path));
        }
        Path local = Paths.get(path);
        if (!local.isAbsolute()) {
            throw new IllegalArgumentException("Not an absolute local path: " + path);
        }
        return local;
    }

    private record LocalInputFile(String path, Path local)
            implements InputFile
    {
        LocalInputFile
        {
            requireNonNull(path, "path is null");
            requireNonNull(local, "local is null");
        }

        @Override
        public long length()
                throws IOException
        {
            try {
                return Files.size(local);
            }
            catch (NoSuchFileException e) {
                throw missing(e);
            }
        }

        @Override
        public InputStream newStream()
                throws IOException
        {
            try {
                return Files.newInputStream(local);
            }
            catch (NoSuchFileException e) {
                throw missing(e);
            }
        }

        @Override
        public byte[] readAllBytes()
                throws IOException
        {
            try {
                return Files.readAllBytes(local);
            }
            catch (NoSuchFileException e) {
                throw missing(e);
            }
        }

        @Override
        public void readFully(long position, byte[] buffer, int offset, int length)
                throws IOException
        {
            try (FileChannel channel = FileChannel.open(local, StandardOpenOption.READ)) {
                readFully(channel, position, buffer, offset, length);
            }
            catch (NoSuchFileException e) {
                throw missing(e);
            }
        }

        @Override
        public RandomAccessInput openRandomAccess()
                throws IOException
        {
            FileChannel channel;
            try {
                channel = FileChannel.open(local, StandardOpenOption.READ);
            }
            catch (NoSuchFileException e) {
                throw missing(e);
            }
            return new RandomAccessInput()
            {
                @Override
                public long length()
                        throws IOException
                {
                    return channel.size();
                }

                @Override
                public void readFully(long position, byte[] buffer, int offset, int length)
                        throws IOException
                {
                    LocalInputFile.this.readFully(channel, position, buffer, offset, length);
                }

                @Override
                public void close()
                        throws IOException
                {
                    channel.close();
                }
            };
        }

        private void readFully(FileChannel channel, long position, byte[] buffer, int offset, int length)
                throws IOException
        {
            if (position < 0 || offset < 0 || length < 0 || offset > buffer.length - length) {
                throw new IndexOutOfBoundsException("Invalid read of %s bytes at %s into buffer offset %s of %s".formatted(length, position, offset, buffer.length));
            }
            ByteBuffer target = ByteBuffer.wrap(buffer, offset, length);
            long filePosition = position;
            while (target.hasRemaining()) {
                int read = channel.read(target, filePosition);
                if (read < 0) {
                    throw new EOFException("Reading %s bytes at offset %s of %s goes past its end (%s bytes)".formatted(length, position, path, channel.size()));
                }
                filePosition += read;
            }
        }

        private MissingFileException missing(NoSuchFileException cause)
        {
            return new MissingFileException("File does not exist: " + path, cause);
        }
    }
}
