package io.tarn.storage.read;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The data files Paimon wrote into a reference warehouse, counted by format, so that a test can
 * check that a layout really produced the formats it asks for.
 */
final class ReferenceDataFiles
{
    private ReferenceDataFiles() {}

    /**
     * The number of data files under {@code directory} by file extension ({@code parquet},
     * {@code orc}, {@code avro}).
     */
    static Map<String, Long> countByFormat(Path directory)
    {
        try (Stream<Path> files = Files.walk(directory)) {
            return files
                    .filter(Files::isRegularFile)
                    .map(file -> file.getFileName().toString())
                    // file-index files are named after their data file, with the extension .index
                    .filter(name -> name.startsWith("data-") && !name.endsWith(".index"))
                    .map(name -> name.substring(name.lastIndexOf('.') + 1))
                    .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
