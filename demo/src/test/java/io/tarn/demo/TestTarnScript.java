package io.tarn.demo;

import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The root script's own argument checks, which run before it builds anything.
 */
public class TestTarnScript
{
    @Test(timeOut = 60_000)
    public void testSampleIntoAMissingParentIsAnError()
            throws IOException, InterruptedException
    {
        String name = "tarn-sample-" + UUID.randomUUID();
        Path missingParent = Path.of(System.getProperty("java.io.tmpdir"), "missing-" + UUID.randomUUID());
        Path script = Path.of("..", "tarn").toAbsolutePath().normalize();
        Process process = new ProcessBuilder("bash", script.toString(), "sample", missingParent.resolve(name).toString())
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();

        assertThat(process.exitValue()).as(output).isEqualTo(2);
        assertThat(output).contains(missingParent.toString()).contains("does not exist");
        // the old script wrote the sample into /<name> instead
        assertThat(Path.of("/", name)).doesNotExist();
        assertThat(missingParent).doesNotExist();
        assertThat(Files.exists(script)).isTrue();
    }
}
