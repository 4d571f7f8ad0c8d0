package io.tarn.storage.write;

import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.catalog.Warehouse;
import io.tarn.storage.fs.s3.S3FileIO;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.snapshot.Snapshot;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.CanonicalRows;
import io.tarn.testing.ObjectStoreLake;
import io.tarn.testing.PaimonOnS3;
import io.tarn.testing.ReferenceScan;
import io.tarn.testing.ReferenceSnapshot;
import io.tarn.testing.ReferenceTable;
import io.tarn.testing.ReferenceTables;
import org.apache.arrow.memory.RootAllocator;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Apache Paimon and Tarn on one object store (S3Proxy on 127.0.0.1), each through its own S3
 * client: Paimon's {@code paimon-s3} (Hadoop S3A, in the JDK 17 child JVM of {@link PaimonOnS3})
 * and Tarn's. What Paimon writes through S3 Tarn reads from {@code s3://} as Paimon reads it back,
 * at every snapshot, tag and branch; what Tarn writes Paimon reads and appends to through S3, and
 * Tarn then reads what Paimon appended.
 */
public class TestPaimonWritesThroughS3
{
    private static final List<ReferenceTable> TABLES = List.of(
            ReferenceTables.APPEND_PARTITIONED, ReferenceTables.PK_DV, ReferenceTables.APPEND_EVOLVED, ReferenceTables.TIME_TRAVEL);

    private ObjectStoreLake lake;
    private PaimonOnS3 paimon;
    private Warehouse warehouse;
    private RootAllocator allocator;

    @BeforeClass
    public void setUp()
            throws IOException
    {
        lake = ObjectStoreLake.create("tarn-paimon-s3", TABLES);
        paimon = lake.paimon();
        warehouse = Warehouse.open(lake.location(), lake.clientProperties());
        allocator = new RootAllocator();
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        if (warehouse != null) {
            ((S3FileIO) warehouse.fileIO()).close();
        }
        if (lake != null) {
            lake.close();
        }
        if (allocator != null) {
            assertThat(allocator.getAllocatedMemory()).as("Arrow memory leaked").isZero();
            allocator.close();
        }
    }

    @DataProvider
    public Object[][] tables()
    {
        return TABLES.stream().map(table -> new Object[] {table}).toArray(Object[][]::new);
    }

    /**
     * Every snapshot still present, every tag and every branch of a table Paimon wrote through
     * S3 read by Tarn from {@code s3://} gives Paimon's rows, read through S3 too.
     */
    @Test(dataProvider = "tables")
    public void testTarnReadsWhatPaimonWroteThroughS3(ReferenceTable table)
            throws IOException
    {
        String name = table.identifier();
        PaimonTable loaded = PaimonTable.load(warehouse.catalog(), Identifier.parse(name));
        List<ReferenceSnapshot> snapshots = paimon.snapshots(name);
        assertThat(snapshots).as("snapshots of %s", name).isNotEmpty();
        assertThat(loaded.snapshotManager().latest().map(Snapshot::id)).contains(snapshots.get(snapshots.size() - 1).id());
        assertThat(paimon.tags(name)).as("tags of %s", name).containsExactlyInAnyOrderElementsOf(table.tags());

        assertThat(TableCopies.tarnRows(loaded, allocator)).as("%s latest", name).isEqualTo(paimon.read(name).text());
        for (ReferenceSnapshot snapshot : snapshots) {
            assertThat(TableCopies.tarnRows(loaded, new ScanVersion.SnapshotId(snapshot.id()), allocator))
                    .as("%s at snapshot %s", name, snapshot.id())
                    .isEqualTo(paimon.read(ReferenceScan.of(name).atSnapshot(snapshot.id())).text());
        }
        for (String tag : table.tags()) {
            assertThat(TableCopies.tarnRows(loaded, new ScanVersion.TagName(tag), allocator))
                    .as("%s at tag %s", name, tag)
                    .isEqualTo(paimon.read(ReferenceScan.of(name).atTag(tag)).text());
        }
        for (String branch : table.branches()) {
            PaimonTable onBranch = PaimonTable.load(warehouse.catalog(), Identifier.parse(name), branch);
            assertThat(TableCopies.tarnRows(onBranch, allocator))
                    .as("%s on branch %s", name, branch)
                    .isEqualTo(paimon.read(ReferenceScan.of(name).onBranch(branch)).text());
        }
    }

    /**
     * Tarn copies a table Paimon wrote into a new one on S3; Paimon reads the copy through S3 as
     * Tarn does, appends rows to it, a new partition's and an existing one's, and Tarn reads
     * Paimon's rows of both snapshots.
     */
    @Test
    public void testPaimonReadsAndAppendsToWhatTarnWroteThroughS3()
            throws IOException
    {
        String source = ReferenceTables.APPEND_PARTITIONED.identifier();
        String copyName = ReferenceTables.DATABASE + ".tarn_copy";
        PaimonTable copy = TableCopies.copyWithTarn(warehouse.catalog(), allocator, source, copyName, Map.of());
        CanonicalRows written = paimon.read(copyName);
        assertThat(written).as("Paimon reads Tarn's copy as the source").isEqualTo(paimon.read(source));
        assertThat(TableCopies.tarnRows(copy, allocator)).isEqualTo(written.text());

        // (dt, region, id, name, amount)
        List<GenericRow> rows = List.of(
                GenericRow.of(BinaryString.fromString("2024-02-01"), 7, 1000, BinaryString.fromString("by paimon"), 1.5),
                GenericRow.of(BinaryString.fromString("2024-01-01"), 1, 1001, BinaryString.fromString("by paimon \u00e9"), null),
                GenericRow.of(null, null, 1002, null, -2.25));
        assertThat(paimon.append(copyName, rows)).isEqualTo(2);
        CanonicalRows appended = paimon.read(copyName);
        assertThat(appended.rowCount()).isEqualTo(written.rowCount() + rows.size());

        PaimonTable reloaded = PaimonTable.load(warehouse.catalog(), Identifier.parse(copyName));
        assertThat(reloaded.snapshotManager().latest().map(Snapshot::id)).contains(2L);
        assertThat(TableCopies.tarnRows(reloaded, allocator)).as("after Paimon's append").isEqualTo(appended.text());
        assertThat(TableCopies.tarnRows(reloaded, new ScanVersion.SnapshotId(1), allocator)).as("Tarn's snapshot").isEqualTo(written.text());
    }
}
