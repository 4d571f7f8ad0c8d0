package io.tarn.jni;

import io.tarn.jni.NativeProgram.Case;
import io.tarn.jni.NativeProgram.Output;
import io.tarn.s3server.S3ProxyServer;
import io.tarn.testing.CanonicalRows;
import io.tarn.testing.ObjectStoreLake;
import io.tarn.testing.PaimonOnS3;
import io.tarn.testing.ReferenceFilter;
import io.tarn.testing.ReferenceFilters;
import io.tarn.testing.ReferenceScan;
import io.tarn.testing.ReferenceSnapshot;
import io.tarn.testing.ReferenceTable;
import io.tarn.testing.ReferenceTables;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.tarn.jni.NativeProgram.command;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The C ABI over a warehouse on an object store (S3Proxy on 127.0.0.1): {@code tarn_scan.options}
 * says how to reach it. A process that opens split descriptors gets the settings from them but
 * not the keys, which come from its own environment (the AWS default credential chain).
 */
public class TestTarnBridgeOnS3
{
    private static final String DV = ReferenceTables.PK_DV.identifier();
    private static final String PARTITIONED = ReferenceTables.APPEND_PARTITIONED.identifier();

    private ObjectStoreLake lake;
    private PaimonOnS3 paimon;
    private final List<VersionCase> versionCases = new ArrayList<>();
    private final List<VersionCase> filterCases = new ArrayList<>();
    private Output output;

    @BeforeClass
    public void createTables()
            throws IOException
    {
        lake = ObjectStoreLake.create("tarn-jni-s3", ReferenceTables.all());
        paimon = lake.paimon();
        String warehouse = lake.location();
        String options = lake.clientProperties().entrySet().stream().map(entry -> entry.getKey() + "=" + entry.getValue()).collect(Collectors.joining(";"));
        String withoutKeys = lake.clientProperties().entrySet().stream()
                .filter(entry -> !entry.getKey().contains("-key"))
                .map(entry -> entry.getKey() + "=" + entry.getValue()).collect(Collectors.joining(";"));
        List<String> commands = new ArrayList<>();
        commands.add(command("scan", "dv_splits", warehouse, DV, null, null, null, "splits", options));
        commands.add(command("scan", "dv_table", warehouse, DV, null, "v,id", "id >= 20", "table", options));
        commands.add(command("scan", "partitioned_table", warehouse, PARTITIONED, "tag:t1", null, null, "table", options));
        commands.add(command("scan", "wrong_key", warehouse, DV, null, null, null, "table", options.replace(S3ProxyServer.SECRET_KEY, "wrong")));
        commands.add(command("scan", "environment_keys", warehouse, DV, null, null, null, "table", withoutKeys));
        commands.add(command("scan", "bad_option", warehouse, DV, null, null, null, "table", "s3.endpoint"));
        List<ReferenceFilter> filters = ReferenceFilters.usual();
        for (int i = 0; i < filters.size(); i++) {
            ReferenceFilter filter = filters.get(i);
            filterCases.add(new VersionCase("filter_" + i, null, filter.scan(paimon.rowType(ReferenceScan.of(filter.table())))));
            commands.add(command("scan", "filter_" + i, warehouse, filter.table(), null, null, filter.where(), "splits", options));
        }
        for (ReferenceTable table : ReferenceTables.all()) {
            for (VersionCase version : versions(table)) {
                versionCases.add(version);
                commands.add(command("scan", version.name(), warehouse, table.identifier(), version.version(), null, null, "splits", options));
            }
        }
        Map<String, String> environment = NativeProgram.environment();
        // the keys of the process that opens splits
        environment.put("AWS_ACCESS_KEY_ID", S3ProxyServer.ACCESS_KEY);
        environment.put("AWS_SECRET_ACCESS_KEY", S3ProxyServer.SECRET_KEY);
        output = NativeProgram.run(commands, environment);
    }

    @AfterClass(alwaysRun = true)
    public void deleteTables()
    {
        if (lake != null) {
            lake.close();
        }
    }

    @Test
    public void testScansFromS3MatchPaimon()
    {
        assertThat(output.done()).as(output.stderr()).isTrue();
        CanonicalRows paimonRows = paimon.read(DV);
        assertRows("dv_splits", paimonRows);
        assertRows("environment_keys", paimonRows);
        assertThat(output.get("dv_splits").value("splits")).isGreaterThan(0);
        assertThat(output.get("dv_table").lines()).isNotEmpty().allMatch(line -> Long.parseLong(line.split("\t")[1]) >= 20);
        assertThat(output.get("partitioned_table").lines()).hasSize(paimon.read(ReferenceScan.of(PARTITIONED).atTag("t1")).rowCount());
    }

    /**
     * Every reference table at its latest snapshot, at each snapshot still present, at each tag
     * and on each branch, read from S3 through the C ABI, equals Paimon's read through S3.
     */
    @Test
    public void testEveryVersionMatchesPaimon()
    {
        assertThat(output.done()).as(output.stderr()).isTrue();
        assertThat(versionCases).hasSizeGreaterThan(ReferenceTables.all().size());
        for (VersionCase version : versionCases) {
            assertRows(version.name(), paimon.read(version.scan()));
        }
    }

    /**
     * The usual filters ({@link ReferenceFilters}) as the C ABI's {@code where}: the rows equal
     * Paimon's under the same condition.
     */
    @Test
    public void testUsualFiltersMatchPaimon()
    {
        assertThat(output.done()).as(output.stderr()).isTrue();
        assertThat(filterCases).hasSameSizeAs(ReferenceFilters.usual());
        for (VersionCase filter : filterCases) {
            assertRows(filter.name(), paimon.read(filter.scan()));
        }
    }

    private List<VersionCase> versions(ReferenceTable table)
    {
        String name = table.tableName();
        ReferenceScan latest = ReferenceScan.of(table.identifier());
        List<VersionCase> versions = new ArrayList<>();
        versions.add(new VersionCase(name + "_latest", null, latest));
        for (ReferenceSnapshot snapshot : paimon.snapshots(table.identifier())) {
            versions.add(new VersionCase(name + "_snapshot_" + snapshot.id(), "snapshot:" + snapshot.id(), latest.atSnapshot(snapshot.id())));
        }
        for (String tag : paimon.tags(table.identifier())) {
            versions.add(new VersionCase(name + "_tag_" + tag, "tag:" + tag, latest.atTag(tag)));
        }
        for (String branch : table.branches()) {
            versions.add(new VersionCase(name + "_branch_" + branch, "branch:" + branch, latest.onBranch(branch)));
        }
        return versions;
    }

    /**
     * A scan of the C program ({@code version} in its grammar, null for the latest) and the
     * oracle's scan of the same version and filter.
     */
    private record VersionCase(String name, String version, ReferenceScan scan) {}

    @Test
    public void testBadSettingsAreStatuses()
    {
        Case wrongKey = output.get("wrong_key");
        assertThat(wrongKey.status()).isNotZero();
        assertThat(wrongKey.error()).contains(lake.location(), "403");
        Case badOption = output.get("bad_option");
        assertThat(badOption.status()).isNotZero();
        assertThat(badOption.error()).contains("Storage option is not KEY=VALUE: s3.endpoint");
    }

    private void assertRows(String name, CanonicalRows expected)
    {
        Case result = output.get(name);
        assertThat(result.status()).as(name + ": " + result.error()).isZero();
        assertThat(CanonicalRows.of(result.lines()).lines()).as(name).isEqualTo(expected.lines());
    }
}
