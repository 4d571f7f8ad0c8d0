package io.tarn.storage.fs.s3;

import io.tarn.s3server.S3ProxyServer;
import io.tarn.storage.MissingFileException;
import io.tarn.storage.fs.FileStatus;
import io.tarn.storage.fs.InputFile;
import io.tarn.testing.TemporaryDirectories;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The file operations of the table format against a real S3-compatible server (S3Proxy on
 * 127.0.0.1, in its own process).
 */
public class TestS3FileIO
{
    private Path serverDirectory;
    private S3ProxyServer server;
    private S3FileIO fileIO;

    @BeforeClass
    public void startServer()
            throws IOException
    {
        serverDirectory = TemporaryDirectories.create("tarn-s3-fileio");
        server = S3ProxyServer.start(serverDirectory);
        server.bucket("tarn-bucket");
        fileIO = new S3FileIO(S3Settings.fromProperties(server.clientProperties()));
    }

    @AfterClass(alwaysRun = true)
    public void stopServer()
            throws IOException
    {
        if (fileIO != null) {
            fileIO.close();
        }
        if (server != null) {
            server.close();
        }
        TemporaryDirectories.deleteRecursively(serverDirectory);
    }

    @Test
    public void testWriteReadAndRanges()
            throws IOException
    {
        byte[] content = "0123456789abcdef".getBytes(StandardCharsets.UTF_8);
        fileIO.writeFile("s3://tarn-bucket/t1/data/file.bin", content, false);
        InputFile file = fileIO.newInputFile("s3://tarn-bucket/t1/data/file.bin");
        assertThat(file.length()).isEqualTo(16);
        assertThat(file.readAllBytes()).isEqualTo(content);
        byte[] buffer = new byte[8];
        file.readFully(10, buffer, 2, 6);
        assertThat(new String(buffer, 2, 6, StandardCharsets.UTF_8)).isEqualTo("abcdef");
        assertThatThrownBy(() -> file.readFully(12, new byte[8], 0, 8)).isInstanceOf(EOFException.class).hasMessageContaining("s3://tarn-bucket/t1/data/file.bin");
        assertThatThrownBy(() -> file.readFully(40, new byte[8], 0, 8)).isInstanceOf(EOFException.class);
        try (var input = file.openRandomAccess()) {
            byte[] one = new byte[1];
            input.readFully(15, one, 0, 1);
            assertThat((char) one[0]).isEqualTo('f');
        }
        assertThatThrownBy(() -> fileIO.writeFile("s3://tarn-bucket/t1/data/file.bin", content, false)).isInstanceOf(FileAlreadyExistsException.class);
        fileIO.writeFile("s3://tarn-bucket/t1/data/file.bin", new byte[] {1}, true);
        assertThat(fileIO.newInputFile("s3://tarn-bucket/t1/data/file.bin").readAllBytes()).containsExactly(1);
    }

    /**
     * A Parquet reader asks for the length, the last bytes and the footer: one request for a
     * small object, one for the tail of a large one, one per range outside it.
     */
    @Test
    public void testTailIsFetchedOnce()
            throws IOException
    {
        byte[] small = new byte[1000];
        new Random(3).nextBytes(small);
        fileIO.writeFile("s3://tarn-bucket/t6/small.parquet", small, false);
        long before = fileIO.requestCount();
        InputFile file = fileIO.newInputFile("s3://tarn-bucket/t6/small.parquet");
        assertThat(file.length()).isEqualTo(1000);
        byte[] tail = new byte[8];
        file.readFully(992, tail, 0, 8);
        byte[] head = new byte[4];
        file.readFully(0, head, 0, 4);
        assertThat(fileIO.requestCount() - before).isEqualTo(1);
        assertThat(tail).isEqualTo(java.util.Arrays.copyOfRange(small, 992, 1000));
        assertThat(head).isEqualTo(java.util.Arrays.copyOfRange(small, 0, 4));

        byte[] large = new byte[S3InputFile.TAIL_BYTES * 3];
        new Random(4).nextBytes(large);
        fileIO.writeFile("s3://tarn-bucket/t6/large.parquet", large, false);
        before = fileIO.requestCount();
        InputFile largeFile = fileIO.newInputFile("s3://tarn-bucket/t6/large.parquet");
        byte[] footer = new byte[100];
        largeFile.readFully(large.length - 108, footer, 0, 100);
        assertThat(largeFile.length()).isEqualTo(large.length);
        byte[] chunk = new byte[300];
        largeFile.readFully(10, chunk, 0, 300);
        assertThat(fileIO.requestCount() - before).isEqualTo(2);
        assertThat(footer).isEqualTo(java.util.Arrays.copyOfRange(large, large.length - 108, large.length - 8));
        assertThat(chunk).isEqualTo(java.util.Arrays.copyOfRange(large, 10, 310));

        fileIO.writeFile("s3://tarn-bucket/t6/empty", new byte[0], false);
        assertThat(fileIO.newInputFile("s3://tarn-bucket/t6/empty").length()).isZero();
        assertThatThrownBy(() -> fileIO.newInputFile("s3://tarn-bucket/t6/empty").readFully(0, new byte[1], 0, 1)).isInstanceOf(EOFException.class);
    }

