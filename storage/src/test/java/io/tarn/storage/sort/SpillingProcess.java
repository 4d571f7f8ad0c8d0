package io.tarn.storage.sort;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A child process for {@link TestSpillDirectory}: takes a spill sub-directory in the directory
 * its argument names, fills it with a run file, says {@code spilling} and waits to be killed.
 */
final class SpillingProcess
{
    private SpillingProcess() {}

    public static void main(String[] args)
            throws IOException, InterruptedException
    {
        Path owned = SpillDirectory.open(Path.of(args[0])).createOwned();
        Files.write(owned.resolve("run-1.arrow"), new byte[1 << 20]);
        Files.createDirectories(owned.resolve("nested"));
        Files.write(owned.resolve("nested").resolve("run-2.arrow"), new byte[1024]);
        System.out.println("spilling " + owned);
        System.out.flush();
        Thread.sleep(120_000);
    }
}
