package io.tarn.testing;

import org.testng.annotations.AfterMethod;
import org.testng.annotations.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Which {@code java} runs Paimon's S3 file system: a JDK 17 to 21, found without configuration on
 * these machines, and an override naming anything else is refused with what it named.
 */
public class TestChildJvm
{
    @AfterMethod(alwaysRun = true)
    public void clearOverride()
    {
        System.clearProperty(ChildJvm.JAVA_17_PROPERTY);
    }

    @Test
    public void testFindsAJdk17To21()
            throws Exception
    {
        ChildJvm.Java java = ChildJvm.java17();
        assertThat(java.feature()).isBetween(17, 21);
        Process process = new ProcessBuilder(java.executable().toString(), "-version").redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor()).isZero();
        assertThat(output).contains("version \"" + java.feature());
        // what JDK 17 does not know would stop it from starting
        assertThat(java.paimonFlags()).noneMatch(flag -> flag.startsWith("--sun-misc-unsafe-memory-access"));
    }

    @Test
    public void testOverrideTakesAJdkHome()
    {
        ChildJvm.Java found = ChildJvm.java17();
        System.setProperty(ChildJvm.JAVA_17_PROPERTY, found.executable().getParent().getParent().toString());
        assertThat(ChildJvm.java17()).isEqualTo(found);
    }

    @Test
    public void testOverrideNamingNoJavaIsRefused()
            throws Exception
    {
        Path missing = Files.createTempDirectory("tarn-no-jdk");
        try {
            System.setProperty(ChildJvm.JAVA_17_PROPERTY, missing.toString());
            assertThatThrownBy(ChildJvm::java17)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(missing.resolve("bin").resolve("java").toString())
                    .hasMessageContaining("not runnable");
        }
        finally {
            Files.delete(missing);
        }
    }

    @Test
    public void testOverrideNamingAnotherReleaseIsRefused()
    {
        // the JDK running the tests is 25
        System.setProperty(ChildJvm.JAVA_17_PROPERTY, System.getProperty("java.home"));
        assertThatThrownBy(ChildJvm::java17)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not a JDK 17 to 21")
                .hasMessageContaining("release " + Runtime.version().feature());
    }
}
