package io.tarn.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Temporary warehouses for tests: one per test class, deleted with everything in it at the end.
 */
public final class TemporaryDirectories
{
    private TemporaryDirectories() {}

    public static Path create(String prefix)
    {
        try {
            return Files.createTempDirectory(prefix);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Copies {@code source} and all below it to {@code target}, e.g. a table to corrupt without
     * touching the shared original.
     */
    public static void copyRecursively(Path source, Path target)
            throws IOException
    {
        try (Stream<Path> paths = Files.walk(source)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                Path destination = target.resolve(source.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(destination);
                }
                else {
                    Files.copy(path, destination);
                }
            }
        }
    }

    /**
     * Deletes {@code directory} and all below it; does nothing for null or a missing directory.
     */
    public static void deleteRecursively(Path directory)
    {
        if (directory == null || !Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