    /**
     * An object whose length the table's metadata gives: at most the small-object threshold, its
     * first read fetches it whole and nothing else is requested; above it, no request learns the
     * length, the footer's read fetches the tail by an explicit range, and a read before the tail
     * is its own range.
     */
    @Test
    public void testObjectOfKnownLengthIsFetchedWholeWhenSmall()
            throws IOException
    {
        byte[] content = new byte[S3InputFile.TAIL_BYTES * 3];
        new Random(5).nextBytes(content);
        fileIO.writeFile("s3://tarn-bucket/t8/data.parquet", content, false);

        long before = fileIO.requestCount();
        long bytesBefore = fileIO.bytesRead();
        InputFile small = fileIO.newInputFile("s3://tarn-bucket/t8/data.parquet", content.length);
        assertThat(small.remote()).as("served from memory after the first read").isFalse();
        assertThat(small.length()).isEqualTo(content.length);
        assertThat(fileIO.requestCount() - before).as("the length is known").isZero();
        byte[] footer = new byte[8];
        small.readFully(content.length - 8, footer, 0, 8);
        byte[] head = new byte[300];
        small.readFully(10, head, 0, 300);
        assertThat(small.readAllBytes()).isEqualTo(content);
        assertThat(fileIO.requestCount() - before).isEqualTo(1);
        assertThat(fileIO.bytesRead() - bytesBefore).isEqualTo(content.length);
        assertThat(footer).isEqualTo(Arrays.copyOfRange(content, content.length - 8, content.length));
        assertThat(head).isEqualTo(Arrays.copyOfRange(content, 10, 310));
        assertThatThrownBy(() -> small.readFully(content.length - 4, new byte[8], 0, 8)).isInstanceOf(EOFException.class);
        assertThat(fileIO.requestCount() - before).isEqualTo(1);

        try (S3FileIO rangedIO = new S3FileIO(S3Settings.fromProperties(withProperty(S3Settings.SMALL_OBJECT_THRESHOLD, "64kB")))) {
            InputFile large = rangedIO.newInputFile("s3://tarn-bucket/t8/data.parquet", content.length);
            assertThat(large.remote()).isTrue();
            byte[] tail = new byte[100];
            large.readFully(content.length - 108, tail, 0, 100);
            large.readFully(content.length - S3InputFile.TAIL_BYTES, new byte[10], 0, 10);
            byte[] chunk = new byte[300];
            large.readFully(10, chunk, 0, 300);
            assertThat(rangedIO.requestCount()).isEqualTo(2);
            assertThat(rangedIO.bytesRead()).isEqualTo(S3InputFile.TAIL_BYTES + 300);
            assertThat(tail).isEqualTo(Arrays.copyOfRange(content, content.length - 108, content.length - 8));
            assertThat(chunk).isEqualTo(Arrays.copyOfRange(content, 10, 310));
            // a first read before the tail fetches only its range
            InputFile other = rangedIO.newInputFile("s3://tarn-bucket/t8/data.parquet", content.length);
            other.readFully(0, chunk, 0, 300);
            assertThat(rangedIO.bytesRead()).isEqualTo(S3InputFile.TAIL_BYTES + 600);
            assertThat(chunk).isEqualTo(Arrays.copyOfRange(content, 0, 300));
        }

        // no request for an empty object
        before = fileIO.requestCount();
        assertThat(fileIO.newInputFile("s3://tarn-bucket/t8/empty", 0).readAllBytes()).isEmpty();
        assertThat(fileIO.requestCount() - before).isZero();
    }

