package io.tarn.storage.snapshot;

import io.tarn.storage.InvalidNameException;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.schema.SchemaManager;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataTypes;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.util.List;

import static io.tarn.storage.snapshot.TestSnapshotJson.assertSameSnapshot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestBranchManager
{
    private final LocalFileIO fileIO = new LocalFileIO();
    private PaimonTables paimon;
    private FileStoreTable table;
    private String root;

    @BeforeClass
    public void setUp()
            throws Exception
    {
        paimon = new PaimonTables();
        table = paimon.create("branched", Schema.newBuilder()
                .column("a", DataTypes.INT())
                .column("b", DataTypes.STRING())
                .build());
        paimon.write(table, GenericRow.of(1, BinaryString.fromString("x")));
        paimon.write(table, GenericRow.of(2, BinaryString.fromString("y")));
        table.createTag("t1", 1);
        table.createBranch("from_tag", "t1");
        table.createBranch("empty_branch");
        paimon.write(table.switchToBranch("from_tag"), GenericRow.of(3, BinaryString.fromString("z")));
        root = table.location().toUri().getPath();
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
            throws Exception
    {
        paimon.close();
    }

    @Test
    public void testBranches()
            throws Exception
    {
        assertThat(new BranchManager(fileIO, root).branches())
                .isEqualTo(table.branchManager().branches().stream().sorted().toList())
                .containsExactly("empty_branch", "from_tag");
        assertThat(BranchManager.branchRoot(root, "main")).isEqualTo(root);
        assertThat(BranchManager.branchRoot(root, "from_tag")).isEqualTo(root + "/branch/branch-from_tag");
    }

    @Test
    public void testBranchSnapshots()
            throws Exception
    {
        org.apache.paimon.utils.SnapshotManager paimonSnapshots = table.snapshotManager().copyWithBranch("from_tag");
        SnapshotManager snapshots = new SnapshotManager(fileIO, root, "from_tag");
        // the branch starts with a copy of the tagged snapshot 1, then gets its own snapshot 2
        assertThat(snapshots.listIds()).containsExactly(1L, 2L);
        assertThat(snapshots.earliestId()).contains(paimonSnapshots.earliestSnapshotId());
        assertThat(snapshots.latestId()).contains(paimonSnapshots.latestSnapshotId());
        for (long id : snapshots.listIds()) {
            assertSameSnapshot(snapshots.snapshot(id), paimonSnapshots.snapshot(id));
        }
        // the main branch is not affected
        assertThat(new SnapshotManager(fileIO, root, "main").listIds()).containsExactly(1L, 2L);
        assertThat(new SnapshotManager(fileIO, root, "main").snapshot(2).commitUser())
                .isNotEqualTo(snapshots.snapshot(2).commitUser());

        assertThat(new TagManager(fileIO, root, "from_tag").tagNames()).containsExactly("t1");
        assertThat(new SnapshotManager(fileIO, root, "empty_branch").latestId()).isEmpty();
    }

    @Test
    public void testBranchSchemas()
            throws Exception
    {
        for (String branch : List.of("from_tag", "empty_branch")) {
            SchemaManager schemas = new SchemaManager(fileIO, root, branch);
            org.apache.paimon.schema.SchemaManager paimonSchemas = table.schemaManager().copyWithBranch(branch);
            assertThat(schemas.listIds()).isEqualTo(paimonSchemas.listAllIds().stream().sorted().toList());
            assertThat(schemas.latest().orElseThrow().fields().size()).isEqualTo(paimonSchemas.latest().orElseThrow().fields().size());
        }
    }

    @Test
    public void testInvalidNames()
    {
        for (String name : List.of("", " ", "123", "a/b", "..", "x/../y", "a\\b", "nul\0")) {
            assertThatThrownBy(() -> BranchManager.branchRoot("/t", name)).as(name).isInstanceOf(InvalidNameException.class);
            assertThatThrownBy(() -> new SnapshotManager(fileIO, "/t", name)).as(name).isInstanceOf(InvalidNameException.class);
        }
        assertThatThrownBy(() -> BranchManager.validateNewBranchName("main"))
                .isInstanceOf(InvalidNameException.class)
                .hasMessageContaining("'main'");
        BranchManager.validateNewBranchName("b1");
        BranchManager.validateBranchName("2024_q1");
    }
}
