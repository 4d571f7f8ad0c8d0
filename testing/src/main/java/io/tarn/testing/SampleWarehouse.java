package io.tarn.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the reference tables with Apache Paimon into a directory, as a sample warehouse to try
 * Tarn's commands on ({@code ./tarn sample DIR}). Refuses a directory that already has content,
 * so that nothing is overwritten.
 */
public final class SampleWarehouse
{
    private SampleWarehouse() {}

    public static void main(String[] args)
            throws IOException
    {
        if (args.length != 1) {
            System.err.println("Usage: SampleWarehouse DIR");
            System.exit(2);
        }
        Path warehouse = Path.of(args[0]).toAbsolutePath().normalize();
        if (Files.isDirectory(warehouse)) {
            try (var entries = Files.list(warehouse)) {
                if (entries.findAny().isPresent()) {
                    System.err.println("Not empty, not touching it: " + warehouse);
                    System.exit(2);
                }
            }
        }
        Files.createDirectories(warehouse);
        ReferenceTables.createAll(warehouse);
        for (ReferenceTable table : ReferenceTables.all()) {
            System.out.println(table.identifier() + "\t" + table.description());
        }
        System.out.println("Sample warehouse written by Apache Paimon: " + warehouse);
    }
}
