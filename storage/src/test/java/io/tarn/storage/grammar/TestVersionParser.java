package io.tarn.storage.grammar;

import io.tarn.storage.InvalidNameException;
import io.tarn.storage.snapshot.ScanVersion;
import org.testng.annotations.Test;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestVersionParser
{
    // zones with offsets no machine default is likely to share, and different from each other
    private static final ZoneId KOLKATA = ZoneId.of("Asia/Kolkata");
    private static final ZoneId LOS_ANGELES = ZoneId.of("America/Los_Angeles");

    @Test
    public void testEmptyIsLatestOfMain()
    {
        assertThat(VersionParser.parse("")).isEqualTo(new TableVersion("main", new ScanVersion.Latest()));
        assertThat(VersionParser.parse("  \t")).isEqualTo(TableVersion.latest());
    }

    @Test
    public void testSnapshot()
    {
        assertThat(VersionParser.parse("snapshot:3")).isEqualTo(new TableVersion("main", new ScanVersion.SnapshotId(3)));
        assertThat(VersionParser.parse(" snapshot: 12 ")).isEqualTo(new TableVersion("main", new ScanVersion.SnapshotId(12)));
        assertThat(VersionParser.parse("snapshot:9223372036854775807").version()).isEqualTo(new ScanVersion.SnapshotId(Long.MAX_VALUE));
        assertThat(VersionParser.snapshotId("1")).isEqualTo(1);
        assertThat(VersionParser.snapshotId(" 42 ")).isEqualTo(42);
    }

    @Test
    public void testSnapshotErrors()
    {
        assertProblem("snapshot:0", "Snapshot ids start at 1");
        assertProblem("snapshot:-2", "Snapshot ids start at 1");
        assertProblem("snapshot:", "Not a snapshot id");
        assertProblem("snapshot:abc", "Not a snapshot id");
        assertProblem("snapshot:1.5", "Not a snapshot id");
        assertProblem("snapshot:9223372036854775808", "Not a snapshot id");
        assertThatThrownBy(() -> VersionParser.snapshotId("0"))
                .isInstanceOf(VersionSyntaxException.class)
                .hasMessage("Version '0': Snapshot ids start at 1");
        assertThatThrownBy(() -> VersionParser.snapshotId("x1"))
                .isInstanceOf(VersionSyntaxException.class)
                .hasMessage("Version 'x1': Not a snapshot id")
                .hasCauseInstanceOf(NumberFormatException.class);
    }

    @Test
    public void testTag()
    {
        assertThat(VersionParser.parse("tag:release-1")).isEqualTo(new TableVersion("main", new ScanVersion.TagName("release-1")));
        // names are taken as written: only the whole text is trimmed
        assertThat(VersionParser.parse("tag: spaced name ").version()).isEqualTo(new ScanVersion.TagName(" spaced name"));
        assertThat(VersionParser.parse("tag:a:b,c").version()).isEqualTo(new ScanVersion.TagName("a:b,c"));
        assertThat(VersionParser.tagName(" t ")).isEqualTo(" t ");
        assertProblem("tag:", "Tag name is blank");
        assertThatThrownBy(() -> VersionParser.tagName(" "))
                .isInstanceOf(VersionSyntaxException.class)
                .hasMessage("Version ' ': Tag name is blank");
    }

    @Test
    public void testBareVersionIsPaimonScanVersion()
    {
        assertThat(VersionParser.parse("3")).isEqualTo(new TableVersion("main", new ScanVersion.Version("3")));
        assertThat(VersionParser.parse(" my_tag ")).isEqualTo(new TableVersion("main", new ScanVersion.Version("my_tag")));
        assertThat(VersionParser.parse("branch:b1/t1")).isEqualTo(new TableVersion("b1", new ScanVersion.Version("t1")));
    }

    @Test
    public void testUnknownKind()
    {
        assertProblem("snapshots:3", "Unknown kind 'snapshots'; expected branch:, snapshot:, tag:, timestamp: or a version without ':'");
        assertProblem("Snapshot:3", "Unknown kind 'Snapshot'; expected branch:, snapshot:, tag:, timestamp: or a version without ':'");
        assertProblem("branch:b1/version:3", "Unknown kind 'version'; expected branch:, snapshot:, tag:, timestamp: or a version without ':'");
    }

    @Test
    public void testTimestampEpochMillis()
    {
        assertThat(VersionParser.parse("timestamp:1700000000123", KOLKATA))
                .isEqualTo(new TableVersion("main", new ScanVersion.TimestampMillis(1_700_000_000_123L)));
        assertThat(VersionParser.parse("timestamp: 0 ", KOLKATA).version()).isEqualTo(new ScanVersion.TimestampMillis(0));
    }

    @Test
    public void testTimestampInstants()
    {
        // the same instant in every spelling; the zone must not matter
        long expected = Instant.parse("2024-01-01T08:00:00Z").toEpochMilli();
        for (String text : new String[] {"2024-01-01T08:00:00Z", "2024-01-01t08:00:00z", "2024-01-01 08:00:00Z", "2024-01-01T08:00Z",
                "2024-01-01T10:00:00+02:00", "2024-01-01T10:00+02:00", "2024-01-01 03:00:00-05:00", "2024-01-01T13:30:00.000+05:30"}) {
            for (ZoneId zone : new ZoneId[] {KOLKATA, LOS_ANGELES}) {
                assertThat(VersionParser.parse("timestamp:" + text, zone).version()).as(text).isEqualTo(new ScanVersion.TimestampMillis(expected));
                assertThat(VersionParser.timestampMillis(text, zone)).as(text).isEqualTo(expected);
            }
        }
        assertThat(VersionParser.timestampMillis("2024-01-01T08:00:00.25Z", KOLKATA)).isEqualTo(expected + 250);
    }

    @Test
    public void testLocalTimestampsUseTheZone()
    {
        // Kolkata is UTC+05:30 all year; Los Angeles is UTC-08:00 in January and UTC-07:00 in July
        assertThat(VersionParser.parse("timestamp:2024-01-01T10:00", KOLKATA).version())
                .isEqualTo(new ScanVersion.TimestampMillis(Instant.parse("2024-01-01T04:30:00Z").toEpochMilli()));
        assertThat(VersionParser.parse("timestamp:2024-01-01 10:00:00.5", LOS_ANGELES).version())
                .isEqualTo(new ScanVersion.TimestampMillis(Instant.parse("2024-01-01T18:00:00.500Z").toEpochMilli()));
        assertThat(VersionParser.parse("timestamp:2024-07-01", LOS_ANGELES).version())
                .isEqualTo(new ScanVersion.TimestampMillis(Instant.parse("2024-07-01T07:00:00Z").toEpochMilli()));
        assertThat(VersionParser.parse("timestamp:2024-07-01", KOLKATA).version())
                .isEqualTo(new ScanVersion.TimestampMillis(Instant.parse("2024-06-30T18:30:00Z").toEpochMilli()));
    }

    @Test
    public void testLocalTimestampsDefaultToTheJvmZone()
    {
        long expected = LocalDateTime.of(2024, 1, 1, 10, 0).atZone(ZoneId.systemDefault()).toInstant().toEpochMilli();
        assertThat(VersionParser.parse("timestamp:2024-01-01T10:00").version()).isEqualTo(new ScanVersion.TimestampMillis(expected));
        assertThat(VersionParser.timestampMillis("2024-01-01 10:00")).isEqualTo(expected);
        assertThat(VersionParser.timestampMillis("2024-01-01"))
                .isEqualTo(LocalDateTime.of(2024, 1, 1, 0, 0).atZone(ZoneId.systemDefault()).toInstant().toEpochMilli());
    }

    @Test
    public void testTimestampErrors()
    {
        for (String text : new String[] {"", "yesterday", "2024-13-01", "2024-01-01T25:00", "2024-1-1", "2024-01-01T10:00+2", "-5", "99999999999999999999", "10:00"}) {
            assertThatThrownBy(() -> VersionParser.parse("timestamp:" + text, KOLKATA))
                    .as(text)
                    .isInstanceOf(VersionSyntaxException.class)
                    .hasMessageStartingWith("Version 'timestamp:" + text + "': Not a timestamp; expected epoch milliseconds, an instant")
                    .extracting(e -> ((VersionSyntaxException) e).text())
                    .isEqualTo("timestamp:" + text);
        }
        assertThatThrownBy(() -> VersionParser.timestampMillis("soon"))
                .isInstanceOf(VersionSyntaxException.class)
                .hasMessageStartingWith("Version 'soon': Not a timestamp");
    }

    @Test
    public void testBranch()
    {
        assertThat(VersionParser.parse("branch:b1")).isEqualTo(new TableVersion("b1", new ScanVersion.Latest()));
        assertThat(VersionParser.parse("branch:main")).isEqualTo(TableVersion.latest());
        assertThat(VersionParser.parse("branch:b1/snapshot:3")).isEqualTo(new TableVersion("b1", new ScanVersion.SnapshotId(3)));
        assertThat(VersionParser.parse("branch:b,1/tag:t:1")).isEqualTo(new TableVersion("b,1", new ScanVersion.TagName("t:1")));
        assertThat(VersionParser.parse("branch:2024_q1/timestamp:2024-01-01T10:00", KOLKATA))
                .isEqualTo(new TableVersion("2024_q1", new ScanVersion.TimestampMillis(Instant.parse("2024-01-01T04:30:00Z").toEpochMilli())));
        assertThat(VersionParser.branchName("B1")).isEqualTo("B1");
    }

    @Test
    public void testBranchErrors()
    {
        assertBranchProblem("branch:", "Branch name is blank");
        assertBranchProblem("branch:/snapshot:3", "Branch name is blank");
        assertBranchProblem("branch:123", "Branch name '123' is all digits, which Paimon reserves for snapshot ids");
        assertBranchProblem("branch:a..b/snapshot:3", "Branch name 'a..b' contains a path separator, '..' or NUL");
        assertProblem("branch:b1/", "Nothing follows '/'; expected snapshot:ID, tag:NAME, timestamp:TIMESTAMP or a version");
        assertProblem("branch:b1/branch:b2", "A branch is given once, first, as in branch:NAME/snapshot:ID");
        assertProblem("snapshot:3/branch:b1", "The branch comes first, as in branch:NAME/snapshot:ID");
        assertThatThrownBy(() -> VersionParser.branchName("7"))
                .isInstanceOf(VersionSyntaxException.class)
                .hasMessage("Version '7': Branch name '7' is all digits, which Paimon reserves for snapshot ids");
        assertThatThrownBy(() -> new TableVersion("a/b", new ScanVersion.Latest())).isInstanceOf(InvalidNameException.class);
    }

    private static void assertBranchProblem(String text, String problem)
    {
        assertProblem(text, problem);
        assertThatThrownBy(() -> VersionParser.parse(text)).hasCauseInstanceOf(InvalidNameException.class);
    }

    private static void assertProblem(String text, String problem)
    {
        assertThatThrownBy(() -> VersionParser.parse(text, KOLKATA))
                .as(text)
                .isInstanceOf(VersionSyntaxException.class)
                .hasMessage("Version '" + text + "': " + problem)
                .satisfies(e -> {
                    assertThat(((VersionSyntaxException) e).problem()).isEqualTo(problem);
                    assertThat(((VersionSyntaxException) e).text()).isEqualTo(text);
                });
    }
}
