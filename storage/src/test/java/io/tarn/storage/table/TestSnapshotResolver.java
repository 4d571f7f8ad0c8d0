package io.tarn.storage.table;

import io.tarn.storage.CommitConflictException;
import io.tarn.storage.InvalidNameException;
import io.tarn.storage.SnapshotNotFoundException;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.snapshot.PaimonTables;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.snapshot.Snapshot;
import io.tarn.storage.snapshot.SnapshotManager;
import io.tarn.storage.snapshot.TagManager;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.snapshot.TimeTravelUtil;
import org.apache.paimon.types.DataTypes;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;

import static io.tarn.storage.snapshot.TestSnapshotJson.assertSameSnapshot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestSnapshotResolver
{
    private final LocalFileIO fileIO = new LocalFileIO();
    private PaimonTables paimon;
    private FileStoreTable table;
    private FileStoreTable expired;
    private FileStoreTable empty;

    @BeforeClass
    public void setUp()
            throws Exception
    {
        paimon = new PaimonTables();
        table = createTable("travel");
        for (int i = 0; i < 4; i++) {
            paimon.write(table, GenericRow.of(i, BinaryString.fromString("v" + i)));
            Thread.sleep(5);
        }
        table.createTag("first", 1);
        table.createTag("third", 3);

        expired = createTable("expired");
        for (int i = 0; i < 4; i++) {
            paimon.write(expired, GenericRow.of(i, BinaryString.fromString("v" + i)));
        }
        expired.createTag("old", 1);
        PaimonTables.expireAllBut(expired, 1);

        empty = createTable("empty");
    }

    private FileStoreTable createTable(String name)
            throws Exception
    {
        return paimon.create(name, Schema.newBuilder()
                .column("a", DataTypes.INT())
                .column("b", DataTypes.STRING())
                .build());
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
            throws Exception
    {
        paimon.close();
    }

    private SnapshotResolver resolver(FileStoreTable table)
    {
        String root = table.location().toUri().getPath();
        return new SnapshotResolver(new SnapshotManager(fileIO, root, "main"), new TagManager(fileIO, root, "main"));
    }

    private static org.apache.paimon.Snapshot paimonTravel(FileStoreTable table, String key, String value)
    {
        Options options = new Options();
        options.set(key, value);
        return TimeTravelUtil.tryTravelToSnapshot(options, table.snapshotManager(), table.tagManager()).orElseThrow();
    }

    @Test
    public void testLatest()
            throws Exception
    {
        assertSameSnapshot(resolver(table).resolve(ScanVersion.latest()).orElseThrow(), table.snapshotManager().latestSnapshot());
        assertThat(resolver(empty).resolve(new ScanVersion.Latest())).isEmpty();
    }

    @Test
    public void testSnapshotId()
            throws Exception
    {
        for (long id = 1; id <= 4; id++) {
            Snapshot actual = resolver(table).resolve(new ScanVersion.SnapshotId(id)).orElseThrow();
            assertSameSnapshot(actual, paimonTravel(table, "scan.snapshot-id", String.valueOf(id)));
        }
        assertThatThrownBy(() -> resolver(expired).resolve(new ScanVersion.SnapshotId(2)))
                .isInstanceOf(SnapshotNotFoundException.class)
                .hasMessageContaining("Snapshot 2")
                .hasMessageContaining("snapshot-2")
                .hasMessageContaining("existing snapshots are 4..4");
        assertThatThrownBy(() -> resolver(empty).resolve(new ScanVersion.SnapshotId(1)))
                .isInstanceOf(SnapshotNotFoundException.class)
                .hasMessageContaining("no snapshots");
    }

    @Test
    public void testTag()
            throws Exception
    {
        for (String tag : List.of("first", "third")) {
            Snapshot actual = resolver(table).resolve(new ScanVersion.TagName(tag)).orElseThrow();
            assertSameSnapshot(actual, paimonTravel(table, "scan.tag-name", tag));
        }
        // the tagged snapshot has expired; the tag file still holds it
        assertThat(expired.snapshotManager().snapshotExists(1)).isFalse();
        Snapshot old = resolver(expired).resolve(new ScanVersion.TagName("old")).orElseThrow();
        assertSameSnapshot(old, paimonTravel(expired, "scan.tag-name", "old"));
        assertThat(old.id()).isEqualTo(1);

        assertThatThrownBy(() -> resolver(table).resolve(new ScanVersion.TagName("missing")))
                .isInstanceOf(SnapshotNotFoundException.class)
                .hasMessageContaining("Tag 'missing'")
                .hasMessageContaining(table.location().toUri().getPath())
                .hasMessageContaining("[first, third]");
    }

    @Test
    public void testTimestamp()
            throws Exception
    {
        List<Long> probes = new ArrayList<>();
        for (long id = 1; id <= 4; id++) {
            long time = table.snapshotManager().snapshot(id).timeMillis();
            probes.add(time);
            probes.add(time + 1);
        }
        probes.add(Long.MAX_VALUE);
        for (long probe : probes) {
            Snapshot actual = resolver(table).resolve(new ScanVersion.TimestampMillis(probe)).orElseThrow();
            assertSameSnapshot(actual, paimonTravel(table, "scan.timestamp-millis", String.valueOf(probe)));
        }
        long beforeFirst = table.snapshotManager().snapshot(1).timeMillis() - 1;
        assertThatThrownBy(() -> paimonTravel(table, "scan.timestamp-millis", String.valueOf(beforeFirst)))
                .isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> resolver(table).resolve(new ScanVersion.TimestampMillis(beforeFirst)))
                .isInstanceOf(SnapshotNotFoundException.class)
                .hasMessageContaining("No snapshot at or before")
                .hasMessageContaining(String.valueOf(beforeFirst))
                .hasMessageContaining("earliest snapshot 1");
        assertThatThrownBy(() -> resolver(empty).resolve(new ScanVersion.TimestampMillis(1)))
                .isInstanceOf(SnapshotNotFoundException.class)
                .hasMessageContaining("has no snapshots");
    }

    @Test
    public void testVersion()
            throws Exception
    {
        for (String version : List.of("first", "third", "2", "4")) {
            Snapshot actual = resolver(table).resolve(new ScanVersion.Version(version)).orElseThrow();
            assertSameSnapshot(actual, paimonTravel(table, "scan.version", version));
        }
        assertThatThrownBy(() -> resolver(table).resolve(new ScanVersion.Version("nope")))
                .isInstanceOf(SnapshotNotFoundException.class)
                .hasMessageContaining("'nope'");
        assertThatThrownBy(() -> resolver(table).resolve(new ScanVersion.Version("")))
                .isInstanceOf(SnapshotNotFoundException.class);
    }

    @Test
    public void testTagManager()
            throws Exception
    {
        String root = table.location().toUri().getPath();
        TagManager tags = new TagManager(fileIO, root, "main");
        assertThat(tags.tagNames()).isEqualTo(table.tagManager().allTagNames().stream().sorted().toList());
        assertThat(tags.tag("missing")).isEmpty();

        Snapshot second = new SnapshotManager(fileIO, root, "main").snapshot(2);
        LocalDateTime before = LocalDateTime.now().withNano(0);
        tags.createTag("ours", second);
        org.apache.paimon.tag.Tag paimonView = table.tagManager().getOrThrow("ours");
        assertSameSnapshot(second, paimonView);
        assertThat(paimonView.getTagCreateTime()).isAfterOrEqualTo(before);
        assertThat(tags.tag("ours").orElseThrow().tagCreateTime()).contains(paimonView.getTagCreateTime());
        assertSameSnapshot(resolver(table).resolve(new ScanVersion.TagName("ours")).orElseThrow(), paimonTravel(table, "scan.tag-name", "ours"));
        assertThatThrownBy(() -> tags.createTag("ours", second))
                .isInstanceOf(CommitConflictException.class)
                .hasMessageContaining("'ours'");
        for (String bad : List.of("", " ", "a/b", "..", "x\\y")) {
            assertThatThrownBy(() -> tags.tag(bad)).isInstanceOf(InvalidNameException.class);
        }
        assertThat(tags.tag("ours").orElseThrow().snapshot().id()).isEqualTo(2);
    }
}
