package io.tarn.cli;

import io.tarn.cli.TestTarnCli.Result;
import io.tarn.testing.ObjectStoreLake;
import io.tarn.testing.PaimonOnS3;
import io.tarn.testing.ReferenceFilter;
import io.tarn.testing.ReferenceFilters;
import io.tarn.testing.ReferenceScan;
import io.tarn.testing.ReferenceSnapshot;
import io.tarn.testing.ReferenceTable;
import io.tarn.testing.ReferenceTables;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.predicate.PredicateBuilder;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The command line over a warehouse on an object store: a real S3-compatible server (S3Proxy on
 * 127.0.0.1) holds the reference tables Apache Paimon wrote into it through S3, {@code --conf} says how to
 * reach it, and Paimon, reading through S3, is the oracle.
 */
public class TestTarnCliOnS3
{
    private static final String TABLE = ReferenceTables.APPEND_PARTITIONED.identifier();

    private ObjectStoreLake lake;
    private String warehouse;
    private PaimonOnS3 paimon;

    @BeforeClass
    public void createTable()
            throws IOException
    {
        lake = ObjectStoreLake.create("tarn-cli-s3", ReferenceTables.all());
        warehouse = lake.location();
        paimon = lake.paimon();
    }

    @AfterClass(alwaysRun = true)
    public void deleteTable()
    {
        if (lake != null) {
            lake.close();
        }
    }

    @Test
    public void testDumpFromS3PrintsTheOraclesRows()
    {
        Result all = run(withConf("dump", "--warehouse", warehouse, TABLE));
        assertThat(all.exitCode()).as(all.err()).isZero();
        assertThat(all.out()).isEqualTo(paimon.read(TABLE).text());
        // one request per small data file: its last 64 kB are all of it
        assertThat(all.err()).contains("files_read=9", "object_requests=9 ");

        // --conf also after the table name, and in the --name=value spelling
        List<String> arguments = new ArrayList<>(List.of("dump", "--warehouse=" + warehouse, "--where", "dt = '2024-01-01'", TABLE));
        lake.clientProperties().forEach((key, value) -> arguments.add("--conf=" + key + "=" + value));
        Result filtered = run(arguments.toArray(String[]::new));
        assertThat(filtered.exitCode()).as(filtered.err()).isZero();
        ReferenceScan unfiltered = ReferenceScan.of(TABLE);
        PredicateBuilder builder = paimon.predicateBuilder(unfiltered);
        int dt = paimon.rowType(unfiltered).getFieldIndex("dt");
        assertThat(filtered.out()).isEqualTo(paimon.read(unfiltered.withFilter(builder.equal(dt, BinaryString.fromString("2024-01-01")))).text());
        assertThat(filtered.err()).contains("files_skipped_partition=");
    }

    /**
     * Every reference table at its latest snapshot, at each snapshot still present, at each tag
     * and on each branch: {@code tarn dump} from S3 prints Paimon's rows, read through S3.
     */
    @Test
    public void testEveryVersionDumpsTheOraclesRows()
    {
        for (ReferenceTable table : ReferenceTables.all()) {
            ReferenceScan latest = ReferenceScan.of(table.identifier());
            assertDumps(latest, "dump", "--warehouse", warehouse, table.identifier());
            for (ReferenceSnapshot snapshot : paimon.snapshots(table.identifier())) {
                assertDumps(latest.atSnapshot(snapshot.id()), "dump", "--warehouse", warehouse, "--snapshot", String.valueOf(snapshot.id()), table.identifier());
            }
            for (String tag : paimon.tags(table.identifier())) {
                assertDumps(latest.atTag(tag), "dump", "--warehouse", warehouse, "--tag", tag, table.identifier());
            }
            for (String branch : table.branches()) {
                assertDumps(latest.onBranch(branch), "dump", "--warehouse", warehouse, "--branch", branch, table.identifier());
            }
        }
    }

    /**
     * The usual filters ({@link ReferenceFilters}) as {@code --where}: {@code tarn dump} from S3
     * prints Paimon's rows under the same condition.
     */
    @Test
    public void testUsualFiltersDumpTheOraclesRows()
    {
        for (ReferenceFilter filter : ReferenceFilters.usual()) {
            assertDumps(filter.scan(paimon.rowType(ReferenceScan.of(filter.table()))), "dump", "--warehouse", warehouse, "--where", filter.where(), filter.table());
        }
    }

    private void assertDumps(ReferenceScan scan, String... arguments)
    {
        Result dumped = run(withConf(arguments));
        assertThat(dumped.exitCode()).as("%s: %s", String.join(" ", arguments), dumped.err()).isZero();
        assertThat(dumped.out()).as(String.join(" ", arguments)).isEqualTo(paimon.read(scan).text());
    }

    @Test
    public void testFilesAndSnapshotsFromS3()
    {
        Result listed = run(withConf("snapshots", "--warehouse", warehouse, TABLE));
        assertThat(listed.exitCode()).as(listed.err()).isZero();
        assertThat(listed.out().lines().skip(1).filter(line -> !line.isBlank() && Character.isDigit(line.charAt(0)))).hasSize(paimon.snapshots(TABLE).size());
        Result files = run(withConf("files", "--warehouse", warehouse, "--snapshot", "1", TABLE));
        assertThat(files.exitCode()).as(files.err()).isZero();
        assertThat(files.err()).startsWith("# scan snapshot=1 ");
    }

    @Test
    public void testSortCompactCommitsToS3AndPaimonReadsTheResult()
    {
        String before = paimon.read(TABLE).text();
        int snapshots = paimon.snapshots(TABLE).size();
        Result compacted = run(withConf("sort-compact", "--warehouse", warehouse, "--zorder", "id,amount", TABLE));
        assertThat(compacted.exitCode()).as(compacted.err()).isZero();
        // Paimon reads the objects Tarn wrote, through S3
        assertThat(paimon.read(TABLE).text()).isEqualTo(before);
        assertThat(paimon.snapshots(TABLE)).hasSize(snapshots + 1);
    }

    @Test
    public void testBadSettingsAreClearErrors()
    {
        Result wrongKey = run(withConf(Map.of("s3.aws-secret-key", "wrong"), "dump", "--warehouse", warehouse, TABLE));
        assertThat(wrongKey.exitCode()).isEqualTo(1);
        assertThat(wrongKey.err()).contains(lake.location()).contains("403");

        Result noValue = run("dump", "--warehouse", warehouse, "--conf", "s3.endpoint", TABLE);
        assertThat(noValue.exitCode()).isEqualTo(2);
        assertThat(noValue.err()).contains("--conf needs KEY=VALUE");

        Result badFlag = run(withConf(Map.of("s3.path-style-access", "yes"), "dump", "--warehouse", warehouse, TABLE));
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
        lake.clientProperties().forEach((key, value) -> {
            all.add(1, "--conf");
            all.add(2, key + "=" + overrides.getOrDefault(key, value));
        });
        return all.toArray(String[]::new);
    }

    private static Result run(String... args)
    {
        return TestTarnCli.run(args);
    }
}
