package io.tarn.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;

import static java.util.Objects.requireNonNull;

/**
 * A benchmark table generated once into a directory and reused by later runs: a marker file
 * written after the generation completed tells a finished warehouse from one an interrupted run
 * left half written, which is deleted and generated anew.
 */
final class CachedWarehouse
{
    private static final String COMPLETE_MARKER = "GENERATED";

    interface Generator
    {
        void generate(Path location)
                throws Exception;
    }

    private CachedWarehouse() {}

    /**
     * {@code location}, generated there first unless an earlier run completed it.
     */
    static Path ensure(Path location, long rows, Generator generator)
            throws Exception
    {
        requireNonNull(generator, "generator is null");
        Path warehouse = location.toAbsolutePath();
        if (Files.exists(warehouse.resolve(COMPLETE_MARKER))) {
            return warehouse;
        }
        if (Files.exists(warehouse)) {
            BenchmarkScan.deleteRecursively(warehouse);
        }
        Files.createDirectories(warehouse);
        generator.generate(warehouse);
        Files.writeString(warehouse.resolve(COMPLETE_MARKER), rows + "\n");
        return warehouse;
    }
}