    @Test
    public void testKnownLengthThatDiffersFromTheObjectFails()
            throws IOException
    {
        byte[] content = new byte[1000];
        new Random(6).nextBytes(content);
        fileIO.writeFile("s3://tarn-bucket/t9/data.parquet", content, false);
        assertThatThrownBy(() -> fileIO.newInputFile("s3://tarn-bucket/t9/data.parquet", 999).readFully(0, new byte[4], 0, 4))
                .isInstanceOf(EOFException.class)
                .hasMessageContaining("s3://tarn-bucket/t9/data.parquet")
                .hasMessageContaining("records 999 bytes");
        assertThatThrownBy(() -> fileIO.newInputFile("s3://tarn-bucket/t9/data.parquet", 1001).readFully(0, new byte[4], 0, 4))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("s3://tarn-bucket/t9/data.parquet");
        assertThatThrownBy(() -> fileIO.newInputFile("s3://tarn-bucket/t9/none.parquet", 1000).readFully(0, new byte[4], 0, 4))
                .isInstanceOf(MissingFileException.class)
                .hasMessageContaining("s3://tarn-bucket/t9/none.parquet");
    }

    @Test
    public void testMissingObjectsAreNamed()
    {
        assertThatThrownBy(() -> fileIO.newInputFile("s3://tarn-bucket/none/file").length()).isInstanceOf(MissingFileException.class).hasMessageContaining("s3://tarn-bucket/none/file");
        assertThatThrownBy(() -> fileIO.newInputFile("s3://tarn-bucket/none/file").readAllBytes()).isInstanceOf(MissingFileException.class).hasMessageContaining("s3://tarn-bucket/none/file");
        assertThatThrownBy(() -> fileIO.list("s3://no-such-bucket/x")).isInstanceOf(IOException.class).hasMessageContaining("no-such-bucket");
    }

    @Test
    public void testDirectoriesAreKeyPrefixes()
            throws IOException
    {
        assertThat(fileIO.exists("s3://tarn-bucket/t2/empty")).isFalse();
        fileIO.mkdirs("s3://tarn-bucket/t2/empty");
        assertThat(fileIO.exists("s3://tarn-bucket/t2/empty")).isTrue();
        assertThat(fileIO.list("s3://tarn-bucket/t2/empty")).isEmpty();
        assertThat(fileIO.delete("s3://tarn-bucket/t2/empty")).isTrue();
        assertThat(fileIO.exists("s3://tarn-bucket/t2/empty")).isFalse();
        assertThat(fileIO.delete("s3://tarn-bucket/t2/empty")).isFalse();
        fileIO.writeFile("s3://tarn-bucket/t2/a", new byte[1], false);
        fileIO.writeFile("s3://tarn-bucket/t2/sub/b", new byte[2], false);
        fileIO.writeFile("s3://tarn-bucket/t2/sub/deeper/c", new byte[3], false);
        assertThat(fileIO.exists("s3://tarn-bucket/t2")).isTrue();
        assertThat(fileIO.exists("s3://tarn-bucket/t2/sub")).isTrue();
        assertThat(fileIO.exists("s3://tarn-bucket/t2/a")).isTrue();
        assertThat(fileIO.exists("s3://tarn-bucket/t2/s")).isFalse();
        List<FileStatus> entries = fileIO.list("s3://tarn-bucket/t2/");
        assertThat(entries).extracting(FileStatus::path).containsExactlyInAnyOrder("s3://tarn-bucket/t2/a", "s3://tarn-bucket/t2/sub");
        assertThat(entries).filteredOn(FileStatus::directory).extracting(FileStatus::name).containsExactly("sub");
        assertThat(entries).filteredOn(entry -> !entry.directory()).extracting(FileStatus::length).containsExactly(1L);
        assertThat(fileIO.list("s3://tarn-bucket/t2/none")).isEmpty();
        assertThatThrownBy(() -> fileIO.delete("s3://tarn-bucket/t2/sub")).isInstanceOf(java.nio.file.DirectoryNotEmptyException.class);
        assertThat(fileIO.delete("s3://tarn-bucket/t2/a")).isTrue();
        assertThat(fileIO.delete("s3://tarn-bucket/t2/a")).isFalse();
        assertThatThrownBy(() -> fileIO.rename("s3://tarn-bucket/t2/sub", "s3://tarn-bucket/t3")).isInstanceOf(IOException.class).hasMessageContaining("no rename");
    }

    @Test
    public void testListingFollowsPages()
            throws IOException
    {
        // placed by the server's back end: a thousand PUTs would take seconds
        Path many = Files.createDirectories(server.bucket("tarn-bucket").resolve("many"));
        for (int i = 0; i < 1005; i++) {
            Files.write(many.resolve("f-" + i), new byte[0]);
        }
        assertThat(fileIO.list("s3://tarn-bucket/many")).hasSize(1005);
    }

