package io.tarn.jni;

import io.tarn.storage.grammar.VersionSyntaxException;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.testing.ReferenceSnapshot;
import io.tarn.testing.ReferenceTables;
import io.tarn.testing.TemporaryDirectories;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

import static java.util.Comparator.comparingLong;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The version text of a C scan follows the shared version grammar: the forms the command line
 * accepts for timestamps, and a branch.
 */
public class TestScanRequest
{
    private static final String TIME_TRAVEL = ReferenceTables.TIME_TRAVEL.identifier();

    private Path warehouse;

    @BeforeClass
    public void createTables()
    {
        warehouse = TemporaryDirectories.create("tarn-jni-scan-request");
        ReferenceTables.create(warehouse, ReferenceTables.TIME_TRAVEL);
    }

    @AfterClass(alwaysRun = true)
    public void deleteTables()
    {
        TemporaryDirectories.deleteRecursively(warehouse);
    }

    @Test
    public void testTimestampWithOffset()
    {
        // Paimon, the oracle, says when the oldest snapshot still present was committed
        ReferenceSnapshot oldest = ReferenceTables.snapshots(warehouse, TIME_TRAVEL).stream().min(comparingLong(ReferenceSnapshot::id)).orElseThrow();
        Instant committed = Instant.ofEpochMilli(oldest.timeMillis());
        for (ZoneOffset offset : List.of(ZoneOffset.ofHoursMinutes(5, 30), ZoneOffset.ofHours(-3), ZoneOffset.UTC)) {
            String text = "timestamp:" + DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(committed.atOffset(offset));
            ScanRequest request = ScanRequest.of(warehouse.toString(), TIME_TRAVEL, text, null, null);
            assertThat(request.scanVersion()).as(text).isEqualTo(new ScanVersion.TimestampMillis(oldest.timeMillis()));
            assertThat(request.version().branch()).isEqualTo("main");
            for (SplitDescriptor split : plan(text)) {
                assertThat(split.snapshotId()).as(text).hasValue(oldest.id());
                assertThat(split.branch()).isEqualTo("main");
            }
        }
    }

    @Test
    public void testBranch()
    {
        List<ReferenceSnapshot> branchSnapshots = ReferenceTables.snapshots(warehouse, TIME_TRAVEL + "$branch_b1");
        ReferenceSnapshot latestOfBranch = branchSnapshots.stream().max(comparingLong(ReferenceSnapshot::id)).orElseThrow();
        for (SplitDescriptor split : plan("branch:b1")) {
            assertThat(split.branch()).isEqualTo("b1");
            assertThat(split.snapshotId()).hasValue(latestOfBranch.id());
        }
        ReferenceSnapshot firstOfBranch = branchSnapshots.stream().min(comparingLong(ReferenceSnapshot::id)).orElseThrow();
        assertThat(firstOfBranch.id()).isLessThan(latestOfBranch.id());
        for (SplitDescriptor split : plan("branch:b1/snapshot:" + firstOfBranch.id())) {
            assertThat(split.branch()).isEqualTo("b1");
            assertThat(split.snapshotId()).hasValue(firstOfBranch.id());
        }
    }

    @Test
    public void testBadVersionsNameTableAndText()
    {
        for (String version : List.of("snapshot:0", "snapshot:x", "timestamp:yesterday", "tag:", "branch:123", "branch:b1/", "snapshots:3")) {
            assertThatThrownBy(() -> ScanRequest.of(warehouse.toString(), TIME_TRAVEL, version, null, null))
                    .as(version)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("Table " + TIME_TRAVEL + ": Version '" + version + "': ")
                    .hasCauseInstanceOf(VersionSyntaxException.class);
            Object[] result = new Object[1];
            assertThat(TarnBridge.plan(warehouse.toString(), TIME_TRAVEL, version, null, null, result)).as(version)
                    .startsWith(Status.INVALID_ARGUMENT.code() + "\tTable " + TIME_TRAVEL + ": Version '" + version + "': ");
        }
        // blank means the latest snapshot of main, as NULL does
        assertThat(ScanRequest.of(warehouse.toString(), TIME_TRAVEL, " ", null, null).scanVersion()).isEqualTo(new ScanVersion.Latest());
        assertThat(ScanRequest.of(warehouse.toString(), TIME_TRAVEL, null, null, null).scanVersion()).isEqualTo(new ScanVersion.Latest());
    }

    private List<SplitDescriptor> plan(String version)
    {
        Object[] result = new Object[1];
        assertThat(TarnBridge.plan(warehouse.toString(), TIME_TRAVEL, version, null, null, result)).as(version).isNull();
        ByteBuffer plan = ByteBuffer.wrap((byte[]) result[0]);
        List<SplitDescriptor> splits = new ArrayList<>();
        for (int count = plan.getInt(); count > 0; count--) {
            byte[] descriptor = new byte[plan.getInt()];
            plan.get(descriptor);
            splits.add(SplitDescriptor.decode(descriptor));
        }
        assertThat(splits).as(version).isNotEmpty();
        return splits;
    }
}
