package io.tarn.cli;

import io.tarn.s3server.S3ProxyServer;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.ReferenceTables;
import io.tarn.testing.TemporaryDirectories;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The command line over a warehouse on an object store: a real S3-compatible server (S3Proxy on
 * 127.0.0.1) serves the files Apache Paimon wrote, and {@code --conf} says how to reach it.
 */
public class TestTarnCliOnS3
{
    private static final String TABLE = ReferenceTables.APPEND_PARTITIONED.identifier();
    private static final String WAREHOUSE = "s3://tarn-lake/warehouse";

    private Path local;
    private Path serverDirectory;
    private S3ProxyServer server;
    private Path objects;

    @BeforeClass
    public void createTable()
            throws IOException
    {
        local = TemporaryDirectories.create("tarn-cli-s3-local");
        ReferenceTables.create(local, ReferenceTables.APPEND_PARTITIONED);
        serverDirectory = TemporaryDirectories.create("tarn-cli-s3");
        server = S3ProxyServer.start(serverDirectory);
        objects = server.copyIntoBucket(local, "tarn-lake", "warehouse");
    }

    @AfterClass(alwaysRun = true)
    public void deleteTable()
    {
        if (server != null) {
            server.close();
        }
        TemporaryDirectories.deleteRecursively(serverDirectory);
        TemporaryDirectories.deleteRecursively(local);
    }

    @Test
    public void testDumpFromS3PrintsTheOraclesRows()
    {
        Result all = run(withConf("dump", "--warehouse", WAREHOUSE, TABLE));
        assertThat(all.exitCode()).as(all.err()).isZero();
        assertThat(all.out()).isEqualTo(ReferenceReader.read(local, TABLE).text());
        // one request per small data file: its last 64 kB are all of it
        assertThat(all.err()).contains("files_read=9", "object_requests=9 ");

        // --conf also after the table name, and in the --name=value spelling
        List<String> arguments = new ArrayList<>(List.of("dump", "--warehouse=" + WAREHOUSE, "--where", "dt = '2024-01-01'", TABLE));
        server.clientProperties().forEach((key, value) -> arguments.add("--conf=" + key + "=" + value));
        Result filtered = run(arguments.toArray(String[]::new));
        assertThat(filtered.exitCode()).as(filtered.err()).isZero();
        assertThat(filtered.out()).isEqualTo(run(withConf("dump", "--warehouse", WAREHOUSE, "--where", "dt = '2024-01-01'", TABLE)).out());
        assertThat(filtered.err()).contains("files_skipped_partition=");
    }

    @Test
    public void testFilesAndSnapshotsFromS3()
    {
        Result listed = run(withConf("snapshots", "--warehouse", WAREHOUSE, TABLE));
        assertThat(listed.exitCode()).as(listed.err()).isZero();
        assertThat(listed.out().lines().skip(1).filter(line -> !line.isBlank() && Character.isDigit(line.charAt(0)))).hasSize(ReferenceTables.snapshots(objects, TABLE).size());
        Result files = run(withConf("files", "--warehouse", WAREHOUSE, "--snapshot", "1", TABLE));
        assertThat(files.exitCode()).as(files.err()).isZero();
        assertThat(files.err()).startsWith("# scan snapshot=1 ");
    }

    @Test
    public void testSortCompactCommitsToS3AndPaimonReadsTheResult()
    {
        String before = ReferenceReader.read(objects, TABLE).text();
        Result compacted = run(withConf("sort-compact", "--warehouse", WAREHOUSE, "--zorder", "id,amount", TABLE));
        assertThat(compacted.exitCode()).as(compacted.err()).isZero();
        // Paimon reads the objects Tarn wrote, as files of the server's bucket directory
        assertThat(ReferenceReader.read(objects, TABLE).text()).isEqualTo(before);
        assertThat(ReferenceTables.snapshots(objects, TABLE)).hasSize(ReferenceTables.snapshots(local, TABLE).size() + 1);
    }

    @Test
    public void testBadSettingsAreClearErrors()
    {
        Result wrongKey = run(withConf(Map.of("s3.aws-secret-key", "wrong"), "dump", "--warehouse", WAREHOUSE, TABLE));
        assertThat(wrongKey.exitCode()).isEqualTo(1);
        assertThat(wrongKey.err()).contains("s3://tarn-lake/warehouse").contains("403");

        Result noValue = run("dump", "--warehouse", WAREHOUSE, "--conf", "s3.endpoint", TABLE);
        assertThat(noValue.exitCode()).isEqualTo(2);
        assertThat(noValue.err()).contains("--conf needs KEY=VALUE");

        Result badFlag = run(withConf(Map.of("s3.path-style-access", "yes"), "dump", "--warehouse", WAREHOUSE, TABLE));
        assertThat(badFlag.exitCode()).isEqualTo(2);
        assertThat(badFlag.err()).contains("s3.path-style-access must be true or false: yes");

        Result otherScheme = run("dump", "--warehouse", "hdfs://namenode/warehouse", TABLE);
        assertThat(otherScheme.exitCode()).isEqualTo(2);
        assertThat(otherScheme.err()).contains("Unsupported warehouse location hdfs://namenode/warehouse");
    }

    private String[] withConf(String... arguments)
    {
        return withConf(Map.of(), arguments);
    }

    private String[] withConf(Map<String, String> overrides, String... arguments)
    {
        List<String> all = new ArrayList<>(List.of(arguments));
        server.clientProperties().forEach((key, value) -> {
            all.add(1, "--conf");
            all.add(2, key + "=" + overrides.getOrDefault(key, value));
        });
        return all.toArray(String[]::new);
    }

    private static Result run(String... args)
    {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exitCode = new TarnCli(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)).run(List.of(args));
        return new Result(exitCode, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private record Result(int exitCode, String out, String err) {}
}
