package io.tarn.storage.fs;

import io.tarn.storage.CorruptFileException;
import io.tarn.testing.TemporaryDirectories;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestContainedFileIO
{
    private Path directory;
    private String root;
    private Path victim;
    private ContainedFileIO fileIO;

    @BeforeMethod
    public void setUp()
            throws Exception
    {
        directory = TemporaryDirectories.create("tarn-contained");
        Files.createDirectories(directory.resolve("table"));
        root = directory.resolve("table").toString();
        victim = directory.resolve("victim");
        Files.write(victim, "outside".getBytes(StandardCharsets.UTF_8));
        fileIO = new ContainedFileIO(new LocalFileIO(), root, "Table db.t");
    }

    @AfterMethod(alwaysRun = true)
    public void tearDown()
    {
        TemporaryDirectories.deleteRecursively(directory);
    }

    @Test
    public void testIsInside()
    {
        assertThat(ContainedFileIO.isInside("/w/t", "/w/t")).isTrue();
        assertThat(ContainedFileIO.isInside("/w/t", "/w/t/a")).isTrue();
        assertThat(ContainedFileIO.isInside("/w/t", "/w/t/a/b.parquet")).isTrue();
        assertThat(ContainedFileIO.isInside("/w/t", "/w/t/bucket-0/")).isTrue();
        assertThat(ContainedFileIO.isInside("/w/t", "/w/t/a..b")).isTrue();
        assertThat(ContainedFileIO.isInside("file:/w/t", "file:/w/t/x")).isTrue();
        assertThat(ContainedFileIO.isInside("/w/t", "/w/t2")).isFalse();
        assertThat(ContainedFileIO.isInside("/w/t", "/w/t/")).isFalse();
        assertThat(ContainedFileIO.isInside("/w/t", "/w")).isFalse();
        assertThat(ContainedFileIO.isInside("/w/t", "/w/t/..")).isFalse();
        assertThat(ContainedFileIO.isInside("/w/t", "/w/t/a/../../x")).isFalse();
        assertThat(ContainedFileIO.isInside("/w/t", "/w/t/./x")).isFalse();
        assertThat(ContainedFileIO.isInside("/w/t", "/w/t//x")).isFalse();
        assertThat(ContainedFileIO.isInside("/w/t", "/w/t/a\0b")).isFalse();
        assertThat(ContainedFileIO.isInside("/w/t", "/elsewhere")).isFalse();
    }

    @Test
    public void testOperationsOutsideTheRootAreRefused()
            throws Exception
    {
        String escaping = root + "/bucket-0/../../victim";
        assertThatThrownBy(() -> fileIO.delete(escaping))
                .isInstanceOf(CorruptFileException.class)
                .hasMessage("Table db.t: refusing to delete %s, which is outside the table directory %s".formatted(escaping, root));
        assertThatThrownBy(() -> fileIO.delete(victim.toString())).isInstanceOf(CorruptFileException.class);
        assertThatThrownBy(() -> fileIO.writeFile(escaping, new byte[1], true)).isInstanceOf(CorruptFileException.class).hasMessageContaining("refusing to write");
        assertThatThrownBy(() -> fileIO.newOutputStream(escaping)).isInstanceOf(CorruptFileException.class);
        assertThatThrownBy(() -> fileIO.tryCreateAtomically(root + "/../new", new byte[1])).isInstanceOf(CorruptFileException.class);
        assertThatThrownBy(() -> fileIO.mkdirs(root + "/../newdir")).isInstanceOf(CorruptFileException.class);
        assertThatThrownBy(() -> fileIO.list(root + "/..")).isInstanceOf(CorruptFileException.class).hasMessageContaining("refusing to list");
        assertThatThrownBy(() -> fileIO.exists(escaping)).isInstanceOf(CorruptFileException.class);
        assertThatThrownBy(() -> fileIO.newInputFile(escaping))
                .isInstanceOf(UncheckedIOException.class)
                .hasCauseInstanceOf(CorruptFileException.class)
                .hasMessageContaining("refusing to read");
        assertThat(Files.readString(victim)).isEqualTo("outside");
        try (var entries = Files.list(directory)) {
            assertThat(entries.map(path -> path.getFileName().toString()).sorted().toList()).isEqualTo(List.of("table", "victim"));
        }
    }

    @Test
    public void testOperationsInsideTheRootPassThrough()
            throws Exception
    {
        fileIO.writeFile(root + "/bucket-0/data.parquet", "x".getBytes(StandardCharsets.UTF_8), false);
        assertThat(fileIO.exists(root + "/bucket-0/data.parquet")).isTrue();
        assertThat(fileIO.newInputFile(root + "/bucket-0/data.parquet").readAllBytes()).isEqualTo("x".getBytes(StandardCharsets.UTF_8));
        assertThat(fileIO.list(root + "/bucket-0")).extracting(FileStatus::name).containsExactly("data.parquet");
        assertThat(fileIO.tryCreateAtomically(root + "/snapshot/snapshot-1", new byte[] {1})).isTrue();
        assertThat(fileIO.delete(root + "/bucket-0/data.parquet")).isTrue();
        assertThat(new ContainedFileIO(fileIO, root + "/bucket-0", "Table db.t").delete(root + "/bucket-0")).isTrue();
    }
}
