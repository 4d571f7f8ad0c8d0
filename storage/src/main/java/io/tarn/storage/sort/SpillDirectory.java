package io.tarn.storage.sort;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;

/**
 * The directory sorts spill into. Each sort spills into a sub-directory of its own named
 * {@code tarn-spill-<pid>-<random>}, deleted when the sort ends, whether it succeeds or fails.
 * A process killed mid-sort cannot delete its sub-directory, so {@link #open} removes every
 * sub-directory whose process no longer runs. Sub-directories of running processes are left
 * alone: several processes (a CLI run and a Trino worker, say) may share one spill directory.
 */
public final class SpillDirectory
{
    static final String PREFIX = "tarn-spill-";

    private final Path root;

    private SpillDirectory(Path root)
    {
        this.root = root;
    }

    /**
     * {@code <java.io.tmpdir>/tarn-spill}.
     */
    public static Path defaultRoot()
    {
        return Path.of(System.getProperty("java.io.tmpdir"), "tarn-spill");
    }

    /**
     * Creates {@code root} if needed and removes what killed processes left in it.
     */
    public static SpillDirectory open(Path root)
            throws IOException
    {
        requireNonNull(root, "root is null");
        Path absolute = root.toAbsolutePath().normalize();
        Files.createDirectories(absolute);
        SpillDirectory directory = new SpillDirectory(absolute);
        directory.removeAbandoned();
        return directory;
    }

    public Path root()
    {
        return root;
    }

    /**
     * A new, empty sub-directory owned by this process; the caller deletes it.
     */
    public Path createOwned()
            throws IOException
    {
        return Files.createTempDirectory(root, PREFIX + ProcessHandle.current().pid() + "-");
    }

    /**
     * Deletes the sub-directories whose owning process has ended; returns how many.
     */
    public int removeAbandoned()
            throws IOException
    {
        int removed = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(root, PREFIX + "*")) {
            for (Path entry : entries) {
                Optional<Long> owner = ownerPid(entry.getFileName().toString());
                if (owner.isPresent() && !isRunning(owner.get()) && Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
                    deleteTree(entry);
                    removed++;
                }
            }
        }
        return removed;
    }

    static Optional<Long> ownerPid(String name)
    {
        if (!name.startsWith(PREFIX)) {
            return Optional.empty();
        }
        int end = name.indexOf('-', PREFIX.length());
        if (end <= PREFIX.length()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Long.parseLong(name.substring(PREFIX.length(), end)));
        }
        catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static boolean isRunning(long pid)
    {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /**
     * Deletes {@code directory} and everything below it, without following links out of it.
     */
    static void deleteTree(Path directory)
            throws IOException
    {
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted((left, right) -> right.getNameCount() - left.getNameCount()).forEach(path -> {
                try {
                    Files.deleteIfExists(path);
                }
                catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
        catch (NoSuchFileException e) {
            // removed concurrently: nothing left to do
        }
        catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
