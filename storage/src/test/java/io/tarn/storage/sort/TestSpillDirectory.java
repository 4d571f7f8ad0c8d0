package io.tarn.storage.sort;

import io.tarn.testing.TemporaryDirectories;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a sort killed mid-spill leaves is removed when a spill directory is next opened, and
 * nothing of a live process or outside the directory is touched.
 */
public class TestSpillDirectory
{
    private Path root;

    @BeforeMethod
    public void setUp()
    {
        root = TemporaryDirectories.create("tarn-spill-test");
    }

    @AfterMethod(alwaysRun = true)
    public void tearDown()
    {
        TemporaryDirectories.deleteRecursively(root);
    }

    @Test(timeOut = 120_000)
    public void testKilledProcessLeftoversRemovedOnOpen()
            throws Exception
    {
        Path spill = root.resolve("spill");
        Path killed = spillAndKill(spill);
        assertThat(killed).as("the killed process's spill directory is left behind").isDirectory();
        assertThat(killed.resolve("run-1.arrow")).hasSize(1 << 20);

        // a live process's sub-directory, a foreign directory and a file that only look alike stay
        Path live = SpillDirectory.open(spill).createOwned();
        Path foreign = Files.createDirectories(spill.resolve("tarn-spill-notapid-1"));
        Path unrelated = Files.createDirectories(spill.resolve("other"));

        SpillDirectory.open(spill);

        assertThat(killed).doesNotExist();
        assertThat(live).isDirectory();
        assertThat(foreign).isDirectory();
        assertThat(unrelated).isDirectory();
    }

    @Test(timeOut = 120_000)
    public void testRemovalDoesNotFollowLinksOutOfTheDirectory()
            throws Exception
    {
        Path outside = Files.createDirectories(root.resolve("outside"));
        Path precious = Files.writeString(outside.resolve("precious.txt"), "keep");
        Path spill = root.resolve("spill");
        Path killed = spillAndKill(spill);
        Files.createSymbolicLink(killed.resolve("link"), outside);

        SpillDirectory.open(spill);

        assertThat(killed).doesNotExist();
        assertThat(precious).hasContent("keep");
    }

    @Test
    public void testOwnerPid()
    {
        assertThat(SpillDirectory.ownerPid("tarn-spill-1234-5678")).contains(1234L);
        assertThat(SpillDirectory.ownerPid("tarn-spill-x-5678")).isEmpty();
        assertThat(SpillDirectory.ownerPid("tarn-spill--5678")).isEmpty();
        assertThat(SpillDirectory.ownerPid("tarn-sort-1234-5678")).isEmpty();
    }

    /**
     * Starts a JVM that spills into {@code spill}, kills it with SIGKILL once it has, and returns
     * the sub-directory it left.
     */
    private static Path spillAndKill(Path spill)
            throws IOException, InterruptedException
    {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-Xmx64m", "-cp", System.getProperty("java.class.path"), SpillingProcess.class.getName(), spill.toString())
                .redirectErrorStream(true)
                .start();
        try {
            BufferedReader output = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            String line;
            while ((line = output.readLine()) != null && !line.startsWith("spilling ")) {
                System.out.println("child: " + line);
            }
            assertThat(line).as("the child process spilled").isNotNull();
            Path owned = Path.of(line.substring("spilling ".length()));
            child.destroyForcibly();
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            try (Stream<Path> entries = Files.list(spill)) {
                assertThat(entries.toList()).isEqualTo(List.of(owned));
            }
            return owned;
        }
        finally {
            child.destroyForcibly();
        }
    }
}