    @Test
    public void testLargeStreamIsUploadedInParts()
            throws IOException
    {
        byte[] content = new byte[S3OutputStream.PART_SIZE + 12345];
        new Random(7).nextBytes(content);
        try (OutputStream out = fileIO.newOutputStream("s3://tarn-bucket/t4/large")) {
            for (int offset = 0; offset < content.length; offset += 100_000) {
                out.write(content, offset, Math.min(100_000, content.length - offset));
            }
            assertThat(fileIO.exists("s3://tarn-bucket/t4/large")).as("visible before close").isFalse();
        }
        assertThat(fileIO.newInputFile("s3://tarn-bucket/t4/large").readAllBytes()).isEqualTo(content);
        try (OutputStream out = fileIO.newOutputStream("s3://tarn-bucket/t4/small")) {
            out.write(content, 0, 10);
        }
        assertThat(fileIO.newInputFile("s3://tarn-bucket/t4/small").length()).isEqualTo(10);
        assertThatThrownBy(() -> fileIO.newOutputStream("s3://tarn-bucket/t4/small")).isInstanceOf(FileAlreadyExistsException.class);
    }

    @Test
    public void testExactlyOneConcurrentCreateWins()
            throws Exception
    {
        assertThat(fileIO.tryCreateAtomically("s3://tarn-bucket/t5/snapshot-1", bytes("first"))).isTrue();
        assertThat(fileIO.tryCreateAtomically("s3://tarn-bucket/t5/snapshot-1", bytes("second"))).isFalse();
        assertThat(fileIO.newInputFile("s3://tarn-bucket/t5/snapshot-1").readAllBytes()).isEqualTo(bytes("first"));
        // the same content again: an SDK retry of a PUT that had landed
        assertThat(fileIO.tryCreateAtomically("s3://tarn-bucket/t5/snapshot-1", bytes("first"))).isTrue();

        int writers = 8;
        ExecutorService executor = Executors.newFixedThreadPool(writers);
        try {
            for (int round = 0; round < 5; round++) {
                String path = "s3://tarn-bucket/t5/snapshot-race-" + round;
                CountDownLatch start = new CountDownLatch(1);
                List<Future<Boolean>> results = new ArrayList<>();
                for (int writer = 0; writer < writers; writer++) {
                    byte[] content = bytes("writer " + writer);
                    Callable<Boolean> create = () -> {
                        start.await();
                        return fileIO.tryCreateAtomically(path, content);
                    };
                    results.add(executor.submit(create));
                }
                start.countDown();
                int won = 0;
                int winner = -1;
                for (int writer = 0; writer < writers; writer++) {
                    if (results.get(writer).get()) {
                        won++;
                        winner = writer;
                    }
                }
                assertThat(won).as("round %s", round).isEqualTo(1);
                assertThat(fileIO.newInputFile(path).readAllBytes()).isEqualTo(bytes("writer " + winner));
            }
        }
        finally {
            executor.shutdownNow();
        }
    }

    /**
     * {@code oss://} goes through OSS's S3-compatible API, its create adding OSS's
     * {@code x-oss-forbid-overwrite}; against an S3 server, If-None-Match decides alone.
     */
    @Test
    public void testOssLocationsCreateExclusively()
            throws IOException
    {
        assertThat(fileIO.tryCreateAtomically("oss://tarn-bucket/t7/snapshot-1", bytes("first"))).isTrue();
        assertThat(fileIO.tryCreateAtomically("oss://tarn-bucket/t7/snapshot-1", bytes("second"))).isFalse();
        assertThat(fileIO.newInputFile("oss://tarn-bucket/t7/snapshot-1").readAllBytes()).isEqualTo(bytes("first"));
        assertThat(fileIO.exists("s3://tarn-bucket/t7/snapshot-1")).isTrue();
    }

