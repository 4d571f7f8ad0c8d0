package io.tarn.storage.fs;

import io.tarn.storage.MissingFileException;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

import java.io.EOFException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestLocalFileIO
{
    private final LocalFileIO fileIO = new LocalFileIO();
    private Path directory;

    @BeforeMethod
    public void setUp()
            throws Exception
    {
        directory = Files.createTempDirectory("tarn-fileio-");
    }

    @AfterMethod(alwaysRun = true)
    public void tearDown()
            throws Exception
    {
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }

    @Test
    public void testWriteReadList()
            throws Exception
    {
        String path = directory + "/a/b/file";
        byte[] content = "0123456789".getBytes(StandardCharsets.UTF_8);
        fileIO.writeFile(path, content, false);
        assertThat(fileIO.exists(path)).isTrue();
        assertThat(Files.readAllBytes(Path.of(path))).isEqualTo(content);

        InputFile file = fileIO.newInputFile(path);
        assertThat(file.path()).isEqualTo(path);
        assertThat(file.length()).isEqualTo(10);
        assertThat(file.readAllBytes()).isEqualTo(content);
        try (InputStream stream = file.newStream()) {
            assertThat(stream.readAllBytes()).isEqualTo(content);
        }
        byte[] buffer = new byte[6];
        file.readFully(3, buffer, 1, 4);
        assertThat(buffer).isEqualTo(new byte[] {0, '3', '4', '5', '6', 0});
        assertThatThrownBy(() -> file.readFully(8, buffer, 0, 4))
                .isInstanceOf(EOFException.class)
                .hasMessageContaining(path);
        assertThatThrownBy(() -> file.readFully(0, buffer, 4, 4))
                .isInstanceOf(IndexOutOfBoundsException.class);
        try (RandomAccessInput input = file.openRandomAccess()) {
            assertThat(input.length()).isEqualTo(10);
            byte[] twice = new byte[4];
            input.readFully(7, twice, 0, 3);
            input.readFully(0, twice, 3, 1);
            assertThat(twice).isEqualTo(new byte[] {'7', '8', '9', '0'});
            assertThatThrownBy(() -> input.readFully(8, twice, 0, 4))
                    .isInstanceOf(EOFException.class)
                    .hasMessageContaining(path);
            assertThatThrownBy(() -> input.readFully(0, twice, 2, 3))
                    .isInstanceOf(IndexOutOfBoundsException.class);
        }

        assertThatThrownBy(() -> fileIO.writeFile(path, content, false))
                .isInstanceOf(java.nio.file.FileAlreadyExistsException.class);
        fileIO.writeFile(path, new byte[] {1}, true);
        assertThat(fileIO.newInputFile(path).readAllBytes()).containsExactly(1);

        fileIO.mkdirs(directory + "/a/sub");
        List<FileStatus> listing = new ArrayList<>(fileIO.list(directory + "/a"));
        listing.sort(Comparator.comparing(FileStatus::path));
        assertThat(listing).extracting(FileStatus::path).containsExactly(directory + "/a/b", directory + "/a/sub");
        assertThat(listing).extracting(FileStatus::directory).containsExactly(true, true);
        assertThat(fileIO.list(directory + "/a/b")).singleElement()
                .satisfies(status -> {
                    assertThat(status.name()).isEqualTo("file");
                    assertThat(status.length()).isEqualTo(1);
                    assertThat(status.directory()).isFalse();
                    assertThat(status.modificationTimeMillis()).isPositive();
                });
        assertThat(fileIO.list(directory + "/missing")).isEmpty();

        assertThat(fileIO.delete(path)).isTrue();
        assertThat(fileIO.delete(path)).isFalse();
        assertThat(fileIO.exists(path)).isFalse();
    }

    @Test
    public void testMissingFile()
    {
        String path = directory + "/nothing";
        InputFile file = fileIO.newInputFile(path);
        assertThatThrownBy(file::length).isInstanceOf(MissingFileException.class).hasMessageContaining(path);
        assertThatThrownBy(file::readAllBytes).isInstanceOf(MissingFileException.class).hasMessageContaining(path);
        assertThatThrownBy(file::newStream).isInstanceOf(MissingFileException.class).hasMessageContaining(path);
        assertThatThrownBy(() -> file.readFully(0, new byte[1], 0, 1)).isInstanceOf(MissingFileException.class).hasMessageContaining(path);
        assertThatThrownBy(file::openRandomAccess).isInstanceOf(MissingFileException.class).hasMessageContaining(path);
    }

    @Test
    public void testFileUris()
            throws Exception
    {
        String uri = directory.toUri().toString();
        assertThat(uri).startsWith("file:");
        String path = uri + (uri.endsWith("/") ? "" : "/") + "x/y";
        fileIO.writeFile(path, new byte[] {7}, false);
        assertThat(Files.readAllBytes(directory.resolve("x/y"))).containsExactly(7);
        assertThat(fileIO.newInputFile(path).readAllBytes()).containsExactly(7);
        assertThat(fileIO.list("file:" + directory + "/x")).extracting(FileStatus::path).containsExactly("file:" + directory + "/x/y");
        assertThat(fileIO.exists("file://" + directory + "/x/y")).isTrue();
        assertThatThrownBy(() -> fileIO.exists("relative/path")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    public void testTryCreateAtomically()
            throws Exception
    {
        String path = directory + "/meta/snapshot-1";
        assertThat(fileIO.tryCreateAtomically(path, new byte[] {1})).isTrue();
        assertThat(fileIO.tryCreateAtomically(path, new byte[] {2})).isFalse();
        assertThat(Files.readAllBytes(Path.of(path))).containsExactly(1);
        // no temporary files are left behind
        try (Stream<Path> files = Files.list(directory.resolve("meta"))) {
            assertThat(files.map(file -> file.getFileName().toString())).containsExactly("snapshot-1");
        }
    }

    @Test
    public void testConcurrentCreates()
            throws Exception
    {
        ExecutorService executor = Executors.newFixedThreadPool(4);
        try {
            for (int round = 0; round < 20; round++) {
                String path = directory + "/race-" + round;
                CyclicBarrier barrier = new CyclicBarrier(4);
                List<Future<Boolean>> results = new ArrayList<>();
                for (int writer = 0; writer < 4; writer++) {
                    byte[] content = new byte[] {(byte) writer};
                    results.add(executor.submit(() -> {
                        barrier.await();
                        return fileIO.tryCreateAtomically(path, content);
                    }));
                }
                int winner = -1;
                for (int writer = 0; writer < 4; writer++) {
                    if (results.get(writer).get()) {
                        assertThat(winner).as("a second winner in round %s", round).isEqualTo(-1);
                        winner = writer;
                    }
                }
                assertThat(winner).isNotEqualTo(-1);
                assertThat(Files.readAllBytes(Path.of(path))).containsExactly(winner);
            }
        }
        finally {
            executor.shutdownNow();
        }
    }
}