    @Test
    public void testSettingsTakeTrinoAndPaimonSpellings()
    {
        Map<String, String> paimon = new HashMap<>();
        paimon.put("s3.endpoint", "http://127.0.0.1:9000");
        paimon.put("s3.access-key", "a");
        paimon.put("s3.secret-key", "s");
        paimon.put("s3.path.style.access", "true");
        S3Settings settings = S3Settings.fromProperties(paimon);
        assertThat(settings.accessKey()).contains("a");
        assertThat(settings.secretKey()).contains("s");
        assertThat(settings.pathStyleAccess()).isTrue();
        assertThat(settings.toString()).doesNotContain("s3.secret").doesNotContain("=s,");
        assertThat(settings.allowUnsafeCommits()).isFalse();
        // Trino's spelling of a store without conditional writes
        assertThat(S3Settings.fromProperties(Map.of("s3.exclusive-create", "false")).allowUnsafeCommits()).isTrue();
        assertThat(S3Settings.fromProperties(Map.of("s3.exclusive-create", "true")).allowUnsafeCommits()).isFalse();
        assertThatThrownBy(() -> S3Settings.fromProperties(Map.of("s3.path-style-access", "yes"))).hasMessageContaining("s3.path-style-access must be true or false: yes");
        assertThatThrownBy(() -> S3Settings.fromProperties(Map.of("s3.endpoint", "localhost"))).hasMessageContaining("s3.endpoint");
        assertThatThrownBy(() -> S3Settings.fromProperties(Map.of("s3.aws-access-key", "a"))).hasMessageContaining("s3.aws-secret-key");

        // failures: Trino's names and defaults, and Tarn's base delay
        S3Settings defaults = S3Settings.fromProperties(Map.of());
        assertThat(defaults.maxErrorRetries()).isEqualTo(10);
        assertThat(defaults.retryBaseDelay()).isEqualTo(Duration.ofMillis(100));
        assertThat(defaults.socketTimeout()).isEmpty();
        S3Settings retries = S3Settings.fromProperties(Map.of("s3.max-error-retries", "2", "s3.retry-base-delay", "1.5s", "s3.socket-timeout", "2m"));
        assertThat(retries.maxErrorRetries()).isEqualTo(2);
        assertThat(retries.retryBaseDelay()).isEqualTo(Duration.ofMillis(1500));
        assertThat(retries.socketTimeout()).contains(Duration.ofMinutes(2));
        assertThat(S3Settings.fromProperties(Map.of("s3.socket-read-timeout", "250ms")).socketTimeout()).contains(Duration.ofMillis(250));
        assertThat(S3Settings.fromProperties(Map.of("s3.max-error-retries", "0")).maxErrorRetries()).isZero();
        assertThatThrownBy(() -> S3Settings.fromProperties(Map.of("s3.max-error-retries", "-1"))).hasMessageContaining("s3.max-error-retries must be a whole number, 0 or more: -1");
        assertThatThrownBy(() -> S3Settings.fromProperties(Map.of("s3.retry-base-delay", "10"))).hasMessageContaining("s3.retry-base-delay must be a duration");
        assertThatThrownBy(() -> S3Settings.fromProperties(Map.of("s3.socket-timeout", "0s"))).hasMessageContaining("s3.socket-timeout must be positive");
        assertThat(S3Settings.PROPERTY_NAMES).contains("s3.max-error-retries", "s3.retry-base-delay", "s3.socket-timeout", "s3.socket-read-timeout", "s3.small-object-threshold");

        // the size under which a data file is fetched whole: Trino's parquet.small-file-threshold
        assertThat(defaults.smallObjectThreshold()).isEqualTo(3L << 20);
        assertThat(S3Settings.fromProperties(Map.of("s3.small-object-threshold", "512kB")).smallObjectThreshold()).isEqualTo(512L << 10);
        assertThat(S3Settings.fromProperties(Map.of("s3.small-object-threshold", "1.5MB")).smallObjectThreshold()).isEqualTo(3L << 19);
        assertThat(S3Settings.fromProperties(Map.of("s3.small-object-threshold", "0")).smallObjectThreshold()).isZero();
        assertThatThrownBy(() -> S3Settings.fromProperties(Map.of("s3.small-object-threshold", "3 apples"))).hasMessageContaining("s3.small-object-threshold must be a data size");
        assertThatThrownBy(() -> S3Settings.fromProperties(Map.of("s3.small-object-threshold", "2GB"))).hasMessageContaining("s3.small-object-threshold must be between 0 and 1GB");
    }

    @Test
    public void testPathsOutsideTheObjectStoreAreRefused()
    {
        assertThatThrownBy(() -> fileIO.newInputFile("/local/file")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("/local/file");
        assertThatThrownBy(() -> fileIO.writeFile("s3://b", new byte[0], true)).isInstanceOf(IllegalArgumentException.class);
        assertThat(Files.exists(serverDirectory)).isTrue();
    }

    private static byte[] bytes(String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private Map<String, String> withProperty(String name, String value)
    {
        Map<String, String> properties = new HashMap<>(server.clientProperties());
        properties.put(name, value);
        return properties;
    }
}
